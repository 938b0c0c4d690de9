// The backend's own kernels (device_kernels.cu), called from host C++ with the compute type as
// a value: activations and weights are `void*` in ComputeType, everything else f32 or int.
// Each computes in f32 whatever it stores, as the CPU kernels do. The compute type is what the
// GEMMs read (weights and their inputs); the residual stream, Q, K, V, the caches, every GEMM's
// sums and the logits are f32, since softmax turns a small error of a large score into a large
// error of a probability.
//
// bf16 keeps 8 bits of a number: rounding the GEMMs' inputs to it alone moves this model's logits
// by up to 3 % (docs/cuda.md). So a bf16 GEMM input has a second plane holding what rounding cut
// off, x − bf16(x), itself in bf16, and the GEMM runs over both (hi·Wᵀ + lo·Wᵀ, two tensor-core
// GEMMs summing in f32): x to about 16 bits. The weights need no second plane when they are an
// int8 file's values (exact in bf16; device_weights.h).
// Legend: Q query rows, D d_model, K head_dim, H heads, V vocabulary, B banned ids per row.
#pragma once

#include <cuda_runtime_api.h>

#include <cstddef>
#include <cstdint>

#include "attend/model.h"

namespace attend::cuda {

// A GEMM input [rows, width] in the compute type at `data`; lo > 0: its low plane starts lo
// elements on (bf16 only).
struct Operand {
  void* data = nullptr;
  size_t lo = 0;
};

// out[n] (compute type) = in[n] (f32)
void convert_from_f32(ComputeType t, void* out, const float* in, size_t n, cudaStream_t stream);

// x[r] = table[ids[r]]·row_scale[ids[r]]·scale + positions[position[r]], and x_t = x in the
// compute type. x [rows, D] f32; x_t [rows, D]; table [vocab, D]; row_scale [vocab] or null (1);
// positions f32
void embed(ComputeType t, float* x, Operand x_t, const void* table, const float* row_scale, const float* positions,
           const int* ids, const int* position, int rows, int d, float scale, cudaStream_t stream);

// y[r, i] = act(sums[r, i]·scale[i] + bias[i]) over [rows, n]: a GEMM's f32 sums into y in the
// compute type (y may be sums when t is f32); scale, bias may be null (1, 0); act null: identity
void bias_activation(ComputeType t, const float* sums, Operand y, const float* scale, const float* bias, int rows,
                     int n, const Activation* act, cudaStream_t stream);

// x[i] += y[i]
void add(ComputeType t, void* x, const void* y, size_t n, cudaStream_t stream);

// y[r] = (v - mean) / sqrt(var + eps) · gamma + beta, v = x[r] (+ add[r] when add is not null),
// into y (f32, or null) and y_t (the compute type); y may be x (in place). x, add f32 [rows, D].
void layernorm(ComputeType t, const float* x, const float* add, float* y, Operand y_t, const float* gamma,
               const float* beta, int rows, int d, float eps, cudaStream_t stream);

// cache row slot_start[r] + position[r] ([2D]) = qkv[r][D : 3D]: the step's K and V into each
// row's slot; qkv [rows, 3D]
void write_cache(float* cache, const float* qkv, const int* slot_start, const int* position, int rows, int d,
                 cudaStream_t stream);

// For each fork f ([count][2] = from, to slots) and layer l, copies `elements` of the cache from
// slot `from` to slot `to`: cache [L][P][slot_elements], layer_elements = P · slot_elements.
void copy_cache_slots(float* cache, const int* forks, int count, int layers, size_t layer_elements,
                      size_t slot_elements, size_t elements, cudaStream_t stream);

// Scaled dot-product attention, one query row per block column, one head per block row:
//   out[q, h] = softmax(scale · Q[q, h] · K[j, h]ᵀ over j in its keys) · V[j, h]
// Query q's keys are rows key_start[q] .. key_start[q] + key_count[q] of k / v (row stride ldkv).
struct AttentionArgs {
  const float* q = nullptr;  // [Q, D], row stride ldq
  int ldq = 0;
  const float* k = nullptr;  // key rows, [D] each
  const float* v = nullptr;  // value rows
  int ldkv = 0;
  const int* key_start = nullptr;  // [Q] (device)
  const int* key_count = nullptr;  // [Q] (device), at most max_keys
  int queries = 0, heads = 0, head_dim = 0, max_keys = 0;
  float scale = 1.f;                      // 1/sqrt(K), applied to the query as the CPU does
  const uint8_t* masked_heads = nullptr;  // [H] (device), 1 = output zeroed; or null
  Operand out;                            // [Q, D] in the compute type, row stride ldo
  int ldo = 0;
  // Opt-in: probabilities of queries capture_first .. capture_first + capture_rows - 1 to
  // capture[(q - capture_first)·row_stride + h·head_stride + j].
  float* capture = nullptr;
  int capture_first = 0, capture_rows = 0;
  size_t capture_row_stride = 0, capture_head_stride = 0;
};
void attention(ComputeType t, const AttentionArgs& args, cudaStream_t stream);

// Per row of logits [rows, V]: lse = log Σ exp over the whole row, then the k best tokens (k ≤ V)
// once the row's banned ids ([rows, B], -1 = none) count as -inf, best first, ties to the lower id:
// tokens [rows, k] and log_probs [rows, k] = logit − lse (-inf for a banned token, which comes only
// when fewer than k others exist). The CPU search's order (decode/step_scorer.h).
void top_k(const float* logits, int rows, int vocab, const int* banned, int banned_per_row, int k, int* tokens,
           float* log_probs, cudaStream_t stream);

// log_probs[r] = logits[r, tokens[r]] − lse of row r, over logits [rows, V] (teacher forcing).
void token_log_probs(const float* logits, int rows, int vocab, const int* tokens, float* log_probs,
                     cudaStream_t stream);

}  // namespace attend::cuda
