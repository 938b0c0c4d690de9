#include "decode/cpu_step_scorer.h"

#include <algorithm>
#include <cstring>

#include "decode/log_probs.h"

namespace attend {

void CpuStepScorer::prepare(const DecodeShape& shape) {
  ws_.reserve(model_.config, shape.max_rows, shape.slots, shape.max_steps, *shape.source_offsets, shape.capture);
  prepare_cross_attention(model_, kernels_, shape.memory, ws_);
  row_sentences_.reserve(shape.max_rows);
  fed_.assign(shape.slots, 0);
}

void CpuStepScorer::step(const StepRows& rows, int k, TokenScore* best) {
  unmasked_.resize(static_cast<size_t>(k) + kRepeatGuardMaxN);
  const int vocab = model_.config.tgt_vocab_size;
  // A slot not fed now holds a hypothesis the search has dropped: its memory goes.
  std::fill(fed_.begin(), fed_.end(), 0);
  for (int r = 0; r < rows.rows; ++r) fed_[rows.slots[r]] = 1;
  for (size_t slot = 0; slot < fed_.size(); ++slot) {
    if (!fed_[slot]) ws_.cache.release(static_cast<int>(slot));
  }
  decoder_step(model_, kernels_, StepInput{rows.tokens, rows.slots, rows.sentences, rows.rows, rows.step}, mask_, ws_);
  row_sentences_.assign(rows.sentences, rows.sentences + rows.rows);
  for (int r = 0; r < rows.rows; ++r) {
    best_allowed_tokens(kernels_, ws_.logits.data() + static_cast<size_t>(r) * vocab, vocab, rows.banned[r], k,
                        unmasked_.data(), best + static_cast<size_t>(r) * k);
  }
}

void CpuStepScorer::fork_slots(const SlotFork* forks, int count, int steps) {
  for (int i = 0; i < count; ++i) ws_.cache.copy(forks[i].from, forks[i].to, steps);
}

void CpuStepScorer::cross_attention(int row, float* out) const {
  const ModelConfig& c = model_.config;
  const int s = row_sentences_[row];
  const int len = ws_.source_offsets[s + 1] - ws_.source_offsets[s];
  const size_t maps = static_cast<size_t>(c.decoder_layers) * c.num_heads;
  const float* src = ws_.capture_cross.data() + static_cast<size_t>(row) * maps * ws_.max_source_len;
  for (size_t m = 0; m < maps; ++m) {  // [L·H][S_max] -> [L·H][S]
    std::memcpy(out + m * len, src + m * ws_.max_source_len, len * sizeof(float));
  }
}

}  // namespace attend
