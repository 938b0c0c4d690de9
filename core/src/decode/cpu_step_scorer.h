// The StepScorer of this CPU: decoder_step over the rows, then per row the log-sum-exp of its
// logits and its k best tokens after the repeat guard's mask (decode/log_probs.h).
#pragma once

#include <optional>
#include <vector>

#include "decode/shortlisted_output.h"
#include "decode/step_scorer.h"
#include "model/decoder.h"
#include "model/head_mask.h"
#include "model/model_impl.h"

namespace attend {

// What a CPU scorer does at each step with a workspace, shared by CpuStepScorer and
// EnsembleStepScorer (one workspace per member).
// fed[p]: whether `rows` feed slot p (fed holds every slot).
void mark_fed_slots(const StepRows& rows, std::vector<char>& fed);
// Drops the cache of every slot not fed: the search has dropped its hypothesis.
void release_unfed_slots(const std::vector<char>& fed, DecoderWorkspace& ws);
// Row `row`'s cross-attention of the last step (sentence `sentence`): the capture [L·H][S_max] ->
// out [L·H][S].
void copy_cross_attention(const ModelConfig& c, const DecoderWorkspace& ws, int row, int sentence, float* out);

// The rows whose logits CpuStepScorer computes and ranks at a time: [24, V] stays in L2 (768 KB at
// V = 8000) where all rows' [R, V] would not (5 MB at beam 5 batch 32), at the price of reading the
// output projection's weights once per block. A multiple of kernels::kRowTile, so that each row's
// logits are those of one call over all rows (kernels::next_row_block).
constexpr int kLogitBlockRows = 2 * kernels::kRowTile;
// The most rows one block holds: next_row_block adds a remainder of kRowsAsAlone rows or fewer.
constexpr int kMaxLogitBlockRows = kLogitBlockRows + kernels::kRowsAsAlone;

class CpuStepScorer final : public StepScorer {
 public:
  // The workspace is the caller's so that its buffers live on from one batch to the next.
  CpuStepScorer(const Model::Impl& model, const KernelTable& kernels, const HeadMask& mask, DecoderWorkspace& ws)
      : model_(model), kernels_(kernels), mask_(mask), ws_(ws) {}

  void prepare(const DecodeShape& shape) override;
  void step(const StepRows& rows, int k, TokenScore* best) override;
  void fork_slots(const SlotFork* forks, int count, int steps) override;
  void cross_attention(int row, float* out) const override;

 private:
  const Model::Impl& model_;
  const KernelTable& kernels_;
  const HeadMask& mask_;
  DecoderWorkspace& ws_;
  std::vector<int> row_sentences_;  // [R] of the last step
  std::vector<char> fed_;           // [P] whether the slot is fed at this step
  std::vector<TokenScore> unmasked_;  // [k + banned] a row's best tokens before the repeat guard
  std::optional<ShortlistedOutput> shortlisted_;  // the batch's, with DecodeShape::allowed
};

}  // namespace attend
