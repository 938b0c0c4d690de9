// gemm_u8s8_shifted_nt for AVX-512 (u8s8_x86.h; compiled with -mavx512f/bw/vl
// -ffp-contract=off): intgemm's AVX512BW Multiply8Shift, vpmaddubsw + vpmaddwd by ones +
// vpaddd per 64 bytes. Not VNNI's vpdpbusd, which adds the four products of a byte quad into
// int32 without saturating the pairs: it would differ from intgemm whenever a pair saturates.
// Tiles of 4 rows × 4 columns (16 accumulators + 4 rows of ua + a row of b + the ones: 22 of
// the 32 registers), 1 row × 16 columns for a call of one row. Measured on the 2-core AMD EPYC
// (Zen 4) dev machine, GCC 12 -O3: 4 × 4 and 2 × 8 alike (m = 64, n = k = 512: 166 µs), 3 × 8 and
// 1 × 8 slower (224, 174); 1 × 16 at m = 1 (3.7 µs against 3.9 for 1 × 8, 4.6 for 1 × 4).
#include <immintrin.h>

#include <algorithm>
#include <cstring>

#include "kernels/isa_tables.h"
#include "kernels/u8s8_x86.h"

namespace attend::kernels {

namespace {

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

void gemm_u8s8_shifted_nt_avx512(const float* a, int lda, float qa, const int8_t* b, int ldb, float unquant,
                                 const float* bias, float* c, int ldc, int m, int n, int k) {
  u8s8::gemm<Avx512U8s8>(a, lda, qa, b, ldb, unquant, bias, c, ldc, m, n, k);
}

}  // namespace attend::kernels
