// The GEMMs for any SIMD ISA `S`. Two register-blocked micro-kernels cover every case:
//
// * broadcast tile (kGemmRows × kGemmVectors·kLanes of c): for each p, load a row of a
//   k×NR panel of b and FMA it with broadcast a[i, p] into one accumulator per (row, vector).
//   No horizontal sums, so it reaches close to peak FMA throughput. gemm_f32_nn reads its
//   panels straight from b; the _nt GEMMs read weight panels packed once at load (f32 or
//   int8, widened in registers), else transpose (and widen) b into a panel per call.
// * dot tile (R rows of a × C rows of b): both operands contiguous along k, one accumulator
//   per dot product, reduced horizontally at the end. Used by the _nt GEMMs when m is tiny
//   (decoding), where packing would cost more than it saves and the kernel is bound by
//   streaming b from memory: int8 weights are then read as int8 and widened in registers.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>

#include "kernels/scratch.h"
#include "kernels/simd_common.h"

namespace attend::kernels::simd {

// What happens to each finished sum s of column j: c = s·scale[j] (+ bias[j]) (+ c).
template <class S>
struct Epilogue {
  const float* scale;  // nullptr: 1
  const float* bias;   // nullptr: 0
  bool accumulate;

  Epilogue at_column(int j0) const {
    return {scale ? scale + j0 : nullptr, bias ? bias + j0 : nullptr, accumulate};
  }

  void finish(int j, float s, float* out) const {
    if (scale) s *= scale[j];
    if (bias) s += bias[j];
    if (accumulate) s += *out;
    *out = s;
  }
};

// The epilogue for `count` consecutive columns from j0, applied to whole vectors of sums.
template <class S>
struct EpilogueVector {
  using V = typename S::V;

  EpilogueVector(const Epilogue<S>& e, int j0, int count)
      : e(e),
        count(count),
        scale(e.scale ? load_n<S>(e.scale + j0, count) : S::set1(1.0f)),
        bias(e.bias ? load_n<S>(e.bias + j0, count) : S::zero()) {}

  void finish(V x, float* out) const {
    if (e.scale) x = S::mul(x, scale);
    if (e.bias) x = S::add(x, bias);
    if (e.accumulate) x = S::add(x, load_n<S>(out, count));
    store_n<S>(out, x, count);
  }

  const Epilogue<S>& e;
  int count;
  V scale;
  V bias;
};

// ---- the p where a tile's rows of a are not all 0 ---------------------------------------
//
// A tile's sums may skip the p where a[r, p] is 0 for each of its rows: a sum starts at +0 and
// so never is -0, and adding the ±0 that 0·w is (weights are finite: the model file is
// checked) changes no bit of it (x + ±0 = x for x ≠ 0; +0 + ±0 = +0). After a ReLU most of an
// FFN's hidden units are 0, many of them in every row of a block, so its second product skips
// most of its multiply-adds for the same bits. Where few are 0 the tile steps through every p.

// For each block of kGemmRows rows of a [m, k]: the p, ascending, where one of its rows is not 0;
// a block with more than 7/8 of k such p is listed as whole (count k, no list). None at all
// (every block whole) where a's first row has fewer than k/8 zeros, as a LayerNorm's output: the
// lists would cost more than they save; nor for k ≥ 2^16.
struct NonzeroSteps {
  const std::uint16_t* p = nullptr;  // [blocks, k]: block b's from p + b·k
  const int* count = nullptr;        // [blocks]
};

template <class S>
NonzeroSteps nonzero_steps(const float* a, std::ptrdiff_t lda, int m, int k) {
  constexpr int R = S::kGemmRows;
  const int blocks = (m + R - 1) / R;
  if (k >= (1 << 16) || m <= 0) return {};
  int first_row_zeros = 0;
  for (int q = 0; q < k; ++q) first_row_zeros += a[q] == 0.0f;
  if (first_row_zeros < k / 8) return {};
  const std::size_t list_bytes = static_cast<std::size_t>(blocks) * k * sizeof(std::uint16_t);
  float* memory = scratch_floats((list_bytes + blocks * sizeof(int) + k) / sizeof(float) + 1);
  auto* count = reinterpret_cast<int*>(memory);
  auto* p = reinterpret_cast<std::uint16_t*>(count + blocks);
  auto* nonzero = reinterpret_cast<std::uint8_t*>(p + static_cast<std::ptrdiff_t>(blocks) * k);  // [k]
  const int most = k - k / 8;  // beyond this many, the whole of k
  for (int b = 0; b < blocks; ++b) {
    // Without branches on the values, which have no pattern to predict.
    const float* rows = a + std::ptrdiff_t{b} * R * lda;
    for (int q = 0; q < k; ++q) nonzero[q] = rows[q] != 0.0f;
    for (int r = 1; r < std::min(R, m - b * R); ++r) {
      for (int q = 0; q < k; ++q) nonzero[q] |= rows[r * lda + q] != 0.0f;
    }
    std::uint16_t* listed = p + std::ptrdiff_t{b} * k;
    int n = 0;
    for (int q = 0; q < k; ++q) {
      listed[n] = static_cast<std::uint16_t>(q);
      n += nonzero[q];
    }
    count[b] = n > most ? k : n;
  }
  return {p, count};
}

// ---- broadcast tile --------------------------------------------------------------------

// c[0..R, 0..ncols) = epilogue(Σ_p a[r, p]·panel[p, v·L + l]), panel rows ldp apart; over the
// `count` steps listed in `steps` (nonzero_steps) where count < k, else over every p.
template <class S, int R, int NV, class T>
void tile_broadcast(const float* a, std::ptrdiff_t lda, const T* panel, std::ptrdiff_t ldp,
                    int k, const std::uint16_t* steps, int count, float* c, std::ptrdiff_t ldc, int ncols,
                    const Epilogue<S>& e) {
  using V = typename S::V;
  constexpr int L = S::kLanes;
  V acc[R][NV];
  ATTEND_UNROLL for (int r = 0; r < R; ++r) {
    ATTEND_UNROLL for (int v = 0; v < NV; ++v) acc[r][v] = S::zero();
  }
  // Row pointers and a panel pointer that steps by ldp, not a[r·lda + p] and panel[p·ldp]: the
  // WebAssembly build multiplied p·ldp and added r·lda for every p (LLVM's wasm backend keeps
  // the indices): SIMD128 1.07–1.14× at m ≥ 5 (bench/wasm_gemm.py). The same sums, in order.
  const float* rows[R];  // a[r, p] = rows[r][p]
  ATTEND_UNROLL for (int r = 0; r < R; ++r) rows[r] = a + r * lda;
  const auto multiply_add = [&](int p, const T* weights) {  // weights: panel[p, 0..NR)
    V b[NV];
    ATTEND_UNROLL for (int v = 0; v < NV; ++v) b[v] = load_weights_n<S>(weights + v * L, L);
    ATTEND_UNROLL for (int r = 0; r < R; ++r) {
      const V av = S::set1(rows[r][p]);
      ATTEND_UNROLL for (int v = 0; v < NV; ++v) acc[r][v] = S::fma(av, b[v], acc[r][v]);
    }
  };
  if (count < k) {
    for (int q = 0; q < count; ++q) multiply_add(steps[q], panel + steps[q] * ldp);
  } else {
    const T* weights = panel;
    for (int p = 0; p < k; ++p, weights += ldp) multiply_add(p, weights);
  }
  ATTEND_UNROLL for (int v = 0; v < NV; ++v) {
    const int count = std::min(L, ncols - v * L);
    if (count > 0) {
      const EpilogueVector<S> columns(e, v * L, count);
      ATTEND_UNROLL for (int r = 0; r < R; ++r) columns.finish(acc[r][v], c + r * ldc + v * L);
    }
  }
}

// The broadcast tile for the last rows < kGemmRows, choosing R at compile time.
template <class S, class T, int R = S::kGemmRows>
void tile_broadcast_rows(int rows, const float* a, std::ptrdiff_t lda, const T* panel,
                         std::ptrdiff_t ldp, int k, const std::uint16_t* steps, int count, float* c,
                         std::ptrdiff_t ldc, int ncols, const Epilogue<S>& e) {
  if constexpr (R > 1) {
    if (rows < R) {
      tile_broadcast_rows<S, T, R - 1>(rows, a, lda, panel, ldp, k, steps, count, c, ldc, ncols, e);
      return;
    }
  }
  tile_broadcast<S, R, S::kGemmVectors>(a, lda, panel, ldp, k, steps, count, c, ldc, ncols, e);
}

// c[0..m, 0..ncols) for one panel of NR columns; each block of rows over its nonzero steps
// where they are given (`steps.p`), else over every p.
template <class S, class T>
void rows_times_panel(const float* a, std::ptrdiff_t lda, const T* panel, std::ptrdiff_t ldp,
                      int k, float* c, std::ptrdiff_t ldc, int m, int ncols,
                      const Epilogue<S>& e, const NonzeroSteps& steps = {}) {
  for (int i0 = 0, b = 0; i0 < m; i0 += S::kGemmRows, ++b) {
    tile_broadcast_rows<S>(std::min(S::kGemmRows, m - i0), a + i0 * lda, lda, panel, ldp, k,
                           steps.p ? steps.p + std::ptrdiff_t{b} * k : nullptr, steps.p ? steps.count[b] : k,
                           c + i0 * ldc, ldc, ncols, e);
  }
}

// panel[p, jj] = b[jj, p] for jj < rows, 0 beyond (NR = kGemmVectors·kLanes columns):
// kLanes×kLanes blocks are loaded row-wise, widened if int8, transposed in registers.
template <class S, class T>
void pack_transposed(const T* b, std::ptrdiff_t ldb, int rows, int k, float* panel) {
  using V = typename S::V;
  constexpr int L = S::kLanes;
  constexpr int NR = S::kGemmVectors * L;
  for (int p0 = 0; p0 < k; p0 += L) {
    const int depth = std::min(L, k - p0);
    for (int jj0 = 0; jj0 < NR; jj0 += L) {
      V block[L];
      for (int r = 0; r < L; ++r) {
        const int row = jj0 + r;
        block[r] = row < rows ? load_weights_n<S>(b + row * ldb + p0, depth) : S::zero();
      }
      S::transpose(block);
      for (int q = 0; q < depth; ++q) S::store(panel + (p0 + q) * NR + jj0, block[q]);
    }
  }
}

// panel[p, jj] = b[p, jj] for jj < cols, 0 beyond: the right edge of gemm_f32_nn, so the
// micro-kernel never loads past the end of b.
template <class S>
void pack_edge(const float* b, std::ptrdiff_t ldb, int cols, int k, float* panel) {
  constexpr int L = S::kLanes;
  constexpr int NR = S::kGemmVectors * L;
  for (int p = 0; p < k; ++p) {
    for (int v = 0; v < S::kGemmVectors; ++v) {
      const int count = cols - v * L;
      S::store(panel + p * NR + v * L,
               count > 0 ? load_n<S>(b + p * ldb + v * L, std::min(L, count)) : S::zero());
    }
  }
}

// ---- dot tile --------------------------------------------------------------------------

// Reduces the R×C dot accumulators and applies the epilogue: four at a time (S::sum_lanes4)
// into a vector of four consecutive outputs, the last C % 4 as a group padded with zeros, so that
// every column is summed and finished alike wherever it falls: an output has the same bits when
// only some of a weight's columns are computed (model/weights.h select_rows).
template <class S, int R, int C>
void finish_dots(const typename S::V (&acc)[R][C], float* c, std::ptrdiff_t ldc,
                 const Epilogue<S>& e) {
  using V = typename S::V;
  ATTEND_UNROLL for (int g = 0; 4 * g < C; ++g) {
    const EpilogueVector<S> columns(e, 4 * g, std::min(4, C - 4 * g));
    ATTEND_UNROLL for (int r = 0; r < R; ++r) {
      V group[4];
      ATTEND_UNROLL for (int j = 0; j < 4; ++j) group[j] = 4 * g + j < C ? acc[r][4 * g + j] : S::zero();
      columns.finish(S::sum_lanes4(group), c + r * ldc + 4 * g);
    }
  }
}

// c[r, j] = epilogue(Σ_p a[r, p]·b[j, p]) for R rows × C columns.
template <class S, int R, int C, class T>
void tile_dot(const float* a, std::ptrdiff_t lda, const T* b, std::ptrdiff_t ldb, int k, float* c,
              std::ptrdiff_t ldc, const Epilogue<S>& e) {
  using V = typename S::V;
  V acc[R][C];
  ATTEND_UNROLL for (int r = 0; r < R; ++r) {
    ATTEND_UNROLL for (int j = 0; j < C; ++j) acc[r][j] = S::zero();
  }
  for_each_chunk<S>(k, [&](int p, int count) {
    V av[R];
    ATTEND_UNROLL for (int r = 0; r < R; ++r) av[r] = load_n<S>(a + r * lda + p, count);
    ATTEND_UNROLL for (int j = 0; j < C; ++j) {
      const V bv = load_weights_n<S>(b + j * ldb + p, count);
      ATTEND_UNROLL for (int r = 0; r < R; ++r) acc[r][j] = S::fma(av[r], bv, acc[r][j]);
    }
  });
  finish_dots<S, R, C>(acc, c, ldc, e);
}

// The dot tile for the last columns, choosing C at compile time.
template <class S, int R, class T, int C = S::kDotColumns>
void tile_dot_columns(int cols, const float* a, std::ptrdiff_t lda, const T* b, std::ptrdiff_t ldb,
                      int k, float* c, std::ptrdiff_t ldc, const Epilogue<S>& e) {
  if constexpr (C > 1) {
    if (cols < C) {
      tile_dot_columns<S, R, T, C - 1>(cols, a, lda, b, ldb, k, c, ldc, e);
      return;
    }
  }
  tile_dot<S, R, C, T>(a, lda, b, ldb, k, c, ldc, e);
}

// All n columns of R rows: tiles of kDotColumns rows of b.
template <class S, int R, class T>
void dot_rows(const float* a, std::ptrdiff_t lda, const T* b, std::ptrdiff_t ldb, int k, float* c,
              std::ptrdiff_t ldc, int n, const Epilogue<S>& e) {
  constexpr int C = S::kDotColumns;
  for (int j0 = 0; j0 < n; j0 += C) {
    tile_dot_columns<S, R, T>(std::min(C, n - j0), a, lda, b + j0 * ldb, ldb, k, c + j0, ldc,
                              e.at_column(j0));
  }
}

// The rows < kDotRows at the end, choosing R at compile time.
template <class S, class T, int R = S::kDotRows>
void dot_rows_upto(int rows, const float* a, std::ptrdiff_t lda, const T* b, std::ptrdiff_t ldb,
                   int k, float* c, std::ptrdiff_t ldc, int n, const Epilogue<S>& e) {
  if constexpr (R > 1) {
    if (rows < R) {
      dot_rows_upto<S, T, R - 1>(rows, a, lda, b, ldb, k, c, ldc, n, e);
      return;
    }
  }
  dot_rows<S, R, T>(a, lda, b, ldb, k, c, ldc, n, e);
}

// ---- drivers ---------------------------------------------------------------------------

// c[m, n] = epilogue(a[m, k] · b[n, k]ᵀ) for f32 or int8 b, given also as `panels` (packed
// with NR columns, pack_panels) or nullptr.
template <class S, class T>
void gemm_nt(const float* a, int lda, const T* b, int ldb, const T* panels, const Epilogue<S>& e,
             float* c, int ldc, int m, int n, int k) {
  if (m <= 0 || n <= 0) return;
  if (m <= S::kDotMaxRows) {
    for (int i0 = 0; i0 < m; i0 += S::kDotRows) {
      dot_rows_upto<S, T>(std::min(S::kDotRows, m - i0), a + std::ptrdiff_t{i0} * lda, lda, b,
                          ldb, k, c + std::ptrdiff_t{i0} * ldc, ldc, n, e);
    }
    return;
  }
  constexpr int NR = S::kGemmVectors * S::kLanes;
  if (panels) {  // weights packed at load: the scratch holds the rows' nonzero steps instead
    const NonzeroSteps steps = nonzero_steps<S>(a, lda, m, k);
    for (int j0 = 0; j0 < n; j0 += NR) {
      rows_times_panel<S>(a, lda, panels + std::ptrdiff_t{j0} * k, NR, k, c + j0, ldc, m,
                          std::min(NR, n - j0), e.at_column(j0), steps);
    }
    return;
  }
  float* panel = scratch_floats(static_cast<std::size_t>(k) * NR);
  for (int j0 = 0; j0 < n; j0 += NR) {
    const int ncols = std::min(NR, n - j0);
    pack_transposed<S>(b + std::ptrdiff_t{j0} * ldb, ldb, ncols, k, panel);
    rows_times_panel<S>(a, lda, panel, NR, k, c + j0, ldc, m, ncols, e.at_column(j0));
  }
}

template <class S>
void gemm_f32_nt_panels(const float* a, int lda, const float* b, int ldb, const float* panels,
                        const float* bias, float* c, int ldc, int m, int n, int k,
                        bool accumulate) {
  gemm_nt<S>(a, lda, b, ldb, panels, Epilogue<S>{nullptr, bias, accumulate}, c, ldc, m, n, k);
}

template <class S>
void gemm_f32_nt(const float* a, int lda, const float* b, int ldb, const float* bias, float* c,
                 int ldc, int m, int n, int k, bool accumulate) {
  gemm_f32_nt_panels<S>(a, lda, b, ldb, nullptr, bias, c, ldc, m, n, k, accumulate);
}

template <class S>
void gemm_i8w_nt_panels(const float* a, int lda, const int8_t* b, int ldb, const int8_t* panels,
                        const float* b_scale, const float* bias, float* c, int ldc, int m, int n,
                        int k) {
  gemm_nt<S>(a, lda, b, ldb, panels, Epilogue<S>{b_scale, bias, false}, c, ldc, m, n, k);
}

template <class S>
void gemm_i8w_nt(const float* a, int lda, const int8_t* b, int ldb, const float* b_scale,
                 const float* bias, float* c, int ldc, int m, int n, int k) {
  gemm_i8w_nt_panels<S>(a, lda, b, ldb, nullptr, b_scale, bias, c, ldc, m, n, k);
}

// c[m, n] = a[m, k] · b[k, n] (+ c): b's rows are already panels; only a ragged right edge
// is copied, zero-padded.
template <class S>
void gemm_f32_nn(const float* a, int lda, const float* b, int ldb, float* c, int ldc, int m,
                 int n, int k, bool accumulate) {
  if (m <= 0 || n <= 0) return;
  constexpr int NR = S::kGemmVectors * S::kLanes;
  const Epilogue<S> e{nullptr, nullptr, accumulate};
  for (int j0 = 0; j0 < n; j0 += NR) {
    const int ncols = std::min(NR, n - j0);
    if (ncols == NR) {
      rows_times_panel<S>(a, lda, b + j0, ldb, k, c + j0, ldc, m, ncols, e);
    } else {
      float* panel = scratch_floats(static_cast<std::size_t>(k) * NR);
      pack_edge<S>(b + j0, ldb, ncols, k, panel);
      rows_times_panel<S>(a, lda, panel, NR, k, c + j0, ldc, m, ncols, e);
    }
  }
}

}  // namespace attend::kernels::simd
