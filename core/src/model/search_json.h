// SearchDefaults from the `attend.search` JSON of a model file, validated.
#pragma once

#include <string>

#include "attend/model.h"

namespace attend {

// {"rules": "attend"|"marian", "beam_size": 1 to kMaxBeamSize, "max_length_ratio": r ≥ 0, "length_penalty": a, "word_penalty": w,
// "max_repeats": n ≥ 0}, every key optional. Throws Error(invalid_model) naming the key and the value.
SearchDefaults parse_search_defaults(const std::string& json_text);

}  // namespace attend
