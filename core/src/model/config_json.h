// ModelConfig from the `attend.config` JSON of a model file, validated.
#pragma once

#include <string>

#include "attend/model.h"

namespace attend {

// Throws Error(invalid_model) naming the key and the value that is wrong.
ModelConfig parse_model_config(const std::string& json_text);

}  // namespace attend
