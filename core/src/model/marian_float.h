// The float arithmetic around the int8 GEMMs of an imported Marian int8 model, as Bergamot's
// WebAssembly build of Marian computes it (docs/marian.md §3.2, §3.6, §4 and §8.3): a last-bit
// difference here can quantize the next GEMM's input to another byte, so these follow Marian's
// order of operations and its functions (sse_mathfun's exp_ps, Eigen 3.3's sgemm order) rather
// than Attend's own kernels, which keep more precision. Scalar arithmetic, the same natively and in
// WebAssembly, compiled without contraction into fused multiply-adds (WebAssembly has none); where
// outputs are independent (keys' scores, output columns, elementwise passes, exp_ps's lanes), four
// are computed at once in SIMD lanes, each lane in exactly the scalar order (the same bits:
// tests/model/marian_float_test.cpp holds the scalar rule and compares).
#pragma once

#include <vector>

#include "model/attention.h"

namespace attend::marian {

// Marian's sinusoidalPositionEmbeddings (node_initializers.cpp), computed in float as it computes
// them: inc = logf(10000) / (d/2 − 1), v = p · expf(i · −inc), sinf(v) in column i, cosf(v) in
// column d/2 + i, with musl's sinf and cosf (Bergamot's libc). [max_positions, d] row-major.
std::vector<float> sinusoid_table(int max_positions, int d);

// sse_mathfun's exp_ps (Cephes' polynomial; its argument clamped to ±88.3762626647949), one lane.
float exp_ps(float x);

// Marian's CPU Softmax over one row: with n a multiple of 4, Softmax<float32x4> (four lanes of
// exp_ps(x − max) summed lane by lane, the lanes then in order); otherwise Softmax<float>
// (expf, summed in order). Each value is then divided by the sum.
void softmax(float* x, int n);

// Marian's LayerNormalizationImpl as Bergamot's WebAssembly build computes it: sums in order,
// mean = Σx / n, var = Σ(x − mean)² / n (two passes), σ = sqrt(var + eps),
// y = gamma·((x − mean) / σ) + beta. (Its fast-math pragma did not make the wasm build sum in
// vector lanes or multiply by 1/σ: both agree with Bergamot on fewer lines, docs/marian-models.md.)
void layernorm(const float* x, const float* gamma, const float* beta, float* y, int n, float eps);

// One SSRU step (docs/marian.md §4) as HighwayForward computes it: g = sigmoid(f) (e/(1+e) with
// e = exp_ps(f) when d is a multiple of 4, Ops<float>::sigmoid otherwise), c = g·c₋₁ + (1 − g)·x̃,
// out = relu(c). previous null: c₋₁ = 0.
void ssru_cell(const float* gates, const float* previous, int d, float* cell, float* out);

// Multi-head attention as Marian's bdot (Eigen 3.3's gemm, ProdBatched) computes it, the scores
// scaled after the dot products: Q unscaled, scale = 1/sqrt(head_dim). queries_as_batch: the rows
// are one sentence's positions multiplied together (the encoder); otherwise each row alone
// (a decoder step: one query per hypothesis). Arguments as multi_head_attention's.
void multi_head_attention(const AttentionInput& in, int heads, int head_dim, float scale, bool queries_as_batch,
                          const uint8_t* masked_heads, float* scores, float* out, int ldo,
                          const AttentionCapture* capture);

}  // namespace attend::marian
