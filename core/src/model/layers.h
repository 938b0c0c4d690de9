// Weight views of the model's building blocks and how each one is applied with the kernels.
// Row-major; `m` rows of activations; weights as PyTorch's nn.Linear: W[out, in].
#pragma once

#include <cstdint>

#include "kernels/kernels.h"
#include "model/marian_float.h"

namespace attend {

using kernels::KernelTable;

// y = x·Wᵀ + b, W stored either f32 or int8 with one scale per output row.
struct Linear {
  int out = 0, in = 0;
  const float* weight = nullptr;        // [out, in] f32, or
  const int8_t* weight_i8 = nullptr;    // [out, in] int8 ...
  const float* scale = nullptr;         // [out]     ... w ≈ scale[row] · q[row]
  const float* bias = nullptr;          // [out] or null
  // The weight again as panels of `panel_columns` rows (kernels::pack_panels), in its dtype,
  // for the batched GEMMs of tables with that panel width; null when not packed.
  const float* panels = nullptr;
  const int8_t* panels_i8 = nullptr;
  int panel_columns = 0;
  // int8 weights as quad panels with their column sums (kernels::pack_quad_panels), when the
  // model multiplies int8 activations by them (ModelOptions::int8_activations); else null.
  const int8_t* quads = nullptr;
  const int32_t* column_sums = nullptr;
  // Marian's int8 arithmetic (an imported Firefox int8 model, model/marian_int8.h): the rows in
  // parts (a fused Q, K, V has three), each quantizing the input with its own activation scale,
  // through kernels' gemm_u8s8_shifted_nt with the shift-corrected bias marian_bias [out].
  struct MarianPart {
    int first_row = 0, rows = 0;
    float input_quant = 0.f, unquant = 0.f;
  };
  static constexpr int kMaxMarianParts = 3;
  MarianPart marian[kMaxMarianParts];
  int marian_parts = 0;
  const float* marian_bias = nullptr;

  // x [m, in] (row stride ldx) -> y [m, out] (row stride ldy)
  void apply(const KernelTable& k, const float* x, int ldx, float* y, int ldy, int m) const {
    const bool packed_for_k = k.panel_columns == panel_columns;
    if (marian_parts) {
      for (int p = 0; p < marian_parts; ++p) {
        const MarianPart& part = marian[p];
        k.gemm_u8s8_shifted_nt(x, ldx, part.input_quant, weight_i8 + static_cast<size_t>(part.first_row) * in, in,
                               part.unquant, marian_bias + part.first_row, y + part.first_row, ldy, m, part.rows, in);
      }
    } else if (quads) {
      k.gemm_i8i8_nt(x, ldx, weight_i8, in, quads, column_sums, scale, bias, y, ldy, m, out, in);
    } else if (weight_i8) {
      k.gemm_i8w_nt_panels(x, ldx, weight_i8, in, packed_for_k ? panels_i8 : nullptr, scale, bias, y, ldy, m,
                           out, in);
    } else {
      k.gemm_f32_nt_panels(x, ldx, weight, in, packed_for_k ? panels : nullptr, bias, y, ldy, m, out, in, false);
    }
  }
};

// y = (x - mean) / sqrt(var + eps) · gamma + beta, per row of width d.
struct LayerNorm {
  const float* gamma = nullptr;
  const float* beta = nullptr;
  bool marian = false;  // computed as Marian's LayerNormalizationImpl (model/marian_float.h)

  void apply(const KernelTable& k, const float* x, float* y, int rows, int d, float eps) const {
    if (marian) {
      for (int r = 0; r < rows; ++r)
        marian::layernorm(x + static_cast<size_t>(r) * d, gamma, beta, y + static_cast<size_t>(r) * d, d, eps);
      return;
    }
    for (int r = 0; r < rows; ++r) k.layernorm_f32(x + static_cast<size_t>(r) * d, gamma, beta,
                                                   y + static_cast<size_t>(r) * d, d, eps);
  }
};

// Token embedding rows, f32 or int8 with one scale per row (per token).
struct Embedding {
  int rows = 0, dim = 0;
  const float* weight = nullptr;
  const int8_t* weight_i8 = nullptr;
  const float* scale = nullptr;

  // out[dim] = E[id] · factor
  void lookup(int id, float factor, float* out) const {
    if (weight_i8) {
      const int8_t* q = weight_i8 + static_cast<size_t>(id) * dim;
      const float s = scale[id] * factor;
      for (int i = 0; i < dim; ++i) out[i] = static_cast<float>(q[i]) * s;
    } else {
      const float* e = weight + static_cast<size_t>(id) * dim;
      for (int i = 0; i < dim; ++i) out[i] = e[i] * factor;
    }
  }

  // The same matrix used as an output projection (tied weights): logits = x·Eᵀ + bias.
  Linear as_linear(const float* bias) const {
    Linear l;
    l.out = rows;
    l.in = dim;
    l.weight = weight;
    l.weight_i8 = weight_i8;
    l.scale = scale;
    l.bias = bias;
    return l;
  }
};

}  // namespace attend
