#include "decode/ensemble_step_scorer.h"

#include <algorithm>

#include "attend/error.h"
#include "decode/cpu_step_scorer.h"
#include "decode/log_probs.h"

namespace attend {

void EnsembleStepScorer::prepare(const DecodeShape& shape) {
  if (shape.allowed) throw Error(ErrorCode::invalid_argument, "internal: a lexical shortlist is the CPU's, for one model");
  const int logit_rows = std::min(shape.max_rows, kMaxLogitBlockRows);  // step() combines block by block
  for (size_t i = 0; i < members_.size(); ++i) {  // only the attention member captures
    const EnsembleMember& m = members_[i];
    const bool capture = shape.capture && static_cast<int>(i) == attention_member_;
    m.ws->reserve(m.model->config, shape.max_rows, shape.slots, shape.max_steps, *shape.source_offsets, capture,
                  logit_rows);
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
    decoder_hidden(*m.model, kernels_, StepInput{rows.tokens, rows.slots, rows.sentences, rows.rows, rows.step}, *m.mask,
                   *m.ws);
  }
  row_sentences_.assign(rows.sentences, rows.sentences + rows.rows);
  const int vocab = members_[0].model->config.tgt_vocab_size;
  // Block by block as CpuStepScorer, so that the members' logits stay in cache; row by row in a
  // block, so that the row's means do.
  float* mean = mean_.data();  // [V]
  for (int first = 0, count = 0; first < rows.rows; first += count) {
    count = kernels::next_row_block(rows.rows - first, kLogitBlockRows);
    for (const EnsembleMember& member : members_) {
      decoder_logits(*member.model, kernels_, *member.ws, first, count, member.ws->logits.data());  // [count, V]
    }
    for (int r = 0; r < count; ++r) {
      for (size_t m = 0; m < members_.size(); ++m) {
        const float* x = members_[m].ws->logits.data() + static_cast<size_t>(r) * vocab;  // [V]
        const float lse = log_sum_exp(kernels_, x, vocab);
        const float w = members_[m].weight;
        if (m == 0) {
          for (int t = 0; t < vocab; ++t) mean[t] = w * (x[t] - lse);
        } else {
          for (int t = 0; t < vocab; ++t) mean[t] += w * (x[t] - lse);
        }
      }
      rows.banned[first + r].mask(mean);
      best_tokens(mean, vocab, 0.f, k, best + static_cast<size_t>(first + r) * k, kernels_);
    }
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
