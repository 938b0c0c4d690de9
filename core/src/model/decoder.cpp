#include "model/decoder.h"

#include <algorithm>
#include <cmath>
#include <cstring>

#include "model/attention.h"
#include "model/marian_float.h"
#include "model/sublayers.h"

namespace attend {

void DecoderWorkspace::reserve(const ModelConfig& c, int rows, int slot_count, int steps,
                               const std::vector<int>& offsets, bool capture, int logit_rows) {
  const size_t d = c.d_model, layers = c.decoder_layers, heads = c.num_heads;
  slots = slot_count;
  max_steps = steps;
  max_rows = rows;
  source_offsets = offsets;
  source_tokens = offsets.back();
  max_source_len = 0;
  for (size_t s = 0; s + 1 < offsets.size(); ++s) max_source_len = std::max(max_source_len, offsets[s + 1] - offsets[s]);
  // per position: self-attention's K and V [2D], or the SSRU's cell state [D]
  cache.reset(c.decoder_layers, (c.decoder_autoreg == DecoderAutoreg::ssru ? 1 : 2) * c.d_model, slots);
  cross_kv.resize(layers * source_tokens * 2 * d);
  x.resize(rows * d);
  normed.resize(rows * d);
  qkv.resize(rows * 3 * d);  // also the SSRU's gates [R, 2D]
  attn.resize(rows * d);
  out.resize(rows * d);
  hidden.resize(static_cast<size_t>(rows) * c.d_ff);
  scores.resize(std::max(steps, kernels::kRowsAsAlone * max_source_len));
  logits.resize(static_cast<size_t>(logit_rows) * c.tgt_vocab_size);
  capturing = capture;
  capture_self.assign(capture ? rows * layers * heads * steps : 0, 0.f);
  capture_cross.assign(capture ? rows * layers * heads * max_source_len : 0, 0.f);
}

void prepare_cross_attention(const Model::Impl& model, const KernelTable& k, const float* memory,
                             DecoderWorkspace& ws) {
  const ModelConfig& c = model.config;
  const size_t layer_size = static_cast<size_t>(ws.source_tokens) * 2 * c.d_model;
  for (int l = 0; l < c.decoder_layers; ++l) {
    // [N, 2D] = memory · [W_k; W_v]ᵀ
    model.weights.decoder[l].cross_kv.apply(k, memory, c.d_model, ws.cross_kv.data() + l * layer_size,
                                            2 * c.d_model, ws.source_tokens);
  }
}

namespace {

// Rows [r, r + count)'s attention (one query each) at layer l into ws.attn; when capturing, their
// probabilities go to capture[r + i][l] ([R][L][H][stride]).
// marian: Q unscaled, the attention computed as Marian's (model/marian_float.h).
void attend_rows(const KernelTable& k, const ModelConfig& c, const AttentionInput& input, const uint8_t* masked_heads,
                 int r, int l, std::vector<float>& capture, int stride, DecoderWorkspace& ws, bool marian) {
  const size_t row_layer = static_cast<size_t>(r) * c.decoder_layers + l;
  AttentionCapture cap{ws.capturing ? capture.data() + row_layer * c.num_heads * stride : nullptr,
                       static_cast<size_t>(stride), static_cast<size_t>(c.decoder_layers) * c.num_heads * stride};
  float* out = ws.attn.data() + static_cast<size_t>(r) * c.d_model;
  if (marian) {
    marian::multi_head_attention(input, c.num_heads, c.head_dim(), 1.f / std::sqrt(static_cast<float>(c.head_dim())),
                                 /*queries_as_batch=*/false, masked_heads, ws.scores.data(), out, c.d_model,
                                 ws.capturing ? &cap : nullptr);
    return;
  }
  multi_head_attention(k, input, c.num_heads, c.head_dim(), masked_heads, ws.scores.data(), out, c.d_model,
                       ws.capturing ? &cap : nullptr);
}

// The decoder's first input when it starts from a zero vector (Marian): x[r] = 0·scale + PE[0].
void zero_start(const float* positions, int rows, int d, float* x) {
  for (int r = 0; r < rows; ++r) std::memcpy(x + static_cast<size_t>(r) * d, positions, d * sizeof(float));
}

// One SSRU step of one row (docs/marian.md §4): gates [2D] = [x·Wᵀ | x·Wfᵀ + bf], the previous
// cell state [D] (null at step 0: zeros) -> the new cell state c [D] and the output relu(c) [D].
void ssru_cell(const float* gates, const float* previous, int d, float* cell, float* out) {
  const float* candidate = gates;
  const float* forget = gates + d;
  for (int i = 0; i < d; ++i) {
    const float f = 1.f / (1.f + std::exp(-forget[i]));
    const float c = f * (previous ? previous[i] : 0.f) + (1.f - f) * candidate[i];
    cell[i] = c;
    out[i] = c > 0.f ? c : 0.f;
  }
}

// Asks for floats [p, p + count) to be brought into the caches ahead of their use: the next row's
// keys and values are read while this row's attention is computed (at batch, the rows' caches
// together are larger than L2).
void prefetch(const float* p, size_t count) {
  constexpr size_t kLine = 64 / sizeof(float);
  for (size_t i = 0; i < count; i += kLine) __builtin_prefetch(p + i);
}

}  // namespace

void decoder_hidden(const Model::Impl& model, const KernelTable& k, const StepInput& in, const HeadMask& mask,
                    DecoderWorkspace& ws) {
  const ModelConfig& c = model.config;
  const Weights& w = model.weights;
  const int rows = in.rows, d = c.d_model, hd = c.head_dim(), heads = c.num_heads, layers = c.decoder_layers;
  const float embed_scale = c.embedding_scale ? std::sqrt(static_cast<float>(d)) : 1.f;
  const float query_scale = 1.f / std::sqrt(static_cast<float>(hd));
  for (int r = 0; r < rows; ++r) ws.cache.reserve(in.slots[r], in.step + 1);
  if (in.step == 0 && c.decoder_start == DecoderStart::zeros) {
    zero_start(w.tgt_positions, rows, d, ws.x.data());  // [R, D]
  } else {
    embed(w.tgt_embed, w.tgt_positions, embed_scale, in.tokens, rows, in.step, 0, d, ws.x.data());  // [R, D]
  }
  const LayerScratch scratch{ws.normed.data(), ws.out.data(), ws.hidden.data()};

  for (int l = 0; l < layers; ++l) {
    const DecoderLayerWeights& lw = w.decoder[l];
    if (c.decoder_autoreg == DecoderAutoreg::ssru) {
      residual(k, c, lw.ssru_norm, ws.x.data(), rows, scratch, [&](const float* x, float* out) {
        lw.ssru_gates.apply(k, x, d, ws.qkv.data(), 2 * d, rows);  // [R, 2D]
        for (int r = 0; r < rows; ++r) {
          float* states = ws.cache.at(l, in.slots[r]);  // [T, D]
          const float* previous = in.step ? states + static_cast<size_t>(in.step - 1) * d : nullptr;
          const float* gates = ws.qkv.data() + static_cast<size_t>(r) * 2 * d;
          float* cell = states + static_cast<size_t>(in.step) * d;
          if (w.marian_float) {
            marian::ssru_cell(gates, previous, d, cell, out + static_cast<size_t>(r) * d);
          } else {
            ssru_cell(gates, previous, d, cell, out + static_cast<size_t>(r) * d);
          }
        }
      });
    } else {
      residual(k, c, lw.self_norm, ws.x.data(), rows, scratch, [&](const float* x, float* out) {
        lw.self_qkv.apply(k, x, d, ws.qkv.data(), 3 * d, rows);  // [R, 3D]
        if (!w.marian_float) scale_rows(ws.qkv.data(), 3 * d, rows, d, query_scale);
        for (int r = 0; r < rows; ++r) {
          const float* qkv = ws.qkv.data() + static_cast<size_t>(r) * 3 * d;
          float* cache = ws.cache.at(l, in.slots[r]);  // [T, 2D]
          std::memcpy(cache + static_cast<size_t>(in.step) * 2 * d, qkv + d, 2 * d * sizeof(float));
          if (r + 1 < rows) prefetch(ws.cache.at(l, in.slots[r + 1]), static_cast<size_t>(in.step) * 2 * d);
          const AttentionInput input{qkv, 3 * d, cache, cache + d, 2 * d, 1, in.step + 1};
          attend_rows(k, c, input, mask.layer(AttentionKind::decoder, l, heads), r, l, ws.capture_self,
                      ws.max_steps, ws, w.marian_float);
        }
        lw.self_out.apply(k, ws.attn.data(), d, out, d, rows);
      });
    }
    residual(k, c, lw.cross_norm, ws.x.data(), rows, scratch, [&](const float* x, float* out) {
      lw.cross_q.apply(k, x, d, ws.qkv.data(), d, rows);  // [R, D]
      if (!w.marian_float) scale_rows(ws.qkv.data(), d, rows, d, query_scale);
      // A sentence's rows (its hypotheses) attend to its source together, up to kRowsAsAlone at a
      // time: each row's result is the one it gets alone.
      for (int r = 0, count = 1; r < rows; r += count) {
        const int s = in.sentences[r];
        for (count = 1; count < kernels::kRowsAsAlone && r + count < rows && in.sentences[r + count] == s;) ++count;
        const int len = ws.source_offsets[s + 1] - ws.source_offsets[s];
        const float* kv = ws.cross_kv.data() +
                          (static_cast<size_t>(l) * ws.source_tokens + ws.source_offsets[s]) * 2 * d;  // [S, 2D]
        const AttentionInput input{ws.qkv.data() + static_cast<size_t>(r) * d, d, kv, kv + d, 2 * d, count, len};
        attend_rows(k, c, input, mask.layer(AttentionKind::cross, l, heads), r, l, ws.capture_cross,
                    ws.max_source_len, ws, w.marian_float);
      }
      lw.cross_out.apply(k, ws.attn.data(), d, out, d, rows);
    });
    residual(k, c, lw.ffn_norm, ws.x.data(), rows, scratch, [&](const float* x, float* out) {
      feed_forward(k, c, lw.fc1, lw.fc2, x, ws.hidden.data(), out, rows);
    });
  }
  if (c.norm == NormPlacement::pre) w.decoder_final_norm.apply(k, ws.x.data(), ws.normed.data(), rows, d, c.layer_norm_eps);
}

void decoder_logits(const Model::Impl& model, const KernelTable& k, const DecoderWorkspace& ws, int first, int count,
                    float* logits, const Linear* output) {
  const ModelConfig& c = model.config;
  const std::vector<float>& hidden = c.norm == NormPlacement::pre ? ws.normed : ws.x;  // [R, D]
  const Linear& layer = output ? *output : model.weights.output;
  layer.apply(k, hidden.data() + static_cast<size_t>(first) * c.d_model, c.d_model, logits, layer.out,
              count);  // [count, V or A]
}

void decoder_step(const Model::Impl& model, const KernelTable& k, const StepInput& in, const HeadMask& mask,
                  DecoderWorkspace& ws) {
  decoder_hidden(model, k, in, mask, ws);
  decoder_logits(model, k, ws, 0, in.rows, ws.logits.data());
}

}  // namespace attend
