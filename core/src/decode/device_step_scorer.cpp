#include "decode/device_step_scorer.h"

#include <algorithm>
#include <string>

#include "attend/error.h"

namespace attend {

void DeviceStepScorer::prepare(const DecodeShape& shape) {
  if (shape.memory) {
    throw Error(ErrorCode::invalid_argument, "internal: a device decodes the sentences it encoded, not a host memory");
  }
  if (shape.allowed) throw Error(ErrorCode::invalid_argument, "internal: a lexical shortlist is the CPU's, for one model");
  source_offsets_ = *shape.source_offsets;
  max_source_len_ = 0;
  for (size_t s = 0; s + 1 < source_offsets_.size(); ++s) {
    max_source_len_ = std::max(max_source_len_, source_offsets_[s + 1] - source_offsets_[s]);
  }
  session_.begin_decode(shape.max_rows, shape.slots, shape.max_steps, max_k_, shape.capture);
}

void DeviceStepScorer::step(const StepRows& rows, int k, TokenScore* best) {
  if (k > max_k_) {
    throw Error(ErrorCode::invalid_argument,
                "internal: a step asks " + std::to_string(k) + " tokens of a scorer made for " + std::to_string(max_k_));
  }
  const size_t r = rows.rows;
  row_sentences_.assign(rows.sentences, rows.sentences + r);
  session_.step(StepInput{rows.tokens, rows.slots, rows.sentences, rows.rows, rows.step}, mask_);
  banned_.assign(r * kMaxBannedTokens, -1);
  for (size_t i = 0; i < r; ++i) std::copy_n(rows.banned[i].ids, rows.banned[i].count, banned_.begin() + i * kMaxBannedTokens);
  tokens_.resize(r * k);
  log_probs_.resize(r * k);
  session_.top_k(banned_, kMaxBannedTokens, k, tokens_.data(), log_probs_.data());
  for (size_t i = 0; i < r * k; ++i) best[i] = TokenScore{tokens_[i], log_probs_[i], log_probs_[i]};
}

void DeviceStepScorer::fork_slots(const SlotFork* forks, int count, int steps) {
  forks_.clear();
  for (int i = 0; i < count; ++i) forks_.insert(forks_.end(), {forks[i].from, forks[i].to});
  session_.copy_cache_slots(forks_.data(), count, steps);
}

// out [L][H][S] of the row's sentence, from the session's [L][H][S_max].
void DeviceStepScorer::cross_attention(int row, float* out) const {
  const int s = row_sentences_[row];
  const size_t len = source_offsets_[s + 1] - source_offsets_[s], stride = max_source_len_;
  cross_row_.resize(maps_ * stride);
  session_.copy_captured_row(row, nullptr, cross_row_.data());
  for (size_t m = 0; m < static_cast<size_t>(maps_); ++m) {
    std::copy_n(cross_row_.begin() + m * stride, len, out + m * len);
  }
}

}  // namespace attend
