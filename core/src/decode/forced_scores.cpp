#include "decode/forced_scores.h"

#include <algorithm>

#include "decode/live_rows.h"
#include "decode/log_probs.h"

namespace attend {
namespace {

int longest(const std::vector<std::vector<int>>& targets) {
  size_t n = 0;
  for (const auto& t : targets) n = std::max(n, t.size());
  return static_cast<int>(n);
}

}  // namespace

std::vector<double> forced_log_probs(const ModelConfig& c, const std::vector<std::vector<int>>& targets,
                                     const ForcedStep& step, const KeepScoring& keep) {
  const int sentences = static_cast<int>(targets.size());
  std::vector<double> sums(sentences, 0.0);  // in double: the sum of many small terms
  std::vector<int> next(sentences);          // [rows] the token each row scores
  std::vector<float> log_probs(sentences);   // [rows]
  LiveRows live(sentences, c.bos_id);
  for (int t = 0; !live.empty(); ++t) {
    for (int i = 0; i < live.size(); ++i) {
      const std::vector<int>& target = targets[live.sentence(i)];
      next[i] = t == static_cast<int>(target.size()) ? c.eos_id : target[t];
    }
    step(live.step_input(t), next.data(), log_probs.data());
    for (int i = 0; i < live.size(); ++i) {
      const int s = live.sentence(i);
      sums[s] += log_probs[i];
      const bool more = t < static_cast<int>(targets[s].size());  // else its eos was scored
      if (more && (!keep || keep(s, sums[s]))) live.keep(s, next[i]);
    }
    live.end_step();
  }
  return sums;
}

std::vector<double> forced_log_probs(const Model::Impl& model, const KernelTable& k, const HeadMask& mask,
                                     const float* memory, const std::vector<int>& source_offsets,
                                     const std::vector<std::vector<int>>& targets, DecoderWorkspace& ws,
                                     const KeepScoring& keep) {
  const ModelConfig& c = model.config;
  const int sentences = static_cast<int>(targets.size()), vocab = c.tgt_vocab_size;
  ws.reserve(c, sentences, sentences, longest(targets) + 1, source_offsets, false, sentences);
  prepare_cross_attention(model, k, memory, ws);
  return forced_log_probs(c, targets, [&](const StepInput& in, const int* next, float* log_probs) {
    decoder_step(model, k, in, mask, ws);
    for (int r = 0; r < in.rows; ++r) {
      const float* logits = ws.logits.data() + static_cast<size_t>(r) * vocab;  // [V]
      log_probs[r] = logits[next[r]] - log_sum_exp(k, logits, vocab);
    }
  }, keep);
}

std::vector<double> forced_log_probs(DeviceSession& session, const ModelConfig& c, const HeadMask& mask,
                                     const std::vector<std::vector<int>>& targets, const KeepScoring& keep) {
  const int sentences = static_cast<int>(targets.size());
  session.begin_decode(sentences, sentences, longest(targets) + 1, 1, false);
  return forced_log_probs(c, targets, [&](const StepInput& in, const int* next, float* log_probs) {
    session.step(in, mask);
    session.token_log_probs(next, log_probs);
  }, keep);
}

}  // namespace attend
