// `--mask-head kind:layer:head` values: parsing, and checking against a model's shape.
#pragma once

#include <string>
#include <vector>

#include "attend/model.h"
#include "attend/translator.h"

namespace attend::cli {

// "cross:1:0" -> {cross, 1, 0}; kinds are encoder, decoder, cross. Throws UsageError.
HeadRef parse_head_spec(const std::string& text);

// Throws UsageError naming the first head the model does not have.
void check_heads_exist(const std::vector<HeadRef>& heads, const ModelConfig& config);

}  // namespace attend::cli
