// gemm_i8i8_nt for WebAssembly SIMD128 (compiled with -msimd128 as kernels_wasm.cpp is). The
// rows are quantized with the scalar oracle's own function (int8_rows.h; a row is k values
// against the n·k products that follow), then i32x4.dot_i16x8_s multiplies 8 pairs of
// int16-widened bytes into 4 sums. Each quantized row is widened once per call, every k-step
// of 4 bytes as one vector [a0 a1 a2 a3 a0 a1 a2 a3] of int16, so the inner loop loads it
// whole instead of splatting and widening it for every group of columns. A tile is 3 or 4
// rows × 4 columns, or 1 or 2 rows × 8: each 16-byte k-step of a quad panel (4 columns × 4
// bytes) widens into two vectors of 2 columns each, and each accumulator lane holds one
// column's sum over half of the k-steps' bytes (at most 8 accumulators + 2 or 4 widened weight
// vectors + 1 row: within the 15 vector registers V8 gives SIMD on x64). The row blocks are
// the outer loop, so a block's widened rows stay in cache across all the columns. Integer sums are exact and the epilogue rounds as the
// oracle's does (no fused multiply-add in SIMD128), so the results are the same bit for bit.
#include <wasm_simd128.h>

#include <algorithm>
#include <cstring>

#include "kernels/int8_rows.h"
#include "kernels/isa_tables.h"
#include "kernels/scratch.h"

namespace attend::kernels {

namespace {

constexpr int kTileRows = 4;

// c[0..R, 0..count) from R widened rows (kq / 4 vectors apart) and B·4 columns of a quad panel
// (count ≤ B·4). B = 2 for up to 2 rows (as many accumulators, half the loop overhead per column).
template <int R, int B>
void tile(const v128_t* rows, int kq, const float* row_scales, const int8_t* columns_of_panel,
          const float* b_scale, const float* bias, int count, float* c, std::ptrdiff_t ldc) {
  v128_t acc[R][2 * B];
  for (int r = 0; r < R; ++r) {
    for (int v = 0; v < 2 * B; ++v) acc[r][v] = wasm_i32x4_splat(0);
  }
  const int steps = kq / 4;
  for (int s = 0; s < steps; ++s) {
    v128_t b[2 * B];
    for (int g = 0; g < B; ++g) {
      const v128_t block = wasm_v128_load(columns_of_panel + s * 4 * kQuadColumns + 16 * g);  // 4 columns × 4 bytes
      b[2 * g] = wasm_i16x8_extend_low_i8x16(block);       // columns 4g, 4g + 1
      b[2 * g + 1] = wasm_i16x8_extend_high_i8x16(block);  // columns 4g + 2, 4g + 3
    }
    for (int r = 0; r < R; ++r) {
      const v128_t a = wasm_v128_load(rows + r * steps + s);
      for (int v = 0; v < 2 * B; ++v) acc[r][v] = wasm_i32x4_add(acc[r][v], wasm_i32x4_dot_i16x8(a, b[v]));
    }
  }
  // acc[r][v] = [column 2v: half, other half, column 2v + 1: half, other half]. The columns'
  // scales and biases are read in place, or, for a tile past the last column, copied zero-padded
  // (a copy of a run-time length is a call to memcpy: once per tile, it cost 5 % at m = 1).
  float scale_lanes[4 * B] = {}, bias_lanes[4 * B] = {};
  const bool whole = count == 4 * B;
  if (!whole) {
    std::memcpy(scale_lanes, b_scale, static_cast<std::size_t>(count) * sizeof(float));
    if (bias) std::memcpy(bias_lanes, bias, static_cast<std::size_t>(count) * sizeof(float));
  }
  const float* scales = whole ? b_scale : scale_lanes;
  const float* biases = whole ? bias : bias_lanes;
  for (int g = 0; g < B; ++g) {
    const int columns = std::min(4, count - 4 * g);
    if (columns <= 0) break;
    const v128_t column_scale = wasm_v128_load(scales + 4 * g);
    const v128_t column_bias = biases ? wasm_v128_load(biases + 4 * g) : wasm_f32x4_splat(0.0f);
    for (int r = 0; r < R; ++r) {
      const v128_t x = acc[r][2 * g], y = acc[r][2 * g + 1];
      const v128_t sums = wasm_i32x4_add(wasm_i32x4_shuffle(x, y, 0, 2, 4, 6), wasm_i32x4_shuffle(x, y, 1, 3, 5, 7));
      const v128_t value = wasm_f32x4_add(
          wasm_f32x4_mul(wasm_f32x4_mul(wasm_f32x4_convert_i32x4(sums), wasm_f32x4_splat(row_scales[r])), column_scale),
          column_bias);
      float* out = c + r * ldc + 4 * g;
      if (columns == 4) {
        wasm_v128_store(out, value);
      } else {
        float lanes[4];
        wasm_v128_store(lanes, value);
        std::memcpy(out, lanes, static_cast<std::size_t>(columns) * sizeof(float));
      }
    }
  }
}

// All n columns of R rows, B·4 at a time.
template <int R, int B>
void rows_times_quads(const v128_t* rows, int kq, const float* row_scales, const int8_t* quads,
                      const float* b_scale, const float* bias, float* c, std::ptrdiff_t ldc, int n) {
  for (int j0 = 0; j0 < n; j0 += 4 * B) {
    const int8_t* panel = quads + static_cast<std::ptrdiff_t>(j0 / kQuadColumns * kQuadColumns) * kq;
    tile<R, B>(rows, kq, row_scales, panel + (j0 % kQuadColumns) * 4, b_scale + j0, bias ? bias + j0 : nullptr,
               std::min(4 * B, n - j0), c + j0, ldc);
  }
}

}  // namespace

void gemm_i8i8_nt_wasm(const float* a, int lda, const int8_t*, int, const int8_t* quads, const int32_t*,
                       const float* b_scale, const float* bias, float* c, int ldc, int m, int n, int k) {
  if (m <= 0 || n <= 0) return;
  const int kq = quad_depth(k);
  const int steps = kq / 4;
  // Scratch: the widened rows (m × steps vectors), the row scales, one row's bytes.
  float* scratch = scratch_floats(static_cast<std::size_t>(m) * steps * 4 + m + (kq + 3) / 4);
  auto* rows = reinterpret_cast<v128_t*>(scratch);  // 64-byte aligned
  float* scales = scratch + static_cast<std::size_t>(m) * steps * 4;
  auto* q = reinterpret_cast<int8_t*>(scales + m);
  for (int i = 0; i < m; ++i) {
    scales[i] = quantize_row(a + static_cast<std::ptrdiff_t>(i) * lda, k, kq, q);
    for (int s = 0; s < steps; ++s) {
      int32_t quad;
      std::memcpy(&quad, q + 4 * s, sizeof quad);
      rows[static_cast<std::ptrdiff_t>(i) * steps + s] = wasm_i16x8_extend_low_i8x16(wasm_i32x4_splat(quad));
    }
  }
  for (int i0 = 0; i0 < m; i0 += kTileRows) {
    const v128_t* tile_rows = rows + static_cast<std::ptrdiff_t>(i0) * steps;
    float* out = c + static_cast<std::ptrdiff_t>(i0) * ldc;
    switch (std::min(kTileRows, m - i0)) {
      case 4: rows_times_quads<4, 1>(tile_rows, kq, scales + i0, quads, b_scale, bias, out, ldc, n); break;
      case 3: rows_times_quads<3, 1>(tile_rows, kq, scales + i0, quads, b_scale, bias, out, ldc, n); break;
      case 2: rows_times_quads<2, 2>(tile_rows, kq, scales + i0, quads, b_scale, bias, out, ldc, n); break;
      default: rows_times_quads<1, 2>(tile_rows, kq, scales + i0, quads, b_scale, bias, out, ldc, n); break;
    }
  }
}

}  // namespace attend::kernels
