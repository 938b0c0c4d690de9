#include "decode/ensemble_step_scorer.h"

#include "decode/cpu_step_scorer.h"
#include "decode/log_probs.h"

namespace attend {

void EnsembleStepScorer::prepare(const DecodeShape& shape) {
  for (size_t i = 0; i < members_.size(); ++i) {  // only the attention member captures
    const EnsembleMember& m = members_[i];
    const bool capture = shape.capture && static_cast<int>(i) == attention_member_;
    m.ws->reserve(m.model->config, shape.max_rows, shape.slots, shape.max_steps, *shape.source_offsets, capture,
                  shape.max_rows);
    prepare_cross_attention(*m.model, kernels_, m.memory, *m.ws);
  }
  row_sentences_.reserve(shape.max_rows);
  fed_.assign(shape.slots, 0);
  mean_.resize(members_[0].model->config.tgt_vocab_size);
}

void EnsembleStepScorer::step(const StepRows& rows, int k, TokenScore* best) {
  mark_fed_slots(rows, fed_);
  for (const EnsembleMember& m : members_) {
    release_unfed_slots(fed_, *m.ws);
    decoder_step(*m.model, kernels_, StepInput{rows.tokens, rows.slots, rows.sentences, rows.rows, rows.step}, *m.mask,
                 *m.ws);  // logits [R, V]
  }
  row_sentences_.assign(rows.sentences, rows.sentences + rows.rows);
  const int vocab = static_cast<int>(mean_.size());
  float* mean = mean_.data();
  for (int r = 0; r < rows.rows; ++r) {
    for (size_t m = 0; m < members_.size(); ++m) {
      const float* x = members_[m].ws->logits.data() + static_cast<size_t>(r) * vocab;  // [V]
      const float lse = log_sum_exp(kernels_, x, vocab, argmax(x, vocab));
      const float w = members_[m].weight;
      if (m == 0) {
        for (int t = 0; t < vocab; ++t) mean[t] = w * (x[t] - lse);
      } else {
        for (int t = 0; t < vocab; ++t) mean[t] += w * (x[t] - lse);
      }
    }
    rows.banned[r].mask(mean);
    best_tokens(mean, vocab, 0.f, k, best + static_cast<size_t>(r) * k, kernels_);
  }
}

void EnsembleStepScorer::fork_slots(const SlotFork* forks, int count, int steps) {
  for (const EnsembleMember& m : members_) {
    for (int i = 0; i < count; ++i) m.ws->cache.copy(forks[i].from, forks[i].to, steps);
  }
}

void EnsembleStepScorer::cross_attention(int row, float* out) const {
  const EnsembleMember& member = members_[attention_member_];
  copy_cross_attention(member.model->config, *member.ws, row, row_sentences_[row], out);
}

}  // namespace attend
