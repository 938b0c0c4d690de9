// What the engine refuses before it runs: options out of range, source and target ids the model
// cannot read. Each throws attend::Error with a message naming the value.
#pragma once

#include <vector>

#include "attend/model.h"
#include "attend/translator.h"

namespace attend {

void check_options(const TranslateOptions& options);

// Source ids end with eos, fit the model's positions and lie in its source vocabulary.
void check_source(const ModelConfig& c, const std::vector<int>& ids);

// Target ids fed to the decoder after bos (and scored, then eos): in the vocabulary, and with
// bos fitting the model's positions.
void check_target(const ModelConfig& c, const std::vector<int>& ids);

// The ids of a sentence's tokens with eos, refused as translate() refuses them: empty_input when
// there are none, invalid_input past the model's source_positions (a multilingual model keeps
// one for the target-language token read before them).
std::vector<int> sentence_ids(const Model::Impl& model, std::vector<int> ids);

}  // namespace attend
