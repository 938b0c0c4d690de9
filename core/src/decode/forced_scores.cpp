#include "decode/forced_scores.h"

#include <algorithm>

#include "decode/log_probs.h"

namespace attend {

std::vector<double> forced_log_probs(const Model::Impl& model, const KernelTable& k, const HeadMask& mask,
                                     const float* memory, const std::vector<int>& source_offsets,
                                     const std::vector<std::vector<int>>& targets, DecoderWorkspace& ws) {
  const ModelConfig& c = model.config;
  const int sentences = static_cast<int>(targets.size()), vocab = c.tgt_vocab_size;
  size_t longest = 0;
  for (const auto& t : targets) longest = std::max(longest, t.size());
  ws.reserve(c, sentences, sentences, static_cast<int>(longest) + 1, source_offsets, false);
  prepare_cross_attention(model, k, memory, ws);

  std::vector<double> sums(sentences, 0.0);  // in double: the sum of many small terms
  std::vector<int> tokens(sentences, c.bos_id), rows(sentences);  // rows: sentence (= slot) of each live row
  for (int s = 0; s < sentences; ++s) rows[s] = s;
  for (int step = 0; !rows.empty(); ++step) {
    const int live = static_cast<int>(rows.size());
    decoder_step(model, k, StepInput{tokens.data(), rows.data(), rows.data(), live, step}, mask, ws);
    int kept = 0;
    for (int i = 0; i < live; ++i) {
      const int s = rows[i];
      const std::vector<int>& target = targets[s];
      const float* logits = ws.logits.data() + static_cast<size_t>(i) * vocab;  // [V]
      const bool at_eos = step == static_cast<int>(target.size());
      const int token = at_eos ? c.eos_id : target[step];
      sums[s] += logits[token] - log_sum_exp(k, logits, vocab, argmax(logits, vocab));
      if (at_eos) continue;
      rows[kept] = s;  // compact the live rows; their cache slots stay where they are
      tokens[kept] = token;
      ++kept;
    }
    rows.resize(kept);
    tokens.resize(kept);
  }
  return sums;
}

}  // namespace attend
