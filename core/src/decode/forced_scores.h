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

// Σ log p(target tokens, then eos) of each sentence, all decoded together by `step`; a sentence
// leaves the batch when its eos has been scored. targets [sentences] are without bos and eos.
std::vector<double> forced_log_probs(const ModelConfig& c, const std::vector<std::vector<int>>& targets,
                                     const ForcedStep& step);

// On the CPU: memory [N, D] holds the encoder output of the sentences back to back
// (source_offsets [sentences + 1]); targets fit the model's positions (the caller checks).
std::vector<double> forced_log_probs(const Model::Impl& model, const KernelTable& k, const HeadMask& mask,
                                     const float* memory, const std::vector<int>& source_offsets,
                                     const std::vector<std::vector<int>>& targets, DecoderWorkspace& ws);

// On a device whose session has just encoded the sentences.
std::vector<double> forced_log_probs(DeviceSession& session, const ModelConfig& c, const HeadMask& mask,
                                     const std::vector<std::vector<int>>& targets);

}  // namespace attend
