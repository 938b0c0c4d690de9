#include "decode/cpu_step_scorer.h"

#include <cstring>

#include "decode/log_probs.h"

namespace attend {

void CpuStepScorer::prepare(const DecodeShape& shape) {
  ws_.reserve(model_.config, shape.max_rows, shape.slots, shape.max_steps, *shape.source_offsets, shape.capture);
  prepare_cross_attention(model_, kernels_, shape.memory, ws_);
  row_sentences_.reserve(shape.max_rows);
}

void CpuStepScorer::step(const StepRows& rows, int k, TokenScore* best) {
  const int vocab = model_.config.tgt_vocab_size;
  decoder_step(model_, kernels_, StepInput{rows.tokens, rows.slots, rows.sentences, rows.rows, rows.step}, mask_, ws_);
  row_sentences_.assign(rows.sentences, rows.sentences + rows.rows);
  for (int r = 0; r < rows.rows; ++r) {
    float* logits = ws_.logits.data() + static_cast<size_t>(r) * vocab;  // [V]
    const float lse = log_sum_exp(kernels_, logits, vocab, argmax(logits, vocab));
    rows.banned[r].mask(logits);
    best_tokens(logits, vocab, lse, k, best + static_cast<size_t>(r) * k);
  }
}

void CpuStepScorer::fork_slots(const SlotFork* forks, int count, int steps) {
  for (int i = 0; i < count; ++i) copy_cache_slot(model_.config, ws_, forks[i].from, forks[i].to, steps);
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
