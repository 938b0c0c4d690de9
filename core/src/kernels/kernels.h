// The kernel interface: every numeric primitive the model needs, one table of function
// pointers per instruction set. The table is chosen once (at start-up from CPUID natively,
// at compile time for WebAssembly); callers never switch on the ISA per call.
//
// Conventions: row-major matrices; `ld*` are leading dimensions (elements between rows);
// weights follow PyTorch's nn.Linear layout W[n_out, k_in], so y = x·Wᵀ + b. Any size
// (including 0), alignment and leading dimension ≥ the row length works; for speed, start
// weight matrices on 64-byte boundaries with ld a multiple of 16 (a row straddling cache lines
// costs AVX-512 up to a third at m = 1). Every kernel is single-threaded and allocates nothing
// per call (panels packed during a call live in a per-thread buffer that only grows).
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace attend::kernels {

enum class Isa { scalar, avx2, avx512, wasm_simd128 };

const char* isa_name(Isa isa);

struct KernelTable {
  Isa isa;

  // c[m, n] = a[m, k] · b[n, k]ᵀ (+ bias[n] if bias != nullptr) (+ c if accumulate)
  void (*gemm_f32_nt)(const float* a, int lda, const float* b, int ldb, const float* bias,
                      float* c, int ldc, int m, int n, int k, bool accumulate);

  // c[m, n] = a[m, k] · b[k, n]  (+ c if accumulate)
  void (*gemm_f32_nn)(const float* a, int lda, const float* b, int ldb, float* c, int ldc,
                      int m, int n, int k, bool accumulate);

  // Weights stored int8 with one f32 scale per output row (w[n, k] ≈ b_scale[n]·b[n, k]);
  // activations stay f32. c[m, n] = a[m, k] · (b_scale ⊙ b)[n, k]ᵀ (+ bias[n])
  void (*gemm_i8w_nt)(const float* a, int lda, const int8_t* b, int ldb, const float* b_scale,
                      const float* bias, float* c, int ldc, int m, int n, int k);

  // Weight panels: a constant b[n, k] copied once into the layout the batched GEMM reads, so
  // it is not repacked on every call (pack_panels below). 0: this table reads no panels.
  int panel_columns;

  // gemm_f32_nt / gemm_i8w_nt given b also as panels for this table's panel_columns (or
  // nullptr): calls with few rows of a read b, the others read the panels in place.
  void (*gemm_f32_nt_panels)(const float* a, int lda, const float* b, int ldb, const float* panels,
                             const float* bias, float* c, int ldc, int m, int n, int k,
                             bool accumulate);
  void (*gemm_i8w_nt_panels)(const float* a, int lda, const int8_t* b, int ldb,
                             const int8_t* panels, const float* b_scale, const float* bias,
                             float* c, int ldc, int m, int n, int k);

  // Weights int8 as for gemm_i8w_nt but in [-127, 127] (symmetric, as the activations; AVX2's
  // sign trick cannot negate -128), and the activations quantized too, row by row:
  // a_scale[i] = max_p |a[i, p]| / 127, qa[i, p] = a[i, p]·(127 / max_p |a[i, p]|) rounded to
  // the nearest integer (ties to even), qa = 0 for a row of zeros. The integer sums are exact:
  // c[i, j] = (Σ_p qa[i, p]·b[j, p])·a_scale[i]·b_scale[j] (+ bias[j]). b is given also as quad
  // panels (pack_quad_panels) with its column sums. Every table has it: AVX-512 with VNNI's
  // vpdpbusd, AVX2's sign trick (also the AVX-512 table's without VNNI), WebAssembly's
  // i32x4.dot_i16x8; the scalar table reads b alone, as the oracle.
  void (*gemm_i8i8_nt)(const float* a, int lda, const int8_t* b, int ldb, const int8_t* quads,
                       const int32_t* column_sums, const float* b_scale, const float* bias,
                       float* c, int ldc, int m, int n, int k);

  // Marian/Bergamot's int8 GEMM (intgemm's Int8Shift, the path of Firefox Translations' int8
  // models; docs/marian.md §8.2), bit for bit as intgemm computes it with pmaddubsw (SSSE3, AVX2,
  // AVX512BW alike), on every table:
  //   ua[i, p] = clamp(cvtps_epi32(fl(a[i, p]·qa)), -127, 127) + 127, a byte in [0, 254]: ties
  //              to even; NaN and values outside int32 (huge or ±inf) convert to INT32_MIN, so 0;
  //   C[i, j]  = Σ_q sat16(ua[i, 2q]·b[j, 2q] + ua[i, 2q+1]·b[j, 2q+1]) in int32, sat16 clamping
  //              each pair's sum to [-32768, 32767] as pmaddubsw does (254·127·2 > 32767);
  //   c[i, j]  = fl(fl((float)C[i, j]·unquant) + bias[j]): two roundings, never fused.
  // b is int8 (intgemm's are in [-127, 127]; -128 works too), read in place: no packed layout.
  // unquant and bias are the caller's (intgemm's unquant multiplier and the shift-corrected
  // prepared bias); bias is never nullptr. Any k ≥ 0 (intgemm needs a multiple of its register
  // width): an odd k's last product makes a pair alone, as if b had one more column of zeros
  // (a lone product, at most 254·128 in magnitude, never saturates). k ≤ 131072: no C overflows.
  // Every row's bits are its own: they depend neither on m nor on its place in the call.
  void (*gemm_u8s8_shifted_nt)(const float* a, int lda, float qa, const int8_t* b, int ldb, float unquant,
                               const float* bias, float* c, int ldc, int m, int n, int k);

  // x[i] = exp(x[i] - max) / Σ exp(x[j] - max), in place, over n values.
  void (*softmax_f32)(float* x, int n);

  // Σ exp(x[i] - shift) over n values; shift ≥ every x[i] (their max) keeps each term ≤ 1.
  // The log-sum-exp of a row of logits without writing its softmax.
  float (*sum_exp_f32)(const float* x, int n, float shift);

  // y = (x - mean) / sqrt(var + eps) · gamma + beta over n values (biased variance).
  void (*layernorm_f32)(const float* x, const float* gamma, const float* beta, float* y, int n,
                        float eps);

  // In place activations over n values.
  void (*relu_f32)(float* x, int n);
  void (*gelu_f32)(float* x, int n);   // exact: 0.5·x·(1 + erf(x/√2)), as torch's default
  void (*swish_f32)(float* x, int n);  // x·sigmoid(x)

  // y[i] += x[i]
  void (*add_f32)(float* y, const float* x, int n);
  // y[i] = y[i]·alpha + x[i]·beta  (embedding scale + positions, residual scaling)
  void (*scale_add_f32)(float* y, float alpha, const float* x, float beta, int n);

  // The first i with x[i] > t, or n if there is none (NaN is never above): the scan for the k
  // best logits skips the values that cannot enter its window.
  int (*first_above_f32)(const float* x, int n, float t);
};

// gemm_f32_nt and gemm_f32_nn give each of up to this many rows of a the bits it gets alone
// (m = 1) on every table: the hypotheses of one sentence share a call (the decoder's
// cross-attention) and decode exactly as one by one.
constexpr int kRowsAsAlone = 4;

// With more rows, the weight GEMMs (gemm_*_nt_panels, gemm_i8i8_nt) compute rows in register tiles
// from a call's first row, every table's tile height dividing kRowTile, and a row's bits may depend
// on its place in its tile (a kernel may finish tiles of different heights differently). Rows split into
// calls by next_row_block, from a multiple of kRowTile, get the bits of one call over all of them.
constexpr int kRowTile = 12;
// The rows the next call takes when `left` remain and calls of `block` rows (a multiple of
// kRowTile) are wanted: `block`, or all of them when kRowsAsAlone or fewer would be left over.
constexpr int next_row_block(int left, int block) { return left - block > kRowsAsAlone ? block : left; }

// Elements of b[n, k] as panels of `columns` rows: n rounded up to a multiple of `columns`, × k.
std::size_t panels_size(int n, int k, int columns);
// panels[(j / columns)·k·columns + p·columns + j % columns] = b[j, p], 0 for the padding rows
// j ≥ n: each panel holds `columns` rows of b transposed, k-major.
void pack_panels(const float* b, int ldb, int n, int k, int columns, float* panels);
void pack_panels(const int8_t* b, int ldb, int n, int k, int columns, int8_t* panels);

// The layout gemm_i8i8_nt reads, for every ISA: b[n, k] as panels of kQuadColumns rows, each
// k-step of 4 holding the rows' 4 consecutive bytes side by side (what one VNNI instruction
// multiplies):
// quads[(j / kQuadColumns)·kq·kQuadColumns + (p / 4)·4·kQuadColumns + (j % kQuadColumns)·4 + p % 4]
// = b[j, p], with kq = quad_depth(k) and zeros past n and k.
constexpr int kQuadColumns = 32;
constexpr int quad_depth(int k) { return (k > 0 ? k + 3 : 0) / 4 * 4; }  // k rounded up to a multiple of 4
std::size_t quad_panels_size(int n, int k);
void pack_quad_panels(const int8_t* b, int ldb, int n, int k, int8_t* quads);
// column_sums[j] = Σ_p b[j, p] for j < n, 0 up to n rounded up to kQuadColumns.
std::size_t column_sums_size(int n);
void sum_columns(const int8_t* b, int ldb, int n, int k, int32_t* column_sums);

// The table for the best ISA this process can run (computed once, thread-safe). The
// environment variable ATTEND_ISA=scalar|avx2|avx512 forces a lower ISA for the whole process
// (benches, reproducing an ISA-specific result); a name not runnable here is ignored.
const KernelTable& best_kernels();
// The table for one ISA, or nullptr if it was not compiled in or this CPU lacks it.
const KernelTable* kernels_for(Isa isa);
// Every ISA compiled in and runnable here, scalar first.
std::vector<Isa> available_isas();

}  // namespace attend::kernels
