// Teacher forcing over a batch, for scoring given translations: every sentence's decoder is fed
// bos and its target's tokens, and each position scores the next token (eos last).
#pragma once

#include <vector>

#include "model/decoder.h"
#include "model/head_mask.h"
#include "model/model_impl.h"

namespace attend {

// Σ log p(target tokens, then eos) of each sentence, all decoded together; a sentence leaves the
// batch when its eos has been scored. memory [N, D] holds the encoder output of the sentences
// back to back (source_offsets [sentences + 1]); targets [sentences] are without bos and eos and
// fit the model's positions (the caller checks).
std::vector<double> forced_log_probs(const Model::Impl& model, const KernelTable& k, const HeadMask& mask,
                                     const float* memory, const std::vector<int>& source_offsets,
                                     const std::vector<std::vector<int>>& targets, DecoderWorkspace& ws);

}  // namespace attend
