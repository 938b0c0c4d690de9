// gemm_u8s8_shifted_nt for WebAssembly SIMD128 (compiled with -msimd128 -ffp-contract=off).
// SIMD128 has no pmaddubsw; its saturating pair sums are rebuilt from parts that are exact:
// with ua ≤ 254 and |b| ≤ 128 every product fits int16 (|ua·b| ≤ 32512), so i16x8.mul of the
// even bytes (ua[2q]·b[2q]) and of the odd bytes (ua[2q+1]·b[2q+1]), widened to int16, are the
// exact products; i16x8.add_sat_s of the two is sat16 of the pair's sum, exactly pmaddubsw's
// lane; i32x4.extadd_pairwise_i16x8_s then adds adjacent pairs into int32 (pmaddwd by ones) and
// i32x4.add accumulates. Five instructions per 16 multiply-adds.
//
// The even/odd split: each row of ua is quantized once per call into the per-thread scratch as,
// per 16-byte k-step, two i16x8 vectors (its even and its odd bytes); each 16 bytes of b, read in
// place, split by shifts within their int16 lanes (odd = lane >> 8, even = (lane << 8) >> 8,
// arithmetic). Dot tiles of R rows × 4 columns, the 4 columns' sums reduced together at the end;
// 2 × 4 (8 accumulators) for calls of several rows, 1 × 8 for a call of one row. Integer sums
// are exact and the epilogue rounds as the oracle's (no fused multiply-add in SIMD128): the
// same bits.
//
// Where the engine runs relaxed SIMD, wasm/relaxed/u8s8_relaxed.c does the products and the
// epilogue with one pmaddubsw per 16 bytes of a row and a column (V8's
// i16x8.relaxed_dot_i8x16_i7x16_s), on rows quantized here to bytes, once use_relaxed_u8s8 has
// seen it give this kernel's bits.
#include <wasm_simd128.h>

#include <algorithm>
#include <climits>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <vector>

#include "kernels/isa_tables.h"
#include "kernels/scratch.h"

namespace attend::kernels {

namespace {

constexpr int kStep = 16;  // bytes of a row per k-step

// x86's cvtps2dq (u8s8_shifted.h's cvtps_epi32) on 4 floats: f32x4.nearest rounds ties to even;
// trunc_sat would then give INT32_MAX for a huge value and 0 for NaN, where cvtps2dq gives
// INT32_MIN for every value outside [-2^31, 2^31) and NaN.
v128_t cvtps_epi32(v128_t x) {
  const v128_t in_range = wasm_v128_and(wasm_f32x4_ge(x, wasm_f32x4_splat(-2147483648.0f)),
                                        wasm_f32x4_lt(x, wasm_f32x4_splat(2147483648.0f)));
  return wasm_v128_bitselect(wasm_i32x4_trunc_sat_f32x4(wasm_f32x4_nearest(x)), wasm_i32x4_splat(INT32_MIN),
                             in_range);
}

// The 16 bytes of k-step s of a row quantized (QuantizeU: cvtps_epi32 of a·qa, saturated to int16
// then int8 as packs does, max(-127), + 127). The values past k read as NaN, which quantizes to 0.
v128_t quantized_step(const float* row, int k, int s, float qa) {
  const int p = s * kStep;
  float tail[kStep];
  const float* values = row + p;
  if (k - p < kStep) {
    std::fill(tail, tail + kStep, NAN);
    std::memcpy(tail, row + p, static_cast<std::size_t>(k - p) * sizeof(float));
    values = tail;
  }
  const v128_t scale = wasm_f32x4_splat(qa);
  v128_t words[4];
  for (int v = 0; v < 4; ++v) words[v] = cvtps_epi32(wasm_f32x4_mul(wasm_v128_load(values + 4 * v), scale));
  const v128_t bytes = wasm_i8x16_narrow_i16x8(wasm_i16x8_narrow_i32x4(words[0], words[1]),
                                               wasm_i16x8_narrow_i32x4(words[2], words[3]));
  return wasm_i8x16_add(wasm_i8x16_max(bytes, wasm_i8x16_splat(-127)), wasm_i8x16_splat(127));
}

// One quantized row as `steps` pairs of vectors: [2s] the even bytes of k-step s widened to
// int16, [2s + 1] the odd ones.
void quantize_row(const float* row, int k, int steps, float qa, v128_t* out) {
  const v128_t low_bytes = wasm_i16x8_splat(0x00FF);
  for (int s = 0; s < steps; ++s) {
    const v128_t shifted = quantized_step(row, k, s, qa);
    out[2 * s] = wasm_v128_and(shifted, low_bytes);
    out[2 * s + 1] = wasm_u16x8_shr(shifted, 8);
  }
}

// acc + the 8 saturated pair sums of (even, odd) · b, added pairwise into 4 int32 lanes.
inline v128_t accumulate(v128_t acc, v128_t even, v128_t odd, v128_t b_even, v128_t b_odd) {
  const v128_t pairs = wasm_i16x8_add_sat(wasm_i16x8_mul(even, b_even), wasm_i16x8_mul(odd, b_odd));
  return wasm_i32x4_add(acc, wasm_i32x4_extadd_pairwise_i16x8(pairs));
}

// Lanes 0..3 = the sums of the 4 lanes of acc[0..3].
inline v128_t sums4(v128_t a0, v128_t a1, v128_t a2, v128_t a3) {
  const v128_t t01 = wasm_i32x4_add(wasm_i32x4_shuffle(a0, a1, 0, 4, 1, 5), wasm_i32x4_shuffle(a0, a1, 2, 6, 3, 7));
  const v128_t t23 = wasm_i32x4_add(wasm_i32x4_shuffle(a2, a3, 0, 4, 1, 5), wasm_i32x4_shuffle(a2, a3, 2, 6, 3, 7));
  return wasm_i32x4_add(wasm_i32x4_shuffle(t01, t23, 0, 1, 4, 5), wasm_i32x4_shuffle(t01, t23, 2, 3, 6, 7));
}

// c[0..R, 0..columns) from R quantized rows (2·steps vectors apart) and the b rows from `b`
// (ldb apart; columns ≤ C: the missing ones read the last row again and are not stored).
template <int R, int C>
void tile(const v128_t* ua, int steps, const int8_t* b, std::ptrdiff_t ldb, int k, float unquant, const float* bias,
          int columns, float* c, std::ptrdiff_t ldc) {
  const int8_t* rows[C];
  for (int j = 0; j < C; ++j) rows[j] = b + std::min(j, columns - 1) * ldb;
  v128_t acc[R][C];
  for (int r = 0; r < R; ++r) {
    for (int j = 0; j < C; ++j) acc[r][j] = wasm_i32x4_splat(0);
  }
  // Column j's 16 bytes of k-step s (w) against every row's.
  auto step = [&](int s, int j, v128_t w) {
    const v128_t w_odd = wasm_i16x8_shr(w, 8);
    const v128_t w_even = wasm_i16x8_shr(wasm_i16x8_shl(w, 8), 8);
    for (int r = 0; r < R; ++r) {
      const v128_t* row = ua + r * 2 * steps + 2 * s;
      acc[r][j] = accumulate(acc[r][j], row[0], row[1], w_even, w_odd);
    }
  };
  const int whole = k / kStep;
  for (int s = 0; s < whole; ++s) {
    for (int j = 0; j < C; ++j) step(s, j, wasm_v128_load(rows[j] + s * kStep));
  }
  if (whole < steps) {  // the last bytes of a k that is no multiple of 16, zeros after
    for (int j = 0; j < C; ++j) {
      int8_t bytes[kStep] = {};
      std::memcpy(bytes, rows[j] + whole * kStep, static_cast<std::size_t>(k - whole * kStep));
      step(whole, j, wasm_v128_load(bytes));
    }
  }
  // fl(fl((float)C·unquant) + bias), 4 columns at a time; a partial tile through small buffers.
  float bias_lanes[C] = {};
  const bool full = columns == C;
  if (!full) std::memcpy(bias_lanes, bias, static_cast<std::size_t>(columns) * sizeof(float));
  const float* column_bias = full ? bias : bias_lanes;
  const v128_t scale = wasm_f32x4_splat(unquant);
  for (int r = 0; r < R; ++r) {
    float out_lanes[C];
    float* out = full ? c + r * ldc : out_lanes;
    for (int g = 0; g < C / 4; ++g) {
      const v128_t sums = sums4(acc[r][4 * g], acc[r][4 * g + 1], acc[r][4 * g + 2], acc[r][4 * g + 3]);
      const v128_t scaled = wasm_f32x4_mul(wasm_f32x4_convert_i32x4(sums), scale);
      wasm_v128_store(out + 4 * g, wasm_f32x4_add(scaled, wasm_v128_load(column_bias + 4 * g)));
    }
    if (!full) std::memcpy(c + r * ldc, out_lanes, static_cast<std::size_t>(columns) * sizeof(float));
  }
}

// Every column, C at a time, for every row, R at a time (the last row alone).
template <int R, int C>
void all_columns(const v128_t* ua, int steps, const int8_t* b, std::ptrdiff_t ldb, int k, float unquant,
                 const float* bias, float* c, std::ptrdiff_t ldc, int m, int n) {
  static_assert(R <= 2, "one row left over at most");
  for (int j0 = 0; j0 < n; j0 += C) {
    const int columns = std::min(C, n - j0);
    const int8_t* b_tile = b + j0 * ldb;
    int i0 = 0;
    for (; i0 + R <= m; i0 += R) {
      tile<R, C>(ua + static_cast<std::ptrdiff_t>(i0) * 2 * steps, steps, b_tile, ldb, k, unquant, bias + j0, columns,
                 c + i0 * ldc + j0, ldc);
    }
    if (i0 < m) {
      tile<1, C>(ua + static_cast<std::ptrdiff_t>(i0) * 2 * steps, steps, b_tile, ldb, k, unquant, bias + j0, columns,
                 c + i0 * ldc + j0, ldc);
    }
  }
}

RelaxedU8s8 relaxed = nullptr;  // use_relaxed_u8s8's

}  // namespace

void gemm_u8s8_shifted_nt_wasm(const float* a, int lda, float qa, const int8_t* b, int ldb, float unquant,
                               const float* bias, float* c, int ldc, int m, int n, int k) {
  if (m <= 0 || n <= 0) return;
  const int steps = (std::max(k, 0) + kStep - 1) / kStep;
  if (relaxed && k > 0 && k % kStep == 0) {
    // Scratch: the rows' bytes, 16·steps per row.
    auto* ua = reinterpret_cast<v128_t*>(scratch_floats(static_cast<std::size_t>(m) * steps * 4));
    for (int i = 0; i < m; ++i) {
      for (int s = 0; s < steps; ++s) ua[i * steps + s] = quantized_step(a + static_cast<std::ptrdiff_t>(i) * lda, k, s, qa);
    }
    relaxed(reinterpret_cast<const uint8_t*>(ua), steps, b, ldb, unquant, bias, c, ldc, m, n);
    return;
  }
  // Scratch: the rows' even and odd vectors, 2·steps per row (64-byte aligned).
  auto* ua = reinterpret_cast<v128_t*>(scratch_floats(static_cast<std::size_t>(m) * steps * 2 * 4));
  for (int i = 0; i < m; ++i) {
    quantize_row(a + static_cast<std::ptrdiff_t>(i) * lda, k, steps, qa, ua + static_cast<std::ptrdiff_t>(i) * 2 * steps);
  }
  if (m == 1) {
    all_columns<1, 8>(ua, steps, b, ldb, k, unquant, bias, c, ldc, m, n);
  } else {
    all_columns<2, 4>(ua, steps, b, ldb, k, unquant, bias, c, ldc, m, n);
  }
}

bool use_relaxed_u8s8(RelaxedU8s8 kernel) {
  relaxed = nullptr;
  if (!kernel) return false;
  // Rows and weights of every kind of tile edge, many activations at the clamp (ua 0 or 254) and
  // many weights at ±127 or -128, so that pairs saturate both ways.
  uint32_t seed = 2463534242u;
  const auto next = [&seed] {
    seed ^= seed << 13;
    seed ^= seed >> 17;
    seed ^= seed << 5;
    return seed;
  };
  for (const int m : {1, 2, 3, 5}) {
    for (const int n : {1, 3, 4, 9}) {
      for (const int k : {16, 48, 272}) {
        std::vector<float> x(static_cast<std::size_t>(m) * k), bias(n), own(static_cast<std::size_t>(m) * n),
            theirs(own.size());
        std::vector<int8_t> w(static_cast<std::size_t>(n) * k);
        for (float& v : x) v = next() % 3 == 0 ? (next() % 2 ? 9.f : -9.f) : static_cast<float>(next() % 2001) / 1000.f - 1.f;
        for (int8_t& v : w) v = next() % 2 == 0 ? (next() % 2 ? 127 : -128) : static_cast<int8_t>(next() % 256);
        for (float& v : bias) v = static_cast<float>(next() % 2001) / 100.f - 10.f;
        gemm_u8s8_shifted_nt_wasm(x.data(), k, 127.f, w.data(), k, 1.3e-4f, bias.data(), own.data(), n, m, n, k);
        relaxed = kernel;
        gemm_u8s8_shifted_nt_wasm(x.data(), k, 127.f, w.data(), k, 1.3e-4f, bias.data(), theirs.data(), n, m, n, k);
        relaxed = nullptr;
        if (std::memcmp(own.data(), theirs.data(), own.size() * sizeof(float)) != 0) return false;
      }
    }
  }
  relaxed = kernel;
  return true;
}

}  // namespace attend::kernels

// For wasm/attend.mjs: `table_index` is the module's function table slot of attend-relaxed.wasm's
// attend_u8s8_relaxed (addFunction). 1 when taken, 0 when not.
extern "C" int attend_use_relaxed_u8s8(int table_index) {
  return attend::kernels::use_relaxed_u8s8(
             reinterpret_cast<attend::kernels::RelaxedU8s8>(static_cast<std::uintptr_t>(table_index)))
             ? 1
             : 0;
}
