#include "decode/forced_scores.h"

#include <algorithm>

#include "decode/live_rows.h"
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
  LiveRows live(sentences, c.bos_id);
  for (int step = 0; !live.empty(); ++step) {
    decoder_step(model, k, live.step_input(step), mask, ws);
    for (int i = 0; i < live.size(); ++i) {
      const int s = live.sentence(i);
      const std::vector<int>& target = targets[s];
      const float* logits = ws.logits.data() + static_cast<size_t>(i) * vocab;  // [V]
      const bool at_eos = step == static_cast<int>(target.size());
      const int token = at_eos ? c.eos_id : target[step];
      sums[s] += logits[token] - log_sum_exp(k, logits, vocab, argmax(logits, vocab));
      if (!at_eos) live.keep(s, token);
    }
    live.end_step();
  }
  return sums;
}

}  // namespace attend
