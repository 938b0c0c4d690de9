// gemm_i8i8_nt for WebAssembly SIMD128 (compiled with -msimd128 as kernels_wasm.cpp is). The
// rows are quantized with the scalar oracle's own function (int8_rows.h; a row is k values
// against the n·k products that follow), then i32x4.dot_i16x8_s multiplies 8 pairs of
// int16-widened bytes into 4 sums. Each quantized row is widened once per call, every k-step
// of 4 bytes as one vector [a0 a1 a2 a3 a0 a1 a2 a3] of int16, so the inner loop loads it
// whole instead of splatting and widening it for every group of columns. A tile is 3 or 4
// rows × 4 columns, or 1 or 2 rows × 8: each 16-byte k-step of a quad panel (4 columns × 4
// bytes) widens into two vectors of 2 columns each, and each accumulator lane holds one
// column's sum over half of the k-steps' bytes (at most 8 accumulators + 2 or 4 widened weight
// vectors + 1 row: within the 15 vector registers V8 gives SIMD on x64). The quad panels are the
// outer loop: with more than one block of rows, each is widened to int16 once per call and read
// so by every block (1.08–1.12× at m ≥ 32, bench/wasm_gemm.py in Node). Integer sums are exact
// and the epilogue rounds as the oracle's does (no fused multiply-add in SIMD128), so the results
// are the same bit for bit.
#include <wasm_simd128.h>

#include <algorithm>
#include <cstring>

#include "kernels/int8_rows.h"
#include "kernels/isa_tables.h"
#include "kernels/scratch.h"

namespace attend::kernels {

namespace {

constexpr int kTileRows = 4;
constexpr int kStepVectors = kQuadColumns / 2;  // a quad panel's k-step widened: 2 vectors per 4 columns

// A quad panel's k-steps as stored, 16 bytes (4 columns × 4 bytes) widened in the tile into two
// int16 vectors of 2 columns each, for every block of rows that reads them.
struct QuadBytes {
  const int8_t* panel;  // from the tile's first column
  QuadBytes at(int column) const { return {panel + 4 * column}; }
  void load(int s, int g, v128_t& low, v128_t& high) const {
    const v128_t block = wasm_v128_load(panel + s * 4 * kQuadColumns + 16 * g);
    low = wasm_i16x8_extend_low_i8x16(block);    // columns 4g, 4g + 1
    high = wasm_i16x8_extend_high_i8x16(block);  // columns 4g + 2, 4g + 3
  }
};

// The same vectors widened once per call (widen_panel), when more than one block of rows reads
// them: a 4-row tile's k-step loads one more vector instead of widening (3 instructions in V8,
// whose extend_high is two), of 24.
struct QuadWords {
  const v128_t* panel;  // [steps, kStepVectors], from the tile's first column
  QuadWords at(int column) const { return {panel + column / 2}; }
  void load(int s, int g, v128_t& low, v128_t& high) const {
    low = panel[s * kStepVectors + 2 * g];
    high = panel[s * kStepVectors + 2 * g + 1];
  }
};

// words[s, ·] = the k-step s of a quad panel widened as QuadBytes::load widens it.
void widen_panel(const int8_t* panel, int steps, v128_t* words) {
  for (int s = 0; s < steps; ++s) {
    for (int g = 0; g < kQuadColumns / 4; ++g) {
      QuadBytes{panel}.load(s, g, words[s * kStepVectors + 2 * g], words[s * kStepVectors + 2 * g + 1]);
    }
  }
}

// c[0..R, 0..count) from R widened rows (kq / 4 vectors apart) and B·4 columns of a quad panel
// (count ≤ B·4). B = 2 for up to 2 rows (as many accumulators, half the loop overhead per column).
template <int R, int B, class Panel>
void tile(const v128_t* rows, int kq, const float* row_scales, const Panel& columns_of_panel,
          const float* b_scale, const float* bias, int count, float* c, std::ptrdiff_t ldc) {
  v128_t acc[R][2 * B];
  for (int r = 0; r < R; ++r) {
    for (int v = 0; v < 2 * B; ++v) acc[r][v] = wasm_i32x4_splat(0);
  }
  const int steps = kq / 4;
  for (int s = 0; s < steps; ++s) {
    v128_t b[2 * B];
    for (int g = 0; g < B; ++g) columns_of_panel.load(s, g, b[2 * g], b[2 * g + 1]);
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

// The n ≤ kQuadColumns columns of one quad panel for R rows, B·4 at a time.
template <int R, int B, class Panel>
void rows_times_panel(const v128_t* rows, int kq, const float* row_scales, const Panel& panel,
                      const float* b_scale, const float* bias, float* c, std::ptrdiff_t ldc, int n) {
  for (int j0 = 0; j0 < n; j0 += 4 * B) {
    tile<R, B>(rows, kq, row_scales, panel.at(j0), b_scale + j0, bias ? bias + j0 : nullptr,
               std::min(4 * B, n - j0), c + j0, ldc);
  }
}

// One quad panel's n columns for every row, a tile of rows at a time.
template <class Panel>
void all_rows_times_panel(const v128_t* rows, int kq, const float* row_scales, const Panel& panel,
                          const float* b_scale, const float* bias, float* c, std::ptrdiff_t ldc, int m, int n) {
  const int steps = kq / 4;
  for (int i0 = 0; i0 < m; i0 += kTileRows) {
    const v128_t* tile_rows = rows + static_cast<std::ptrdiff_t>(i0) * steps;
    const float* scales = row_scales + i0;
    float* out = c + static_cast<std::ptrdiff_t>(i0) * ldc;
    switch (std::min(kTileRows, m - i0)) {
      case 4: rows_times_panel<4, 1>(tile_rows, kq, scales, panel, b_scale, bias, out, ldc, n); break;
      case 3: rows_times_panel<3, 1>(tile_rows, kq, scales, panel, b_scale, bias, out, ldc, n); break;
      case 2: rows_times_panel<2, 2>(tile_rows, kq, scales, panel, b_scale, bias, out, ldc, n); break;
      default: rows_times_panel<1, 2>(tile_rows, kq, scales, panel, b_scale, bias, out, ldc, n); break;
    }
  }
}

}  // namespace

void gemm_i8i8_nt_wasm(const float* a, int lda, const int8_t*, int, const int8_t* quads, const int32_t*,
                       const float* b_scale, const float* bias, float* c, int ldc, int m, int n, int k) {
  if (m <= 0 || n <= 0) return;
  const int kq = quad_depth(k);
  const int steps = kq / 4;
  // Scratch: one widened quad panel (steps × kStepVectors vectors), the widened rows (m × steps
  // vectors), the row scales, one row's bytes.
  const std::size_t panel_floats = static_cast<std::size_t>(steps) * kStepVectors * 4;
  float* scratch = scratch_floats(panel_floats + static_cast<std::size_t>(m) * steps * 4 + m + (kq + 3) / 4);
  auto* words = reinterpret_cast<v128_t*>(scratch);  // 64-byte aligned
  auto* rows = reinterpret_cast<v128_t*>(scratch + panel_floats);
  float* scales = scratch + panel_floats + static_cast<std::size_t>(m) * steps * 4;
  auto* q = reinterpret_cast<int8_t*>(scales + m);
  for (int i = 0; i < m; ++i) {
    scales[i] = quantize_row(a + static_cast<std::ptrdiff_t>(i) * lda, k, kq, q);
    for (int s = 0; s < steps; ++s) {
      int32_t quad;
      std::memcpy(&quad, q + 4 * s, sizeof quad);
      rows[static_cast<std::ptrdiff_t>(i) * steps + s] = wasm_i16x8_extend_low_i8x16(wasm_i32x4_splat(quad));
    }
  }
  for (int j0 = 0; j0 < n; j0 += kQuadColumns) {
    const int8_t* panel = quads + static_cast<std::ptrdiff_t>(j0) * kq;
    const int columns = std::min(kQuadColumns, n - j0);
    const float* column_bias = bias ? bias + j0 : nullptr;
    if (m <= kTileRows) {
      all_rows_times_panel(rows, kq, scales, QuadBytes{panel}, b_scale + j0, column_bias, c + j0, ldc, m, columns);
    } else {
      widen_panel(panel, steps, words);
      all_rows_times_panel(rows, kq, scales, QuadWords{words}, b_scale + j0, column_bias, c + j0, ldc, m, columns);
    }
  }
}

}  // namespace attend::kernels
