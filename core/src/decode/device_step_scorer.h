// The search loop's StepScorer (decode/step_scorer.h) over a DeviceSession (model/device_model.h):
// the host keeps the search; per step only the rows' tokens and banned ids go to the device and
// the k best (token, log_prob) per row come back. Plain C++: tested on every machine against a
// session that records its calls (tests/decode/device_step_scorer_test.cpp).
#pragma once

#include <vector>

#include "decode/step_scorer.h"
#include "model/device_model.h"

namespace attend {

class DeviceStepScorer final : public StepScorer {
 public:
  // max_k: the largest k a step will ask (1 greedy, 2·beam_size beam). The session has encoded the
  // sentences (shape.memory is null).
  DeviceStepScorer(DeviceSession& session, const ModelConfig& config, const HeadMask& mask, int max_k)
      : session_(session), maps_(config.decoder_layers * config.num_heads), mask_(mask), max_k_(max_k) {}

  void prepare(const DecodeShape& shape) override;
  void step(const StepRows& rows, int k, TokenScore* best) override;
  void fork_slots(const SlotFork* forks, int count, int steps) override;
  void cross_attention(int row, float* out) const override;

 private:
  DeviceSession& session_;
  int maps_;  // L·H
  const HeadMask& mask_;
  int max_k_;
  std::vector<int> source_offsets_;
  std::vector<int> row_sentences_;  // [R] of the last step
  std::vector<int> banned_;         // [R, kMaxBannedTokens], -1 = none
  std::vector<int> tokens_;         // [R, k]
  std::vector<float> log_probs_;    // [R, k]
  std::vector<int> forks_;          // [count][2]: from, to
  int max_source_len_ = 0;
  mutable std::vector<float> cross_row_;  // [L·H·S_max]
};

}  // namespace attend
