// gemm_i8i8_nt for WebAssembly SIMD128 (compiled with -msimd128 as kernels_wasm.cpp is). The
// rows are quantized with the scalar oracle's own function (int8_rows.h; a row is k values
// against the n·k products that follow), then i32x4.dot_i16x8_s multiplies 8 pairs of
// int16-widened bytes into 4 sums: each k-step of 4 of a quad panel covers 2 columns per
// vector, and each accumulator lane holds one column's sum over half of the k-steps' bytes.
// Integer sums are exact and the epilogue rounds as the oracle's does (no fused multiply-add
// in SIMD128), so the results are the same bit for bit.
#include <wasm_simd128.h>

#include <algorithm>
#include <cstring>

#include "kernels/int8_rows.h"
#include "kernels/isa_tables.h"
#include "kernels/scratch.h"

namespace attend::kernels {

namespace {

constexpr int kTileRows = 2;     // 8 accumulators + 4 widened quad vectors + 1 broadcast row
constexpr int kTileColumns = 8;  // of a quad panel's kQuadColumns

// What turns one tile's column sums into outputs: b_scale and bias of up to 8 columns,
// zero-padded so that whole vectors can be loaded.
struct TileColumns {
  float scale[kTileColumns] = {};
  float bias[kTileColumns] = {};
  int count;

  TileColumns(const float* b_scale, const float* b_bias, int count) : count(count) {
    std::memcpy(scale, b_scale, static_cast<std::size_t>(count) * sizeof(float));
    if (b_bias) std::memcpy(bias, b_bias, static_cast<std::size_t>(count) * sizeof(float));
  }
};

// c[0..R, 0..count) from R quantized rows (kq bytes apart) and 8 columns of a quad panel.
template <int R>
void tile(const int8_t* q, int kq, const float* row_scales, const int8_t* columns_of_panel,
          const TileColumns& columns, float* c, std::ptrdiff_t ldc) {
  v128_t acc[R][4];
  for (int r = 0; r < R; ++r) {
    for (int v = 0; v < 4; ++v) acc[r][v] = wasm_i32x4_splat(0);
  }
  for (int p = 0; p < kq; p += 4) {
    const int8_t* block = columns_of_panel + p * kQuadColumns;  // 8 columns × 4 bytes
    const v128_t low = wasm_v128_load(block);
    const v128_t high = wasm_v128_load(block + 16);
    const v128_t b[4] = {wasm_i16x8_extend_low_i8x16(low), wasm_i16x8_extend_high_i8x16(low),
                         wasm_i16x8_extend_low_i8x16(high), wasm_i16x8_extend_high_i8x16(high)};
    for (int r = 0; r < R; ++r) {
      int32_t quad;
      std::memcpy(&quad, q + r * kq + p, sizeof quad);
      const v128_t a = wasm_i16x8_extend_low_i8x16(wasm_i32x4_splat(quad));  // the 4 bytes, twice
      for (int v = 0; v < 4; ++v) acc[r][v] = wasm_i32x4_add(acc[r][v], wasm_i32x4_dot_i16x8(a, b[v]));
    }
  }
  // acc[r][v] = [column 2v: half, column 2v: other half, column 2v + 1: half, other half]
  for (int r = 0; r < R; ++r) {
    const v128_t row_scale = wasm_f32x4_splat(row_scales[r]);
    for (int h = 0; h < 2; ++h) {
      const v128_t x = acc[r][2 * h], y = acc[r][2 * h + 1];
      const v128_t sums = wasm_i32x4_add(wasm_i32x4_shuffle(x, y, 0, 2, 4, 6), wasm_i32x4_shuffle(x, y, 1, 3, 5, 7));
      const v128_t value = wasm_f32x4_add(
          wasm_f32x4_mul(wasm_f32x4_mul(wasm_f32x4_convert_i32x4(sums), row_scale), wasm_v128_load(columns.scale + 4 * h)),
          wasm_v128_load(columns.bias + 4 * h));
      float out[4];
      wasm_v128_store(out, value);
      const int count = std::min(4, columns.count - 4 * h);
      if (count > 0) std::memcpy(c + r * ldc + 4 * h, out, static_cast<std::size_t>(count) * sizeof(float));
    }
  }
}

}  // namespace

void gemm_i8i8_nt_wasm(const float* a, int lda, const int8_t*, int, const int8_t* quads, const int32_t*,
                       const float* b_scale, const float* bias, float* c, int ldc, int m, int n, int k) {
  if (m <= 0 || n <= 0) return;
  const int kq = quad_depth(k);
  float* scales = scratch_floats(m + (static_cast<std::size_t>(m) * kq + 3) / 4);  // then the rows' bytes
  int8_t* q = reinterpret_cast<int8_t*>(scales + m);
  for (int i = 0; i < m; ++i) {
    scales[i] = quantize_row(a + static_cast<std::ptrdiff_t>(i) * lda, k, kq, q + static_cast<std::ptrdiff_t>(i) * kq);
  }
  for (int j0 = 0; j0 < n; j0 += kTileColumns) {
    const int8_t* panel = quads + static_cast<std::ptrdiff_t>(j0 / kQuadColumns * kQuadColumns) * kq;
    const int8_t* columns_of_panel = panel + (j0 % kQuadColumns) * 4;
    const int count = std::min(kTileColumns, n - j0);
    const TileColumns columns(b_scale + j0, bias ? bias + j0 : nullptr, count);
    for (int i0 = 0; i0 < m; i0 += kTileRows) {
      const int8_t* rows = q + static_cast<std::ptrdiff_t>(i0) * kq;
      float* out = c + static_cast<std::ptrdiff_t>(i0) * ldc + j0;
      if (m - i0 >= 2) {
        tile<2>(rows, kq, scales + i0, columns_of_panel, columns, out, ldc);
      } else {
        tile<1>(rows, kq, scales + i0, columns_of_panel, columns, out, ldc);
      }
    }
  }
}

}  // namespace attend::kernels
