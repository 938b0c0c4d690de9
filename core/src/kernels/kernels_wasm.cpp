// WebAssembly SIMD128 kernels (this file alone is compiled with -msimd128): 4 floats per
// vector. WebAssembly has no CPUID, so an Emscripten build simply uses this table. There is
// no fused multiply-add in SIMD128 (relaxed SIMD is not yet baseline), so fma rounds twice,
// and no masked loads, so partial vectors go through a small stack buffer. Member meanings as
// in kernels_avx2.cpp.
#include <wasm_simd128.h>

#include <algorithm>
#include <cstring>

#include "kernels/isa_tables.h"
#include "kernels/scratch.h"
#include "kernels/simd_table.h"

namespace attend::kernels {

namespace {

struct Wasm128 {
  using V = v128_t;
  static constexpr int kLanes = 4;
  // Broadcast tile 4 × 8: 8 accumulators + 2 b vectors + 1 broadcast.
  static constexpr int kGemmRows = 4;
  static constexpr int kGemmVectors = 2;
  static constexpr int kDotColumns = 4;
  static constexpr int kDotRows = 2;
  static constexpr int kDotMaxRows = 4;

  static V zero() { return wasm_f32x4_splat(0.0f); }
  static V set1(float x) { return wasm_f32x4_splat(x); }
  static V load(const float* p) { return wasm_v128_load(p); }
  static void store(float* p, V v) { wasm_v128_store(p, v); }
  static V load_partial(const float* p, int count, float fill) {
    float lanes[4] = {fill, fill, fill, fill};
    std::memcpy(lanes, p, static_cast<std::size_t>(count) * sizeof(float));
    return wasm_v128_load(lanes);
  }
  static void store_partial(float* p, V v, int count) {
    float lanes[4];
    wasm_v128_store(lanes, v);
    std::memcpy(p, lanes, static_cast<std::size_t>(count) * sizeof(float));
  }

  // The 4 low int8 lanes as floats. Not sign extensions then f32x4.convert_i32x4: LLVM folds
  // them into one int8-to-float conversion that its wasm backend scalarizes (4 lane extracts,
  // converts and replace_lanes per vector: the int8-weight GEMMs ran ~4x slower than f32).
  // Instead b + 128 is zero-extended into the mantissa of 2^23, exactly; subtracting 2^23 + 128
  // leaves b. No conversion, and exactly the same floats.
  static V widen_i8(V bytes) {
    const V biased = wasm_v128_xor(bytes, wasm_i8x16_splat(-128));  // b + 128 as unsigned bytes
    const V words = wasm_u32x4_extend_low_u16x8(wasm_u16x8_extend_low_u8x16(biased));
    const V shifted = wasm_v128_or(words, wasm_i32x4_splat(0x4B000000));  // the float 2^23 + b + 128
    return wasm_f32x4_sub(shifted, wasm_f32x4_splat(8388608.0f + 128.0f));
  }
  static V load_i8(const int8_t* p) { return widen_i8(wasm_v128_load32_zero(p)); }
  static V load_i8_partial(const int8_t* p, int count) {
    int32_t bytes = 0;
    std::memcpy(&bytes, p, static_cast<std::size_t>(count));
    return widen_i8(wasm_v128_load32_zero(&bytes));
  }

  static V add(V a, V b) { return wasm_f32x4_add(a, b); }
  static V sub(V a, V b) { return wasm_f32x4_sub(a, b); }
  static V mul(V a, V b) { return wasm_f32x4_mul(a, b); }
  static V div(V a, V b) { return wasm_f32x4_div(a, b); }
  // pmin/pmax (b < a ? b : a) lower to single instructions, unlike the NaN-exact min/max.
  static V min(V a, V b) { return wasm_f32x4_pmin(a, b); }
  static V max(V a, V b) { return wasm_f32x4_pmax(a, b); }
  static V fma(V a, V b, V c) { return wasm_f32x4_add(wasm_f32x4_mul(a, b), c); }
  static V abs(V x) { return wasm_f32x4_abs(x); }
  static V round(V x) { return wasm_f32x4_nearest(x); }
  static V pow2(V n) {
    const V biased = wasm_i32x4_add(wasm_i32x4_trunc_sat_f32x4(n), wasm_i32x4_splat(127));
    return wasm_i32x4_shl(biased, 23);
  }
  static V select_lt(V a, V b, V if_true, V if_false) {
    return wasm_v128_bitselect(if_true, if_false, wasm_f32x4_lt(a, b));
  }

  static bool any_lt(V a, V b) { return wasm_v128_any_true(wasm_f32x4_lt(a, b)); }

  static float reduce_add(V v) {
    const V pairs = wasm_f32x4_add(v, wasm_i32x4_shuffle(v, v, 2, 3, 0, 1));
    return wasm_f32x4_extract_lane(wasm_f32x4_add(pairs, wasm_i32x4_shuffle(pairs, pairs, 1, 0, 3, 2)), 0);
  }
  static float reduce_max(V v) {
    const V pairs = max(v, wasm_i32x4_shuffle(v, v, 2, 3, 0, 1));
    return wasm_f32x4_extract_lane(max(pairs, wasm_i32x4_shuffle(pairs, pairs, 1, 0, 3, 2)), 0);
  }

  // Lanes 0..3 = the sums of the lanes of v[0..3].
  static V sum_lanes4(const V (&v)[4]) {
    const V t0 = add(wasm_i32x4_shuffle(v[0], v[1], 0, 4, 1, 5), wasm_i32x4_shuffle(v[0], v[1], 2, 6, 3, 7));
    const V t1 = add(wasm_i32x4_shuffle(v[2], v[3], 0, 4, 1, 5), wasm_i32x4_shuffle(v[2], v[3], 2, 6, 3, 7));
    return add(wasm_i32x4_shuffle(t0, t1, 0, 1, 4, 5), wasm_i32x4_shuffle(t0, t1, 2, 3, 6, 7));
  }

  // 4×4 transpose: interleave pairs of rows, then pairs of pairs.
  static void transpose(V (&rows)[4]) {
    const V t0 = wasm_i32x4_shuffle(rows[0], rows[1], 0, 4, 1, 5);
    const V t1 = wasm_i32x4_shuffle(rows[0], rows[1], 2, 6, 3, 7);
    const V t2 = wasm_i32x4_shuffle(rows[2], rows[3], 0, 4, 1, 5);
    const V t3 = wasm_i32x4_shuffle(rows[2], rows[3], 2, 6, 3, 7);
    rows[0] = wasm_i32x4_shuffle(t0, t2, 0, 1, 4, 5);
    rows[1] = wasm_i32x4_shuffle(t0, t2, 2, 3, 6, 7);
    rows[2] = wasm_i32x4_shuffle(t1, t3, 0, 1, 4, 5);
    rows[3] = wasm_i32x4_shuffle(t1, t3, 2, 3, 6, 7);
  }
};

// ---- int8 weights at batch -------------------------------------------------------------
//
// The shared broadcast tile widens each int8 panel row in registers, which costs SIMD128 five
// instructions per four weights (Wasm128::widen_i8) and is repeated for every block of
// kGemmRows rows of a: at m = 32, eight times per weight, which made int8 weights slower than
// f32 at batch. Wherever the broadcast tile runs (m > kDotMaxRows), each panel is widened once
// per call into an f32 panel (exactly: the same floats) and the f32 tile runs on it, so the sums
// and their roundings are those of the shared kernel. Once pays already at m = 5 (beam 5,
// batch 1): 1.3× the in-register path (bench/wasm_gemm.py, Node).

constexpr int kPanelColumns = Wasm128::kGemmVectors * Wasm128::kLanes;

// ---- int8 weights, few rows ------------------------------------------------------------
//
// With up to kDotMaxRows rows each weight is used once or twice, so widening it is most of the
// work: the shared dot tile widens 4 bytes at a time (6 instructions per 4 weights). Here 16
// bytes are widened at once (15 instructions for 4 vectors), then multiplied as the shared tile
// does, 4 lanes at a time in the same order, so the sums are the same bit for bit.

// w[q] = b[4q .. 4q + 4) as floats, for 16 bytes of b (Wasm128::widen_i8 on a whole vector).
inline void widen_16(const int8_t* b, Wasm128::V (&w)[4]) {
  const v128_t biased = wasm_v128_xor(wasm_v128_load(b), wasm_i8x16_splat(-128));  // b + 128, unsigned
  const v128_t low = wasm_u16x8_extend_low_u8x16(biased), high = wasm_u16x8_extend_high_u8x16(biased);
  const v128_t words[4] = {wasm_u32x4_extend_low_u16x8(low), wasm_u32x4_extend_high_u16x8(low),
                           wasm_u32x4_extend_low_u16x8(high), wasm_u32x4_extend_high_u16x8(high)};
  for (int q = 0; q < 4; ++q) {
    w[q] = wasm_f32x4_sub(wasm_v128_or(words[q], wasm_i32x4_splat(0x4B000000)), wasm_f32x4_splat(8388608.0f + 128.0f));
  }
}

// c[r, j] = epilogue(Σ_p a[r, p]·b[j, p]) for R rows × C rows of int8 b, as simd::tile_dot.
template <int R, int C>
void tile_dot_i8(const float* a, std::ptrdiff_t lda, const int8_t* b, std::ptrdiff_t ldb, int k, float* c,
                 std::ptrdiff_t ldc, const simd::Epilogue<Wasm128>& e) {
  using V = Wasm128::V;
  V acc[R][C];
  for (int r = 0; r < R; ++r) {
    for (int j = 0; j < C; ++j) acc[r][j] = Wasm128::zero();
  }
  int p = 0;
  for (; p + 16 <= k; p += 16) {
    for (int j = 0; j < C; ++j) {
      V w[4];
      widen_16(b + j * ldb + p, w);
      for (int r = 0; r < R; ++r) {
        for (int q = 0; q < 4; ++q) acc[r][j] = Wasm128::fma(Wasm128::load(a + r * lda + p + 4 * q), w[q], acc[r][j]);
      }
    }
  }
  for (; p < k; p += 4) {  // the last < 16, 4 at a time as the shared tile
    const int count = std::min(4, k - p);
    for (int j = 0; j < C; ++j) {
      const V bv = load_weights_n<Wasm128>(b + j * ldb + p, count);
      for (int r = 0; r < R; ++r) acc[r][j] = Wasm128::fma(load_n<Wasm128>(a + r * lda + p, count), bv, acc[r][j]);
    }
  }
  simd::finish_dots<Wasm128, R, C>(acc, c, ldc, e);
}

template <int R>
void dot_rows_i8(const float* a, std::ptrdiff_t lda, const int8_t* b, std::ptrdiff_t ldb, int k, float* c,
                 std::ptrdiff_t ldc, int n, const simd::Epilogue<Wasm128>& e) {
  constexpr int C = Wasm128::kDotColumns;
  for (int j0 = 0; j0 < n; j0 += C) {
    const simd::Epilogue<Wasm128> at = e.at_column(j0);
    const int8_t* rows = b + j0 * ldb;
    switch (std::min(C, n - j0)) {
      case 4: tile_dot_i8<R, 4>(a, lda, rows, ldb, k, c + j0, ldc, at); break;
      case 3: tile_dot_i8<R, 3>(a, lda, rows, ldb, k, c + j0, ldc, at); break;
      case 2: tile_dot_i8<R, 2>(a, lda, rows, ldb, k, c + j0, ldc, at); break;
      default: tile_dot_i8<R, 1>(a, lda, rows, ldb, k, c + j0, ldc, at); break;
    }
  }
}

void gemm_i8w_nt_panels_wasm(const float* a, int lda, const int8_t* b, int ldb, const int8_t* panels,
                             const float* b_scale, const float* bias, float* c, int ldc, int m, int n, int k) {
  static_assert(Wasm128::kDotRows == 2 && Wasm128::kDotColumns == 4, "dot_rows_i8's tiles");
  if (m <= 0 || n <= 0) return;
  const simd::Epilogue<Wasm128> dots{b_scale, bias, false};
  if (m <= Wasm128::kDotMaxRows) {
    for (int i0 = 0; i0 < m; i0 += 2) {
      const float* rows = a + static_cast<std::ptrdiff_t>(i0) * lda;
      float* out = c + static_cast<std::ptrdiff_t>(i0) * ldc;
      if (m - i0 >= 2) {
        dot_rows_i8<2>(rows, lda, b, ldb, k, out, ldc, n, dots);
      } else {
        dot_rows_i8<1>(rows, lda, b, ldb, k, out, ldc, n, dots);
      }
    }
    return;
  }
  if (panels == nullptr) {  // the shared kernel widens b into a panel per call
    simd::gemm_i8w_nt<Wasm128>(a, lda, b, ldb, b_scale, bias, c, ldc, m, n, k);
    return;
  }
  const simd::Epilogue<Wasm128> e{b_scale, bias, false};
  float* panel = scratch_floats(static_cast<std::size_t>(k) * kPanelColumns);
  for (int j0 = 0; j0 < n; j0 += kPanelColumns) {
    const int8_t* from = panels + static_cast<std::ptrdiff_t>(j0) * k;
    for (int i = 0; i < k * kPanelColumns; i += Wasm128::kLanes) Wasm128::store(panel + i, Wasm128::load_i8(from + i));
    simd::rows_times_panel<Wasm128>(a, lda, panel, kPanelColumns, k, c + j0, ldc, m, std::min(kPanelColumns, n - j0),
                                    e.at_column(j0));
  }
}

}  // namespace

namespace {

void gemm_i8w_nt_wasm(const float* a, int lda, const int8_t* b, int ldb, const float* b_scale, const float* bias,
                      float* c, int ldc, int m, int n, int k) {
  gemm_i8w_nt_panels_wasm(a, lda, b, ldb, nullptr, b_scale, bias, c, ldc, m, n, k);
}

constexpr KernelTable with_wasm_gemms(KernelTable table) {
  table.gemm_i8w_nt = gemm_i8w_nt_wasm;
  table.gemm_i8w_nt_panels = gemm_i8w_nt_panels_wasm;
  table.gemm_i8i8_nt = gemm_i8i8_nt_wasm;
  table.gemm_u8s8_shifted_nt = gemm_u8s8_shifted_nt_wasm;
  return table;
}

}  // namespace

const KernelTable& wasm_kernels() {
  static constexpr KernelTable table = with_wasm_gemms(simd::make_table<Wasm128>(Isa::wasm_simd128));
  return table;
}

}  // namespace attend::kernels
