// gemm_u8s8_shifted_nt (kernels.h) on x86, the body of kernels_avx2_u8s8.cpp and
// kernels_avx512_u8s8.cpp, each instantiating it with its own traits `T` (an internal-linkage
// struct, so each file's copy is compiled with its own flags; both files are compiled with
// -ffp-contract=off, so the epilogue's multiply and add round separately).
//
// The inner product is intgemm's Multiply8Shift: per register of ua (unsigned) and b (signed)
// bytes, pmaddubsw multiplies them and adds adjacent pairs into int16 with signed saturation
// (exactly kernels.h's sat16), pmaddwd by ones adds adjacent int16 into int32 (exact), paddd
// accumulates. Pairs start at even offsets in the row and registers at multiples of their
// width, so every pair lies in one register, as in intgemm. The int32 sums are exact, in any
// order (no overflow for k ≤ 131072), hence the same integers as the scalar definition.
//
// Dot tiles, as intgemm's (it reads b transposed-interleaved; b[n, k] row-major is the same
// data): R rows of ua × C rows of b, R·C accumulators of kBytes / 4 int32 lanes each, reduced
// to C sums per row after the last k-step. b is read in place (no panels), the last k-step of
// a k that is no multiple of kBytes with a partial load that reads no further than k; the rows
// of ua live in the per-thread scratch, kv bytes apart (k rounded up to kBytes), zero past k.
//
// T provides: I (an integer vector of kBytes bytes); kBytes; kTileRows, kTileColumns (R and C
// of the tiles; C a multiple of 4) and kRowColumns (C when the call has one row);
// zero(); load(p) (unaligned); load_partial(p, count) (count < kBytes bytes, zeros after);
// accumulate(acc, ua, b) = acc + pmaddwd(pmaddubsw(ua, b), ones);
// sums4(acc) (an __m128i of the 4 vectors' lane sums);
// quantize_row(row, k, kv, qa, out) (out[0, k) = ua as u8s8_shifted.h's quantize_shifted,
// out[k, kv) = 0).
#pragma once

#include <immintrin.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>

#include "kernels/scratch.h"
#include "kernels/simd_common.h"

namespace attend::kernels::u8s8 {

// The C rows of b one tile of columns reads (ldb apart; the columns past n read the last row
// again and are not stored), and what turns its sums into outputs: computed once per tile of
// columns, for all its rows.
template <int C>
struct Columns {
  const int8_t* rows[C];
  int count;                // the columns < n, ≤ C
  const float* bias;        // bias[j], or a copy padded with zeros for a partial tile
  float bias_lanes[C] = {};

  Columns(const int8_t* b, std::ptrdiff_t ldb, const float* column_bias, int columns) : count(columns) {
    for (int j = 0; j < C; ++j) rows[j] = b + std::min(j, columns - 1) * ldb;
    if (columns == C) {
      bias = column_bias;
    } else {
      std::memcpy(bias_lanes, column_bias, static_cast<std::size_t>(columns) * sizeof(float));
      bias = bias_lanes;
    }
  }
};

// c[0..R, 0..columns.count) from R rows of ua (kv bytes apart). Inlined into its caller's loop
// over the rows, so nothing per tile but the sums and the epilogue is recomputed.
template <class T, int R, int C>
__attribute__((always_inline)) inline void tile(const uint8_t* ua, std::ptrdiff_t kv, const Columns<C>& columns, int k,
                                                __m128 scale, float* c, std::ptrdiff_t ldc) {
  using I = typename T::I;
  I acc[R][C];
  ATTEND_UNROLL for (int r = 0; r < R; ++r) {
    ATTEND_UNROLL for (int j = 0; j < C; ++j) acc[r][j] = T::zero();
  }
  const int whole = k / T::kBytes * T::kBytes;
  int p = 0;
  for (; p < whole; p += T::kBytes) {
    I a[R];
    ATTEND_UNROLL for (int r = 0; r < R; ++r) a[r] = T::load(ua + r * kv + p);
    ATTEND_UNROLL for (int j = 0; j < C; ++j) {
      const I w = T::load(columns.rows[j] + p);
      ATTEND_UNROLL for (int r = 0; r < R; ++r) acc[r][j] = T::accumulate(acc[r][j], a[r], w);
    }
  }
  if (p < k) {
    ATTEND_UNROLL for (int j = 0; j < C; ++j) {
      const I w = T::load_partial(columns.rows[j] + p, k - p);
      ATTEND_UNROLL for (int r = 0; r < R; ++r) acc[r][j] = T::accumulate(acc[r][j], T::load(ua + r * kv + p), w);
    }
  }
  // fl(fl((float)C·unquant) + bias), 4 columns at a time; a partial tile through a buffer.
  const bool full = columns.count == C;
  ATTEND_UNROLL for (int r = 0; r < R; ++r) {
    float out_lanes[C];
    float* out = full ? c + r * ldc : out_lanes;
    ATTEND_UNROLL for (int g = 0; g < C / 4; ++g) {
      const I group[4] = {acc[r][4 * g], acc[r][4 * g + 1], acc[r][4 * g + 2], acc[r][4 * g + 3]};
      const __m128 sums = _mm_cvtepi32_ps(T::sums4(group));
      const __m128 scaled = _mm_mul_ps(sums, scale);
      _mm_storeu_ps(out + 4 * g, _mm_add_ps(scaled, _mm_loadu_ps(columns.bias + 4 * g)));
    }
    if (!full) std::memcpy(c + r * ldc, out_lanes, static_cast<std::size_t>(columns.count) * sizeof(float));
  }
}

// Every column, C at a time, for every row, R at a time (the last rows fewer): a tile's C rows
// of b stay in L1 while every row of ua passes them.
template <class T, int R, int C>
void all_columns(const uint8_t* ua, std::ptrdiff_t kv, const int8_t* b, std::ptrdiff_t ldb, int k, float unquant,
                 const float* bias, float* c, std::ptrdiff_t ldc, int m, int n) {
  static_assert(R <= 4, "up to 3 rows left over");
  const __m128 scale = _mm_set1_ps(unquant);
  for (int j0 = 0; j0 < n; j0 += C) {
    const Columns<C> columns(b + j0 * ldb, ldb, bias + j0, std::min(C, n - j0));
    int i0 = 0;
    for (; i0 + R <= m; i0 += R) tile<T, R, C>(ua + i0 * kv, kv, columns, k, scale, c + i0 * ldc + j0, ldc);
    const int rest = m - i0;
    const uint8_t* rest_ua = ua + i0 * kv;
    float* rest_c = c + i0 * ldc + j0;
    if constexpr (R > 3) {
      if (rest == 3) tile<T, 3, C>(rest_ua, kv, columns, k, scale, rest_c, ldc);
    }
    if constexpr (R > 2) {
      if (rest == 2) tile<T, 2, C>(rest_ua, kv, columns, k, scale, rest_c, ldc);
    }
    if constexpr (R > 1) {
      if (rest == 1) tile<T, 1, C>(rest_ua, kv, columns, k, scale, rest_c, ldc);
    }
  }
}

template <class T>
void gemm(const float* a, int lda, float qa, const int8_t* b, int ldb, float unquant, const float* bias, float* c,
          int ldc, int m, int n, int k) {
  if (m <= 0 || n <= 0) return;
  const std::ptrdiff_t kv = (std::max(k, 0) + T::kBytes - 1) / T::kBytes * T::kBytes;
  auto* ua = reinterpret_cast<uint8_t*>(scratch_floats((static_cast<std::size_t>(m) * kv + 3) / 4));
  for (int i = 0; i < m; ++i) T::quantize_row(a + static_cast<std::ptrdiff_t>(i) * lda, k, kv, qa, ua + i * kv);
  if (m == 1) {
    all_columns<T, 1, T::kRowColumns>(ua, kv, b, ldb, k, unquant, bias, c, ldc, m, n);
  } else {
    all_columns<T, T::kTileRows, T::kTileColumns>(ua, kv, b, ldb, k, unquant, bias, c, ldc, m, n);
  }
}

}  // namespace attend::kernels::u8s8
