// Comparisons of one kernel table against the scalar reference, shared by the GoogleTest
// suite (native ISAs) and the standalone WebAssembly check (run under Node), so both test
// exactly the same cases. Each check returns "" on success, else a description of the first
// mismatch with the sizes involved.
#pragma once

#include <string>
#include <vector>

#include "kernels/kernels.h"

namespace attend::kernels::testing {

// One GEMM call: sizes, extra leading-dimension padding, and the variants around it.
struct GemmCase {
  int m = 0;
  int n = 0;
  int k = 0;
  int pad = 0;              // added to every leading dimension
  bool misaligned = false;  // every pointer starts one float (or byte) past an aligned one
  bool accumulate = false;  // gemm_f32_*: c += …
  bool bias = false;        // _nt: bias != nullptr
};

std::string describe(const GemmCase& g);

std::string check_gemm_f32_nt(const KernelTable& ref, const KernelTable& t, const GemmCase& g);
std::string check_gemm_f32_nn(const KernelTable& ref, const KernelTable& t, const GemmCase& g);
std::string check_gemm_i8w_nt(const KernelTable& ref, const KernelTable& t, const GemmCase& g);
// Bit for bit; "" for a table without gemm_i8i8_nt. accumulate is ignored (it has no such mode).
std::string check_gemm_i8i8_nt(const KernelTable& ref, const KernelTable& t, const GemmCase& g);
// Bit for bit, over inputs that saturate pairs, tie, and cannot be converted (NaN, ±inf, beyond
// int32), each with a power-of-two qa and another; "" for a table without the kernel.
// accumulate and bias are ignored (the kernel has no such modes: bias is always given).
std::string check_gemm_u8s8_shifted_nt(const KernelTable& ref, const KernelTable& t, const GemmCase& g);

// Row kernels over n values, random inputs scaled by `spread`; masked softmax sets every
// third value to −∞ (as attention masks do).
std::string check_softmax(const KernelTable& ref, const KernelTable& t, int n, bool misaligned,
                          float spread, bool masked);
std::string check_layernorm(const KernelTable& ref, const KernelTable& t, int n, bool misaligned);
// Σ exp(x − max) of the same rows as check_softmax, relative to the sum.
std::string check_sum_exp(const KernelTable& ref, const KernelTable& t, int n, bool misaligned, float spread,
                          bool masked);

enum class Activation { relu, gelu, swish };
const char* activation_name(Activation a);
// Random inputs in [−8, 8] for n values, or, with n < 0, a dense sweep of [−20, 20].
std::string check_activation(const KernelTable& ref, const KernelTable& t, Activation a, int n,
                             bool misaligned);
std::string check_add(const KernelTable& ref, const KernelTable& t, int n, bool misaligned);
std::string check_scale_add(const KernelTable& ref, const KernelTable& t, int n, bool misaligned);

// Every GEMM size from 0 to 2·lanes + 3 in each dimension (with the others held at sizes that
// reach both the small-m and the blocked paths), a grid of edge sizes, variants rotated.
std::vector<GemmCase> gemm_sweep(int lanes);
// The model's shapes (decode m = 1, batch m = 32, encoder m up to 448) with the real n, k.
std::vector<GemmCase> gemm_model_shapes_nt();
std::vector<GemmCase> gemm_model_shapes_nn();
// gemm_u8s8_shifted_nt's: m = 1..17, n on both sides of the tiles, every k to 70 and every
// even k to 512, the model's shapes.
std::vector<GemmCase> gemm_shifted_sweep();  // attention P·V (n = head_dim 32) and friends
// Row lengths 0..2·lanes + 3 and the model's (128, 200, 256, 512, 8000).
std::vector<int> length_sweep(int lanes);

// One kernel over all its cases (sweeps, misaligned or not, every variant): the first
// failure, or "". `lanes` is the ISA's vector width in floats, which sets the sweep sizes.
using Sweep = std::string (*)(const KernelTable& ref, const KernelTable& t, int lanes);
std::string sweep_gemm_f32_nt(const KernelTable& ref, const KernelTable& t, int lanes);
std::string sweep_gemm_f32_nn(const KernelTable& ref, const KernelTable& t, int lanes);
std::string sweep_gemm_i8w_nt(const KernelTable& ref, const KernelTable& t, int lanes);
std::string sweep_gemm_i8i8_nt(const KernelTable& ref, const KernelTable& t, int lanes);
// gemm_shifted_sweep, then gemm_sweep(lanes) (sizes from 0).
std::string sweep_gemm_u8s8_shifted_nt(const KernelTable& ref, const KernelTable& t, int lanes);
std::string sweep_gemm_model_shapes(const KernelTable& ref, const KernelTable& t, int lanes);
// With enough rows of a (m = 16, 32), the _panels GEMMs compute from the panels alone: b is
// zero there. "" for a table that reads no panels.
std::string sweep_gemm_reads_panels(const KernelTable& ref, const KernelTable& t, int lanes);
// Up to kRowsAsAlone rows of a: gemm_f32_nt and gemm_f32_nn give each row the bits it gets
// alone (m = 1), on attention's shapes. Checks the table alone (ref is not used).
std::string sweep_gemm_rows_as_alone(const KernelTable& ref, const KernelTable& t, int lanes);
// Rows of a split into calls by next_row_block: the weight GEMMs (f32 and int8 panels, int8
// activations) give each row the bits it gets in one call over all rows.
std::string sweep_gemm_row_blocks(const KernelTable& ref, const KernelTable& t, int lanes);
// Some columns of c computed alone (b's rows from another place, fewer of them): the f32, int8-weight
// and Marian int8 GEMMs give each the bits of one call over all columns (a shortlist's output layer).
std::string sweep_gemm_columns_alone(const KernelTable& ref, const KernelTable& t, int lanes);
// Rows of a mostly 0 (an FFN's hidden units after a ReLU): gemm_f32_nt_panels and gemm_i8w_nt_panels,
// which skip the p where a block's rows are all 0, give the bits of gemm_f32_nt and gemm_i8w_nt,
// which step through every p.
std::string sweep_gemm_skips_zeros(const KernelTable& ref, const KernelTable& t, int lanes);
std::string sweep_softmax(const KernelTable& ref, const KernelTable& t, int lanes);
std::string sweep_sum_exp(const KernelTable& ref, const KernelTable& t, int lanes);
std::string sweep_layernorm(const KernelTable& ref, const KernelTable& t, int lanes);
std::string sweep_activations(const KernelTable& ref, const KernelTable& t, int lanes);
std::string sweep_arithmetic(const KernelTable& ref, const KernelTable& t, int lanes);
// first_above_f32 gives the reference's index over every row length, thresholds below, among,
// equal to and above the values, NaNs among them (never above).
std::string sweep_first_above(const KernelTable& ref, const KernelTable& t, int lanes);

struct NamedSweep {
  const char* name;
  Sweep run;
};
// Every sweep above, for runners that take them all (the WebAssembly check).
const std::vector<NamedSweep>& all_sweeps();

}  // namespace attend::kernels::testing
