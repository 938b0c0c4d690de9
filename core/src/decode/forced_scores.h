// Teacher forcing over a batch, for scoring given translations: every sentence's decoder is fed
// bos and its target's tokens, and each position scores the next token (eos last). The decoder
// runs on the CPU or on a device (model/device_model.h); the bookkeeping is written once.
#pragma once

#include <functional>
#include <vector>

#include "model/decoder.h"
#include "model/device_model.h"
#include "model/head_mask.h"
#include "model/model_impl.h"

namespace attend {

// One decoder step over in's rows (row r uses cache slot in.slots[r], its sentence's), then
// log_probs[r] = log p(next[r]) of row r, over the whole vocabulary.
using ForcedStep = std::function<void(const StepInput& in, const int* next, float* log_probs)>;

// Whether sentence `sentence` is worth scoring on, given `sum`, the Σ log p of its tokens scored so
// far. Every term is ≤ 0 (lse ≥ the largest logit: its exp(0) = 1 is in the sum of exps), so `sum`
// bounds the sentence's whole sum from above, and a caller can stop one that cannot matter.
using KeepScoring = std::function<bool(int sentence, double sum)>;

// Σ log p(target tokens, then eos) of each sentence, all decoded together by `step`; a sentence
// leaves the batch when its eos has been scored, or as soon as `keep` (if given) says false: its
// sum is then the sum so far. targets [sentences] are without bos and eos.
std::vector<double> forced_log_probs(const ModelConfig& c, const std::vector<std::vector<int>>& targets,
                                     const ForcedStep& step, const KeepScoring& keep = {});

// On the CPU: memory [N, D] holds the encoder output of the sentences back to back
// (source_offsets [sentences + 1]); targets fit the model's positions (the caller checks).
std::vector<double> forced_log_probs(const Model::Impl& model, const KernelTable& k, const HeadMask& mask,
                                     const float* memory, const std::vector<int>& source_offsets,
                                     const std::vector<std::vector<int>>& targets, DecoderWorkspace& ws,
                                     const KeepScoring& keep = {});

// On a device whose session has just encoded the sentences.
std::vector<double> forced_log_probs(DeviceSession& session, const ModelConfig& c, const HeadMask& mask,
                                     const std::vector<std::vector<int>>& targets, const KeepScoring& keep = {});

}  // namespace attend
