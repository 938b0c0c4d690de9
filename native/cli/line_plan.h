// How a line of input is cut into what the model translates: the rules `attend translate`
// follows for each stdin line, shared with `attend serve` so that a request's text is cut as the
// CLI cuts it.
#pragma once

#include <string>
#include <vector>

#include "attend/document.h"
#include "attend/translator.h"

namespace attend::cli {

// Empty or ASCII whitespace only: not sent to the model (translate answers an empty line).
bool is_blank(const std::string& line);

// The segments of a non-blank line: its sentences (plan_document in the model's source language,
// with the caption layer's phrases where `rules` are on for the model), or the whole line when
// `whole` (--no-split) or when it is invalid UTF-8 (which translating it then reports). `context`
// carries a letter's closing from one line to the next of the same input.
std::vector<DocumentSegment> plan_line(const Translator& translator, const std::string& line, CaptionRules rules,
                                       bool whole, PlanContext* context);

}  // namespace attend::cli
