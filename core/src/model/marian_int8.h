// Marian's int8 arithmetic for the weights of an imported Firefox int8 model (docs/marian.md §8.2):
// what the engine prepares at load so that kernels' gemm_u8s8_shifted_nt computes each Linear as
// intgemm's shifted kernel does in Bergamot, from the file's own scales.
#pragma once

#include <cstddef>
#include <cstdint>

namespace attend {

// For weight rows w[rows, in] (int8, quantized with qb) and an input quantized with qa:
// prepared[j] = fl(fl(S_j · u) + bias[j]) (bias null: fl(S_j · u)), S_j = Σ_k w[j, k],
// u = fl(fl(-fl(fl(127/qa) · fl(127/qb))) / 127): what removes the +127 shift of the input
// (intgemm's PrepareBias, Int8Shift). Returns the unquant multiplier fl(1 / fl(qa · qb)).
float prepare_marian_rows(const int8_t* w, int rows, int in, const float* bias, float qa, float qb, float* prepared);

// Quantizes f32 weights as Marian does a float B at run time (the tied output layer's
// dequantized embedding): qb = fl(127 / max |w|), q = clamp(round half to even(fl(w · qb)), ±127).
// Returns qb.
float quantize_like_marian(const float* w, size_t count, int8_t* q);

}  // namespace attend
