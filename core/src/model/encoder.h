// The encoder over a batch of sentences packed back to back (no padding rows: each
// sentence attends only within its own range, which is what a padding mask achieves).
// Legend: N total source tokens of the batch, S one sentence's length, D d_model, F d_ff,
// H heads, K head_dim, L encoder layers.
#pragma once

#include <vector>

#include "model/head_mask.h"
#include "model/model_impl.h"

namespace attend {

struct EncoderWorkspace {
  std::vector<float> x;       // [N, D] residual stream; holds the memory afterwards
  std::vector<float> normed;  // [N, D]
  std::vector<float> qkv;     // [N, 3D]
  std::vector<float> attn;    // [N, D]
  std::vector<float> out;     // [N, D]
  std::vector<float> hidden;  // [N, F]
  std::vector<float> scores;  // [S_max, S_max]

  void reserve(const ModelConfig& c, int total_tokens, int max_len);
};

// ids: all sentences' source ids back to back; offsets [sentences + 1].
// capture: when non-null, sentence `capture_sentence`'s probabilities [L][H][S][S].
void encode(const Model::Impl& model, const KernelTable& k, const std::vector<int>& ids,
            const std::vector<int>& offsets, const HeadMask& mask, EncoderWorkspace& ws,
            float* capture = nullptr, int capture_sentence = 0);

}  // namespace attend
