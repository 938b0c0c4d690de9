// Scaled dot-product attention over all heads of one block of queries:
//   head_h = softmax(Q_h · K_hᵀ) · V_h, with Q already scaled by 1/sqrt(head_dim),
// written into out[:, h·K : (h+1)·K]. Heads are column slices of the [rows, D] projections,
// so no transposes are needed: leading dimensions do the slicing.
#pragma once

#include <cstddef>
#include <cstdint>

#include "kernels/kernels.h"

namespace attend {

struct AttentionInput {
  const float* q = nullptr;  // [rows, D], row stride ldq
  int ldq = 0;
  const float* k = nullptr;  // [keys, D], row stride ldkv
  const float* v = nullptr;  // [keys, D], row stride ldkv
  int ldkv = 0;
  int rows = 0;
  int keys = 0;
};

// Where to copy the probabilities (opt-in): probs[h·head_stride + row·row_stride + key].
struct AttentionCapture {
  float* probs = nullptr;
  size_t head_stride = 0;
  size_t row_stride = 0;
};

// masked_heads: [heads] flags (1 = output zeroed) or null. scores: scratch of rows·keys floats.
// out: [rows, D] with row stride ldo.
void multi_head_attention(const kernels::KernelTable& k, const AttentionInput& in, int heads, int head_dim,
                          const uint8_t* masked_heads, float* scores, float* out, int ldo,
                          const AttentionCapture* capture);

// x[rows, width] (row stride ld) *= factor; used to scale the queries by 1/sqrt(head_dim).
void scale_rows(float* x, int ld, int rows, int width, float factor);

}  // namespace attend
