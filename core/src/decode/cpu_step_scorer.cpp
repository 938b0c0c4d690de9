#include "decode/cpu_step_scorer.h"

#include <algorithm>
#include <cstring>

#include "decode/log_probs.h"

namespace attend {

void CpuStepScorer::prepare(const DecodeShape& shape) {
  ws_.reserve(model_.config, shape.max_rows, shape.slots, shape.max_steps, *shape.source_offsets, shape.capture,
              std::min(shape.max_rows, kMaxLogitBlockRows));  // step() ranks the logits block by block
  prepare_cross_attention(model_, kernels_, shape.memory, ws_);
  row_sentences_.reserve(shape.max_rows);
  fed_.assign(shape.slots, 0);
  shortlisted_.reset();
  if (shape.allowed) shortlisted_.emplace(model_.weights.output, shape.allowed, model_.config.tgt_vocab_size, kernels_);
}

void mark_fed_slots(const StepRows& rows, std::vector<char>& fed) {
  std::fill(fed.begin(), fed.end(), 0);
  for (int r = 0; r < rows.rows; ++r) fed[rows.slots[r]] = 1;
}

void release_unfed_slots(const std::vector<char>& fed, DecoderWorkspace& ws) {
  for (size_t slot = 0; slot < fed.size(); ++slot) {
    if (!fed[slot]) ws.cache.release(static_cast<int>(slot));
  }
}

void copy_cross_attention(const ModelConfig& c, const DecoderWorkspace& ws, int row, int sentence, float* out) {
  const int len = ws.source_offsets[sentence + 1] - ws.source_offsets[sentence];
  const size_t maps = static_cast<size_t>(c.decoder_layers) * c.num_heads;
  const float* src = ws.capture_cross.data() + static_cast<size_t>(row) * maps * ws.max_source_len;
  for (size_t m = 0; m < maps; ++m) {  // [L·H][S_max] -> [L·H][S]
    std::memcpy(out + m * len, src + m * ws.max_source_len, len * sizeof(float));
  }
}

void CpuStepScorer::step(const StepRows& rows, int k, TokenScore* best) {
  unmasked_.resize(static_cast<size_t>(k) + kMaxBannedTokens);
  const Linear* output = shortlisted_ ? &shortlisted_->layer : nullptr;
  const int width = shortlisted_ ? output->out : model_.config.tgt_vocab_size;
  mark_fed_slots(rows, fed_);
  release_unfed_slots(fed_, ws_);
  decoder_hidden(model_, kernels_, StepInput{rows.tokens, rows.slots, rows.sentences, rows.rows, rows.step}, mask_, ws_);
  row_sentences_.assign(rows.sentences, rows.sentences + rows.rows);
  for (int first = 0, count = 0; first < rows.rows; first += count) {
    count = kernels::next_row_block(rows.rows - first, kLogitBlockRows);
    decoder_logits(model_, kernels_, ws_, first, count, ws_.logits.data(), output);  // [count, V or A]
    for (int r = 0; r < count; ++r) {
      float* logits = ws_.logits.data() + static_cast<size_t>(r) * width;  // [V or A]
      TokenScore* row_best = best + static_cast<size_t>(first + r) * k;
      if (shortlisted_) {
        best_shortlisted_tokens(kernels_, logits, shortlisted_->tokens, shortlisted_->index_of, rows.banned[first + r], k,
                                row_best);
      } else {
        best_allowed_tokens(kernels_, logits, width, rows.banned[first + r], k, unmasked_.data(), row_best);
      }
    }
  }
}

void CpuStepScorer::fork_slots(const SlotFork* forks, int count, int steps) {
  for (int i = 0; i < count; ++i) ws_.cache.copy(forks[i].from, forks[i].to, steps);
}

void CpuStepScorer::cross_attention(int row, float* out) const {
  copy_cross_attention(model_.config, ws_, row, row_sentences_[row], out);
}

}  // namespace attend
