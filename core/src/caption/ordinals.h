// Ordinal numbers as the shipped models' languages write them: English "1st", "2nd", "3rd",
// "4th"; German "1.", "2."; French "1er", "2e" ("2ème", "1re" read too). They pass through the
// model (pipeline/pass_through.h) and are written the translation's way, a rule needing no model:
// "Der 1. Platz" gave de-en "The 1. place".
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

#include "caption/function_words.h"

namespace attend {

// The number of `word` when it is an ordinal of one to three digits ("1.", "3rd", "2e", "1re"), else 0.
int ordinal_number(std::string_view word);

// The length of the ordinal's ending at text[at], after a number's digits, in either case and
// before no ASCII letter or digit ("st" of "1st, ...", "ème" of "3ème"; not German's dot, nor "e" of
// "6e7"); 0 when there is none.
size_t ordinal_ending_length(std::string_view text, size_t at);

// `word` (the whole of it) written as an ordinal of `language`: "1." -> "1st", "1er"; "3rd" ->
// "3.", "3e"; nullopt when it is no ordinal of one to three digits or the language is unknown.
std::optional<std::string> ordinal_in(std::string_view word, Language language);

}  // namespace attend
