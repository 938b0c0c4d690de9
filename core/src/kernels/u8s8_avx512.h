// The AVX-512 traits of gemm_u8s8_shifted_nt (u8s8_x86.h), for kernels_avx512_u8s8.cpp (AVX512BW:
// vpmaddubsw, vpmaddwd by ones, vpaddd) and kernels_avx512_vnni_u8s8.cpp (the same vpmaddubsw, then
// AVX512_VNNI's vpdpwssd by ones, which adds each int16 pair into the int32 accumulator in one
// instruction: acc + x[2i]·1 + x[2i+1]·1, the same integers as vpaddd(acc, vpmaddwd(x, ones)), with no
// saturation, unlike vpdpwssds; not vpdpbusd, which would not saturate the byte pairs as
// vpmaddubsw does). Each file includes this header in an anonymous namespace of its own, compiled
// with its own flags.
#pragma once

#include <immintrin.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>

namespace attend::kernels {
namespace {

template <bool kVnni>
struct Avx512U8s8 {
  using I = __m512i;
  static constexpr int kBytes = 64;
  static constexpr int kTileRows = 4;
  static constexpr int kTileColumns = 4;
  static constexpr int kRowColumns = 16;

  static I zero() { return _mm512_setzero_si512(); }
  static I load(const void* p) { return _mm512_loadu_si512(p); }
  // Masked-off bytes are not read (no fault past the end) and load as 0.
  static I load_partial(const void* p, int count) {
    return _mm512_maskz_loadu_epi8(static_cast<__mmask64>((uint64_t{1} << count) - 1), p);
  }
  static I accumulate(I acc, I ua, I b) {
#ifdef __AVX512VNNI__
    if constexpr (kVnni) return _mm512_dpwssd_epi32(acc, _mm512_maddubs_epi16(ua, b), _mm512_set1_epi16(1));
#else
    static_assert(!kVnni, "compiled without -mavx512vnni");
#endif
    return _mm512_add_epi32(acc, _mm512_madd_epi16(_mm512_maddubs_epi16(ua, b), _mm512_set1_epi16(1)));
  }
  // Lanes 0..3 = the sums of acc[0..3]'s 16 lanes: each folded to 256 bits, then two rounds of
  // horizontal adds within 128-bit halves, then the halves added.
  static __m128i sums4(const I (&acc)[4]) {
    __m256i half[4];
    for (int v = 0; v < 4; ++v) {
      half[v] = _mm256_add_epi32(_mm512_castsi512_si256(acc[v]), _mm512_extracti64x4_epi64(acc[v], 1));
    }
    const __m256i pairs = _mm256_hadd_epi32(_mm256_hadd_epi32(half[0], half[1]), _mm256_hadd_epi32(half[2], half[3]));
    return _mm_add_epi32(_mm256_castsi256_si128(pairs), _mm256_extracti128_si256(pairs, 1));
  }

  // QuantizeU 16 values at a time: cvtps_epi32 of a·qa (the rounding and the out-of-range
  // INT32_MIN of cvtps2dq, as intgemm's), vpmovsdb (signed saturation to int8: what packs_epi32
  // then packs_epi16 give), max(-127), + 127. The values past k load as 0 and their bytes are
  // zeroed after.
  static void quantize_row(const float* row, int k, std::ptrdiff_t kv, float qa, uint8_t* out) {
    const __m512 scale = _mm512_set1_ps(qa);
    for (std::ptrdiff_t p = 0; p < kv; p += 16) {
      const std::ptrdiff_t count = std::min<std::ptrdiff_t>(16, std::max<std::ptrdiff_t>(0, k - p));
      const __m512 x = _mm512_maskz_loadu_ps(static_cast<__mmask16>((1u << count) - 1), row + p);
      const __m128i bytes = _mm512_cvtsepi32_epi8(_mm512_cvtps_epi32(_mm512_mul_ps(x, scale)));
      const __m128i shifted = _mm_add_epi8(_mm_max_epi8(bytes, _mm_set1_epi8(-127)), _mm_set1_epi8(127));
      _mm_storeu_si128(reinterpret_cast<__m128i*>(out + p), shifted);
    }
    if (kv > k) std::memset(out + k, 0, static_cast<std::size_t>(kv - k));
  }
};

}  // namespace
}  // namespace attend::kernels
