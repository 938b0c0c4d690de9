#include "model/attention.h"

#include <cstring>

namespace attend {

void multi_head_attention(const kernels::KernelTable& k, const AttentionInput& in, int heads, int head_dim,
                          const uint8_t* masked_heads, float* scores, float* out, int ldo,
                          const AttentionCapture* capture) {
  for (int h = 0; h < heads; ++h) {
    float* out_h = out + h * head_dim;  // [rows, K], row stride ldo
    const bool masked = masked_heads && masked_heads[h];
    if (masked && !capture) {
      for (int r = 0; r < in.rows; ++r) std::memset(out_h + static_cast<size_t>(r) * ldo, 0, head_dim * sizeof(float));
      continue;
    }
    // scores [rows, keys] = Q_h · K_hᵀ
    k.gemm_f32_nt(in.q + h * head_dim, in.ldq, in.k + h * head_dim, in.ldkv, nullptr, scores, in.keys, in.rows,
                  in.keys, head_dim, false);
    for (int r = 0; r < in.rows; ++r) k.softmax_f32(scores + static_cast<size_t>(r) * in.keys, in.keys);
    if (capture) {
      for (int r = 0; r < in.rows; ++r) {
        std::memcpy(capture->probs + h * capture->head_stride + r * capture->row_stride,
                    scores + static_cast<size_t>(r) * in.keys, in.keys * sizeof(float));
      }
    }
    if (masked) {
      for (int r = 0; r < in.rows; ++r) std::memset(out_h + static_cast<size_t>(r) * ldo, 0, head_dim * sizeof(float));
      continue;
    }
    // out_h [rows, K] = P · V_h
    k.gemm_f32_nn(scores, in.keys, in.v + h * head_dim, in.ldkv, out_h, ldo, in.rows, head_dim, in.keys, false);
  }
}

void scale_rows(float* x, int ld, int rows, int width, float factor) {
  for (int r = 0; r < rows; ++r) {
    float* row = x + static_cast<size_t>(r) * ld;
    for (int i = 0; i < width; ++i) row[i] *= factor;
  }
}

}  // namespace attend
