// The StepScorer of an ensemble (Model::ensemble): each member's decoder step over the same rows,
// then per row the weighted mean of the members' log-probabilities
//   a(t) = Σ_m w_m · (x_m(t) - lse_m),   lse_m = log Σ_j exp(x_m(j)),   Σ_m w_m = 1
// and its k best tokens after the repeat guard's mask, ranked by a (lower token on ties), each
// reported with log_prob a(t). For two members or more: an ensemble of one decodes with
// CpuStepScorer (Translator), ranked by its logits.
#pragma once

#include <vector>

#include "decode/step_scorer.h"
#include "model/decoder.h"
#include "model/head_mask.h"
#include "model/model_impl.h"

namespace attend {

struct EnsembleMember {
  const Model::Impl* model;
  const HeadMask* mask;
  DecoderWorkspace* ws;  // the caller's, so that its buffers live on from one batch to the next
  const float* memory;   // [N, D] this member's encoder output of the batch's sentences
  float weight;          // normalised: the members' sum to 1
};

class EnsembleStepScorer final : public StepScorer {
 public:
  // `attention_member` answers cross_attention().
  EnsembleStepScorer(std::vector<EnsembleMember> members, const KernelTable& kernels, int attention_member)
      : members_(std::move(members)), kernels_(kernels), attention_member_(attention_member) {}

  void prepare(const DecodeShape& shape) override;  // shape.memory is ignored: each member has its own
  void step(const StepRows& rows, int k, TokenScore* best) override;
  void fork_slots(const SlotFork* forks, int count, int steps) override;
  void cross_attention(int row, float* out) const override;

 private:
  std::vector<EnsembleMember> members_;
  const KernelTable& kernels_;
  int attention_member_;
  std::vector<int> row_sentences_;    // [R] of the last step
  std::vector<char> fed_;             // [P] whether the slot is fed at this step
  std::vector<float> mean_;           // [V] a row's weighted mean log-probabilities
};

}  // namespace attend
