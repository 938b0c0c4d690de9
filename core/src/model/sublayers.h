// The pieces every Transformer layer shares: the residual connection with its LayerNorm
// (post-norm: x = LN(x + f(x)); pre-norm: x = x + f(LN(x))) and the position-wise FFN.
#pragma once

#include <cstring>

#include "attend/model.h"
#include "model/layers.h"

namespace attend {

// Buffers a layer needs besides the residual stream x [rows, D].
struct LayerScratch {
  float* normed;  // [rows, D]
  float* out;     // [rows, D]
  float* hidden;  // [rows, F]
};

// fn(input [rows, D], output [rows, D]) computes the sublayer.
template <typename Sublayer>
void residual(const KernelTable& k, const ModelConfig& c, const LayerNorm& norm, float* x, int rows,
              const LayerScratch& s, Sublayer&& fn) {
  const int d = c.d_model;
  const size_t n = static_cast<size_t>(rows) * d;
  if (c.norm == NormPlacement::pre) {
    norm.apply(k, x, s.normed, rows, d, c.layer_norm_eps);
    fn(s.normed, s.out);
    k.add_f32(x, s.out, static_cast<int>(n));
  } else {
    fn(x, s.out);
    k.add_f32(s.out, x, static_cast<int>(n));
    norm.apply(k, s.out, x, rows, d, c.layer_norm_eps);
  }
}

// FFN(x) = act(x·W1ᵀ + b1)·W2ᵀ + b2;  in, out [rows, D]; hidden [rows, F]
inline void feed_forward(const KernelTable& k, const ModelConfig& c, const Linear& fc1, const Linear& fc2,
                         const float* in, float* hidden, float* out, int rows) {
  fc1.apply(k, in, c.d_model, hidden, c.d_ff, rows);
  const int n = rows * c.d_ff;
  switch (c.activation) {
    case Activation::relu: k.relu_f32(hidden, n); break;
    case Activation::gelu: k.gelu_f32(hidden, n); break;
    case Activation::swish: k.swish_f32(hidden, n); break;
  }
  fc2.apply(k, hidden, c.d_ff, out, c.d_model, rows);
}

// x[rows, D] = E[ids]·scale + positions[start + row·position_step]
// (encoder: consecutive positions, position_step 1; decoder step: every row at one position, 0)
inline void embed(const Embedding& e, const float* positions, float scale, const int* ids, int rows, int start,
                  int position_step, int d, float* x) {
  for (int r = 0; r < rows; ++r) {
    float* row = x + static_cast<size_t>(r) * d;
    e.lookup(ids[r], scale, row);
    const float* pe = positions + static_cast<size_t>(start + r * position_step) * d;
    for (int i = 0; i < d; ++i) row[i] += pe[i];
  }
}

}  // namespace attend
