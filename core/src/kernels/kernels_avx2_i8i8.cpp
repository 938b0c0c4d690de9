// gemm_i8i8_nt for AVX2 (compiled with -mavx2 -mfma as kernels_avx2.cpp is, and with
// -ffp-contract=off so its float epilogue rounds as the scalar oracle's does). AVX2 has no VNNI; VPMADDUBSW
// multiplies unsigned by signed bytes and adds adjacent pairs into int16, which saturates for
// (qa + 128)·b. The sign trick keeps it exact: |qa| ≤ 127 times b·sign(qa) (VPSIGNB), so a pair
// is at most 2·127·127 = 32258 < 2^15; VPMADDWD by ones then adds the pairs into int32. Four
// instructions per 32 multiply-adds, against one FMA per 8 for f32 weights.
// Tiles of kTileRows rows × 32 columns: 4 bytes of a row broadcast against a whole quad panel.
#include <immintrin.h>

#include <algorithm>
#include <cstring>

#include "kernels/avx2_traits.h"
#include "kernels/int8_rows.h"
#include "kernels/isa_tables.h"
#include "kernels/scratch.h"

namespace attend::kernels {

namespace {

constexpr int kLanes = Avx2::kLanes;
constexpr int kTileVectors = 4;                       // a quad panel's (kQuadColumns / kLanes)
constexpr int kTileColumns = kTileVectors * kLanes;  // 32
static_assert(kTileColumns == kQuadColumns, "a tile reads whole quad panels");
// 8 accumulators + 4 quad vectors + the broadcast row, its absolute value, a product and the
// ones: all 16 registers. Measured on an AVX2-only AMD EPYC against 3 × 16 and 4 × 16 (kernel
// bench, alternating runs): as fast or faster at m = 8 and 32, ~1.5x at m = 1 (one panel
// streamed whole).
constexpr int kTileRows = 2;

// Lanes < count on (any count: clamped to [0, 8]).
__m256i first_lanes(int count) { return Avx2::mask(std::clamp(count, 0, kLanes)); }

float max_abs(const float* row, int k) {
  __m256 m = _mm256_setzero_ps();
  for (int p = 0; p < k; p += kLanes) {
    // NaN lanes keep m (the second operand), as std::max in the oracle skips them.
    m = _mm256_max_ps(Avx2::abs(_mm256_maskload_ps(row + p, first_lanes(k - p))), m);
  }
  return Avx2::reduce_max(m);
}

// q[i, 0..kq) = qa[i, p] (0 past k), scales[i] = a_scale[i], for m rows of a: the oracle's
// quantize_row, 8 values at a time (the conversion rounds to nearest even, as nearbyint does).
void quantize_rows(const float* a, int lda, int m, int k, int kq, int8_t* q, float* scales) {
  for (int i = 0; i < m; ++i) {
    const float* row = a + static_cast<std::ptrdiff_t>(i) * lda;
    const RowQuantization rq = row_quantization(max_abs(row, k));
    scales[i] = rq.scale;
    const __m256 inv = _mm256_set1_ps(rq.inv);
    int8_t* out = q + static_cast<std::ptrdiff_t>(i) * kq;
    for (int p = 0; p < kq; p += kLanes) {
      __m256 x = _mm256_mul_ps(_mm256_maskload_ps(row + p, first_lanes(k - p)), inv);
      // fmax(-127, fmin(127, x)) as the oracle's: a NaN lane becomes 127 (the second operand).
      x = _mm256_max_ps(_mm256_min_ps(x, _mm256_set1_ps(127.0f)), _mm256_set1_ps(-127.0f));
      const __m256i words = _mm256_cvtps_epi32(x);  // 8 × int32 in [-127, 127]
      const __m128i shorts = _mm_packs_epi32(_mm256_castsi256_si128(words), _mm256_extracti128_si256(words, 1));
      const int64_t bytes = _mm_cvtsi128_si64(_mm_packs_epi16(shorts, shorts));
      std::memcpy(out + p, &bytes, static_cast<std::size_t>(std::min(kLanes, kq - p)));
    }
  }
}

// What turns a tile's column sums into outputs.
struct TileColumns {
  __m256 scale[kTileVectors];  // b_scale[j]
  __m256 bias[kTileVectors];   // bias[j] or 0
  __m256i mask[kTileVectors];  // the columns < n
  bool full;                   // all are: plain stores (a masked store costs far more on AMD)

  TileColumns(const float* b_scale, const float* b_bias, int count) : full(count == kTileColumns) {
    for (int v = 0; v < kTileVectors; ++v) {
      mask[v] = first_lanes(count - v * kLanes);
      scale[v] = _mm256_maskload_ps(b_scale + v * kLanes, mask[v]);
      bias[v] = b_bias ? _mm256_maskload_ps(b_bias + v * kLanes, mask[v]) : _mm256_setzero_ps();
    }
  }
};

// c[0..R, 0..32) from R quantized rows (kq bytes apart) and a quad panel.
template <int R>
void tile(const int8_t* q, int kq, const float* row_scales, const int8_t* panel,
          const TileColumns& columns, float* c, std::ptrdiff_t ldc) {
  const __m256i ones = _mm256_set1_epi16(1);
  __m256i acc[R][kTileVectors];
  for (int r = 0; r < R; ++r) {
    for (int v = 0; v < kTileVectors; ++v) acc[r][v] = _mm256_setzero_si256();
  }
  for (int p = 0; p < kq; p += 4) {
    const int8_t* block = panel + p * kQuadColumns;
    __m256i b[kTileVectors];
    for (int v = 0; v < kTileVectors; ++v) b[v] = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(block + v * 32));
    for (int r = 0; r < R; ++r) {
      int32_t quad;
      std::memcpy(&quad, q + r * kq + p, sizeof quad);
      const __m256i broadcast = _mm256_set1_epi32(quad);
      const __m256i magnitude = _mm256_abs_epi8(broadcast);
      for (int v = 0; v < kTileVectors; ++v) {
        const __m256i pairs = _mm256_maddubs_epi16(magnitude, _mm256_sign_epi8(b[v], broadcast));  // exact int16
        acc[r][v] = _mm256_add_epi32(acc[r][v], _mm256_madd_epi16(pairs, ones));
      }
    }
  }
  for (int r = 0; r < R; ++r) {
    const __m256 row_scale = _mm256_set1_ps(row_scales[r]);
    for (int v = 0; v < kTileVectors; ++v) {
      const __m256 sum = _mm256_cvtepi32_ps(acc[r][v]);
      const __m256 value = _mm256_add_ps(_mm256_mul_ps(_mm256_mul_ps(sum, row_scale), columns.scale[v]), columns.bias[v]);
      if (columns.full) {
        _mm256_storeu_ps(c + r * ldc + v * kLanes, value);
      } else {
        _mm256_maskstore_ps(c + r * ldc + v * kLanes, columns.mask[v], value);
      }
    }
  }
}

// The tile for the last rows < kTileRows, choosing R at compile time.
template <int R = kTileRows>
void tile_rows(int rows, const int8_t* q, int kq, const float* row_scales, const int8_t* panel,
               const TileColumns& columns, float* c, std::ptrdiff_t ldc) {
  if constexpr (R > 1) {
    if (rows < R) return tile_rows<R - 1>(rows, q, kq, row_scales, panel, columns, c, ldc);
  }
  tile<R>(q, kq, row_scales, panel, columns, c, ldc);
}

}  // namespace

void gemm_i8i8_nt_avx2(const float* a, int lda, const int8_t*, int, const int8_t* quads, const int32_t*,
                       const float* b_scale, const float* bias, float* c, int ldc, int m, int n, int k) {
  if (m <= 0 || n <= 0) return;
  const int kq = quad_depth(k);
  float* scales = scratch_floats(m + (static_cast<std::size_t>(m) * kq + 3) / 4);  // then the rows' bytes
  int8_t* q = reinterpret_cast<int8_t*>(scales + m);
  quantize_rows(a, lda, m, k, kq, q, scales);
  for (int j0 = 0; j0 < n; j0 += kTileColumns) {
    const int8_t* panel = quads + static_cast<std::ptrdiff_t>(j0) * kq;
    const TileColumns columns(b_scale + j0, bias ? bias + j0 : nullptr, std::min(kTileColumns, n - j0));
    for (int i0 = 0; i0 < m; i0 += kTileRows) {
      tile_rows(std::min(kTileRows, m - i0), q + static_cast<std::ptrdiff_t>(i0) * kq, kq, scales + i0, panel,
                columns, c + static_cast<std::ptrdiff_t>(i0) * ldc + j0, ldc);
    }
  }
}

}  // namespace attend::kernels
