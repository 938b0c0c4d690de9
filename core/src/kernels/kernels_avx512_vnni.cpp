// gemm_i8i8_nt for CPUs with AVX-512 VNNI (this file alone is compiled with -mavx512vnni, and
// with -ffp-contract=off so its float epilogue rounds as the scalar oracle's does). VPDPBUSD
// multiplies unsigned by signed bytes, so each quantized row is stored as qa + 128 and
// 128·Σ_p b[j, p] is subtracted from each sum: Σ (qa + 128)·b − 128·Σ b = Σ qa·b, exactly.
// Tiles of 4 rows × 32 columns: 4 bytes of a row broadcast against a quad panel's two vectors.
#include <immintrin.h>

#include <algorithm>
#include <cstring>

#include "kernels/int8_rows.h"
#include "kernels/isa_tables.h"
#include "kernels/scratch.h"
#include "kernels/simd_common.h"

namespace attend::kernels {

namespace {

// 8 accumulators + 2 quad vectors + 1 broadcast. Measured on the 2-core AMD EPYC dev machine
// over 2..12 rows: 4 is fastest at every m (at m = 32, 1.9x the GOP/s of 12 rows).
constexpr int kTileRows = 4;
constexpr int kLanes = 16;

__mmask16 first_lanes(int count) {
  return count >= kLanes ? __mmask16{0xFFFF} : count <= 0 ? __mmask16{0} : static_cast<__mmask16>((1u << count) - 1);
}

// q[i, 0..kq) = qa[i, p] + 128 (128 past k), scales[i] = a_scale[i], for m rows of a.
void quantize_rows(const float* a, int lda, int m, int k, int kq, uint8_t* q, float* scales) {
  for (int i = 0; i < m; ++i) {
    const float* row = a + static_cast<std::ptrdiff_t>(i) * lda;
    __m512 max_abs = _mm512_setzero_ps();
    for (int p = 0; p < k; p += kLanes) {
      // NaN lanes keep max_abs (the second operand), as std::max in the oracle skips them.
      max_abs = _mm512_max_ps(_mm512_abs_ps(_mm512_maskz_loadu_ps(first_lanes(k - p), row + p)), max_abs);
    }
    const RowQuantization rq = row_quantization(_mm512_reduce_max_ps(max_abs));
    scales[i] = rq.scale;
    const __m512 inv = _mm512_set1_ps(rq.inv);
    uint8_t* out = q + static_cast<std::ptrdiff_t>(i) * kq;
    for (int p = 0; p < kq; p += kLanes) {
      __m512 x = _mm512_mul_ps(_mm512_maskz_loadu_ps(first_lanes(k - p), row + p), inv);
      // fmax(-127, fmin(127, x)) as the oracle's: a NaN lane becomes 127 (the second operand).
      x = _mm512_max_ps(_mm512_min_ps(x, _mm512_set1_ps(127.0f)), _mm512_set1_ps(-127.0f));
      const __m512i shifted = _mm512_add_epi32(_mm512_cvtps_epi32(x), _mm512_set1_epi32(128));
      _mm_mask_storeu_epi8(out + p, first_lanes(kq - p), _mm512_cvtepi32_epi8(shifted));
    }
  }
}

// One quad panel's 32 columns: what turns their sums into outputs.
struct PanelColumns {
  __m512i offset[2];  // 128·Σ_p b[j, p]
  __m512 scale[2];    // b_scale[j]
  __m512 bias[2];     // bias[j] or 0
  __mmask16 mask[2];  // the columns < n

  PanelColumns(const int32_t* sums, const float* b_scale, const float* bias, int count) {
    for (int v = 0; v < 2; ++v) {
      mask[v] = first_lanes(count - v * kLanes);
      offset[v] = _mm512_slli_epi32(_mm512_maskz_loadu_epi32(mask[v], sums + v * kLanes), 7);
      scale[v] = _mm512_maskz_loadu_ps(mask[v], b_scale + v * kLanes);
      this->bias[v] = bias ? _mm512_maskz_loadu_ps(mask[v], bias + v * kLanes) : _mm512_setzero_ps();
    }
  }
};

// c[0..R, 0..32) from R quantized rows (kq bytes apart) and one quad panel.
template <int R>
void tile(const uint8_t* q, int kq, const float* row_scales, const int8_t* panel,
          const PanelColumns& columns, float* c, std::ptrdiff_t ldc) {
  __m512i acc[R][2];
  ATTEND_UNROLL for (int r = 0; r < R; ++r) acc[r][0] = acc[r][1] = _mm512_setzero_si512();
  for (int p = 0; p < kq; p += 4) {
    const __m512i b0 = _mm512_loadu_si512(panel + p * kQuadColumns);
    const __m512i b1 = _mm512_loadu_si512(panel + p * kQuadColumns + 4 * kLanes);
    ATTEND_UNROLL for (int r = 0; r < R; ++r) {
      int32_t quad;
      std::memcpy(&quad, q + r * kq + p, sizeof quad);
      const __m512i broadcast = _mm512_set1_epi32(quad);
      acc[r][0] = _mm512_dpbusd_epi32(acc[r][0], broadcast, b0);
      acc[r][1] = _mm512_dpbusd_epi32(acc[r][1], broadcast, b1);
    }
  }
  ATTEND_UNROLL for (int r = 0; r < R; ++r) {
    const __m512 row_scale = _mm512_set1_ps(row_scales[r]);
    ATTEND_UNROLL for (int v = 0; v < 2; ++v) {
      const __m512 sum = _mm512_cvtepi32_ps(_mm512_sub_epi32(acc[r][v], columns.offset[v]));
      const __m512 value = _mm512_add_ps(_mm512_mul_ps(_mm512_mul_ps(sum, row_scale), columns.scale[v]), columns.bias[v]);
      _mm512_mask_storeu_ps(c + r * ldc + v * kLanes, columns.mask[v], value);
    }
  }
}

// The tile for the last rows < kTileRows, choosing R at compile time.
template <int R = kTileRows>
void tile_rows(int rows, const uint8_t* q, int kq, const float* row_scales, const int8_t* panel,
               const PanelColumns& columns, float* c, std::ptrdiff_t ldc) {
  if constexpr (R > 1) {
    if (rows < R) return tile_rows<R - 1>(rows, q, kq, row_scales, panel, columns, c, ldc);
  }
  tile<R>(q, kq, row_scales, panel, columns, c, ldc);
}

}  // namespace

void gemm_i8i8_nt_avx512_vnni(const float* a, int lda, const int8_t*, int, const int8_t* quads,
                              const int32_t* column_sums, const float* b_scale, const float* bias,
                              float* c, int ldc, int m, int n, int k) {
  if (m <= 0 || n <= 0) return;
  const int kq = quad_depth(k);
  float* scales = scratch_floats(m + (static_cast<std::size_t>(m) * kq + 3) / 4);  // then the rows' bytes
  uint8_t* q = reinterpret_cast<uint8_t*>(scales + m);
  quantize_rows(a, lda, m, k, kq, q, scales);
  for (int j0 = 0; j0 < n; j0 += kQuadColumns) {
    const PanelColumns columns(column_sums + j0, b_scale + j0, bias ? bias + j0 : nullptr, std::min(kQuadColumns, n - j0));
    const int8_t* panel = quads + static_cast<std::ptrdiff_t>(j0) * kq;
    for (int i0 = 0; i0 < m; i0 += kTileRows) {
      tile_rows(std::min(kTileRows, m - i0), q + static_cast<std::ptrdiff_t>(i0) * kq, kq, scales + i0, panel,
                columns, c + static_cast<std::ptrdiff_t>(i0) * ldc + j0, ldc);
    }
  }
}

}  // namespace attend::kernels
