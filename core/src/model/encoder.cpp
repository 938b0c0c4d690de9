#include "model/encoder.h"

#include <algorithm>
#include <cmath>

#include "model/attention.h"
#include "model/marian_float.h"
#include "model/sublayers.h"

namespace attend {

void EncoderWorkspace::reserve(const ModelConfig& c, int total_tokens, int max_len) {
  const size_t n = static_cast<size_t>(total_tokens), d = c.d_model;
  x.resize(n * d);
  normed.resize(n * d);
  qkv.resize(n * 3 * d);
  attn.resize(n * d);
  out.resize(n * d);
  hidden.resize(n * c.d_ff);
  scores.resize(static_cast<size_t>(max_len) * max_len);
}

void encode(const Model::Impl& model, const KernelTable& k, const std::vector<int>& ids,
            const std::vector<int>& offsets, const HeadMask& mask, EncoderWorkspace& ws, float* capture,
            int capture_sentence) {
  const ModelConfig& c = model.config;
  const Weights& w = model.weights;
  const int n = static_cast<int>(ids.size()), d = c.d_model, hd = c.head_dim();
  const int sentences = static_cast<int>(offsets.size()) - 1;
  int max_len = 0;
  for (int s = 0; s < sentences; ++s) max_len = std::max(max_len, offsets[s + 1] - offsets[s]);
  ws.reserve(c, n, max_len);
  const float embed_scale = c.embedding_scale ? std::sqrt(static_cast<float>(d)) : 1.f;
  for (int s = 0; s < sentences; ++s) {
    embed(w.src_embed, w.src_positions, embed_scale, ids.data() + offsets[s], offsets[s + 1] - offsets[s], 0, 1, d,
          ws.x.data() + static_cast<size_t>(offsets[s]) * d);
  }
  const LayerScratch scratch{ws.normed.data(), ws.out.data(), ws.hidden.data()};
  const float query_scale = 1.f / std::sqrt(static_cast<float>(hd));

  for (int l = 0; l < c.encoder_layers; ++l) {
    const EncoderLayerWeights& lw = w.encoder[l];
    residual(k, c, lw.attn_norm, ws.x.data(), n, scratch, [&](const float* in, float* out) {
      lw.qkv.apply(k, in, d, ws.qkv.data(), 3 * d, n);  // [N, 3D]
      if (!w.marian_float) scale_rows(ws.qkv.data(), 3 * d, n, d, query_scale);
      for (int s = 0; s < sentences; ++s) {
        const int len = offsets[s + 1] - offsets[s];
        const float* qkv = ws.qkv.data() + static_cast<size_t>(offsets[s]) * 3 * d;
        const AttentionInput input{qkv, 3 * d, qkv + d, qkv + 2 * d, 3 * d, len, len};
        AttentionCapture cap;
        if (capture && s == capture_sentence) {
          cap = {capture + static_cast<size_t>(l) * c.num_heads * len * len, static_cast<size_t>(len) * len,
                 static_cast<size_t>(len)};
        }
        const uint8_t* masked = mask.layer(AttentionKind::encoder, l, c.num_heads);
        float* attn = ws.attn.data() + static_cast<size_t>(offsets[s]) * d;
        if (w.marian_float) {
          marian::multi_head_attention(input, c.num_heads, hd, query_scale, /*queries_as_batch=*/true, masked,
                                       ws.scores.data(), attn, d, cap.probs ? &cap : nullptr);
        } else {
          multi_head_attention(k, input, c.num_heads, hd, masked, ws.scores.data(), attn, d, cap.probs ? &cap : nullptr);
        }
      }
      lw.out.apply(k, ws.attn.data(), d, out, d, n);
    });
    residual(k, c, lw.ffn_norm, ws.x.data(), n, scratch, [&](const float* in, float* out) {
      feed_forward(k, c, lw.fc1, lw.fc2, in, ws.hidden.data(), out, n);
    });
  }
  if (c.norm == NormPlacement::pre) {
    w.encoder_final_norm.apply(k, ws.x.data(), ws.normed.data(), n, d, c.layer_norm_eps);
    std::swap(ws.x, ws.normed);
  }
}

}  // namespace attend
