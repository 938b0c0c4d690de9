// The confidence of a translated line (`attend translate --confidence`): the lowest
// attend::confidence of the best hypotheses of its sentences, so one doubtful sentence marks the line.
#pragma once

#include <optional>

#include "line_translation.h"

namespace attend::cli {

// None when the model translated no sentence of the line (blank, failed, only copied text or
// sentences in a script the model cannot read).
std::optional<float> line_confidence(const LineOutcome& outcome);

}  // namespace attend::cli
