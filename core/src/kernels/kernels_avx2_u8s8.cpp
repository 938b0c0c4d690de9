// gemm_u8s8_shifted_nt for AVX2 (u8s8_x86.h; compiled with -mavx2 -ffp-contract=off): intgemm's
// AVX2 Multiply8Shift, vpmaddubsw + vpmaddwd by ones + vpaddd per 32 bytes, and its QuantizeU.
// Tiles of 1 row × 4 columns, 1 × 8 for a call of one row. Measured on the 2-core AMD EPYC
// (Zen 4) dev machine, GCC 12 -O3, against 2 × 4, 1 × 8 and 3 × 4 (4 ... 12 accumulators): 1 × 4
// is the fastest with several rows (m = 64, n = k = 512: 170 µs against 190–200; m = 5, n = 2048:
// 61 against 63–70), the rows of b being read again from L1 for each row; 1 × 8 at m = 1.
#include <immintrin.h>

#include <algorithm>
#include <cstring>

#include "kernels/isa_tables.h"
#include "kernels/u8s8_x86.h"

namespace attend::kernels {

namespace {

struct Avx2U8s8 {
  using I = __m256i;
  static constexpr int kBytes = 32;
  static constexpr int kTileRows = 1;
  static constexpr int kTileColumns = 4;
  static constexpr int kRowColumns = 8;

  // Lanes < count (0..8) on.
  static __m256i first_lanes(int count) {
    return _mm256_cmpgt_epi32(_mm256_set1_epi32(count), _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7));
  }

  static I zero() { return _mm256_setzero_si256(); }
  static I load(const void* p) { return _mm256_loadu_si256(static_cast<const __m256i*>(p)); }
  // No byte-masked load in AVX2: the bytes < count through a zeroed buffer.
  static I load_partial(const void* p, int count) {
    alignas(32) int8_t bytes[kBytes] = {};
    std::memcpy(bytes, p, static_cast<std::size_t>(count));
    return load(bytes);
  }
  static I accumulate(I acc, I ua, I b) {
    return _mm256_add_epi32(acc, _mm256_madd_epi16(_mm256_maddubs_epi16(ua, b), _mm256_set1_epi16(1)));
  }
  // Lanes 0..3 = the sums of acc[0..3]'s 8 lanes: two rounds of horizontal adds within 128-bit
  // halves, then the halves added.
  static __m128i sums4(const I (&acc)[4]) {
    const I pairs = _mm256_hadd_epi32(_mm256_hadd_epi32(acc[0], acc[1]), _mm256_hadd_epi32(acc[2], acc[3]));
    return _mm_add_epi32(_mm256_castsi256_si128(pairs), _mm256_extracti128_si256(pairs, 1));
  }

  // QuantizeU 32 values at a time, as intgemm's AVX2 QuantizeTile8 with the shift: cvtps_epi32
  // of a·qa, packs to int16 and int8 (within 128-bit lanes, put back in order by a permute),
  // max(-127), + 127. The values past k load as 0 and their bytes are zeroed after.
  static void quantize_row(const float* row, int k, std::ptrdiff_t kv, float qa, uint8_t* out) {
    const __m256 scale = _mm256_set1_ps(qa);
    const __m256i order = _mm256_setr_epi32(0, 4, 1, 5, 2, 6, 3, 7);
    for (std::ptrdiff_t p = 0; p < kv; p += kBytes) {
      __m256i words[4];
      for (int v = 0; v < 4; ++v) {
        const std::ptrdiff_t at = p + 8 * v;
        const int count = static_cast<int>(std::min<std::ptrdiff_t>(8, std::max<std::ptrdiff_t>(0, k - at)));
        const __m256 x = count == 8 ? _mm256_loadu_ps(row + at) : _mm256_maskload_ps(row + at, first_lanes(count));
        words[v] = _mm256_cvtps_epi32(_mm256_mul_ps(x, scale));
      }
      const __m256i bytes = _mm256_permutevar8x32_epi32(
          _mm256_packs_epi16(_mm256_packs_epi32(words[0], words[1]), _mm256_packs_epi32(words[2], words[3])), order);
      const __m256i shifted = _mm256_add_epi8(_mm256_max_epi8(bytes, _mm256_set1_epi8(-127)), _mm256_set1_epi8(127));
      _mm256_storeu_si256(reinterpret_cast<__m256i*>(out + p), shifted);
    }
    if (kv > k) std::memset(out + k, 0, static_cast<std::size_t>(kv - k));
  }
};

}  // namespace

void gemm_u8s8_shifted_nt_avx2(const float* a, int lda, float qa, const int8_t* b, int ldb, float unquant,
                               const float* bias, float* c, int ldc, int m, int n, int k) {
  u8s8::gemm<Avx2U8s8>(a, lda, qa, b, ldb, unquant, bias, c, ldc, m, n, k);
}

}  // namespace attend::kernels
