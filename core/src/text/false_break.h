// Sentence breaks that UAX #29 takes and a reader would not: after a title, a Latin or German
// abbreviation, initials and dotted acronyms ("Mr. Smith", "e.g. Paris", "J.P. Morgan"; a clock's
// "p.m." only before a weekday, month or time zone: "5 p.m. Monday to Friday"), a German
// ordinal ("Der 1. Platz", text/german_ordinal.h), and before a lowercase letter („Wo ist er?“
// fragte sie.).
#pragma once

#include <string_view>

namespace attend {

// Whether `word` (without its dot, any case) is a title that stands before a name: "Mr", "Dr",
// "Prof", "St", "Mme", ... (en, de, fr).
bool is_title(std::string_view word);

// Whether a sentence break between `before` (the text up to the break, trailing whitespace
// included) and `after` (the text from the break on) is one of those.
bool is_false_break(std::string_view before, std::string_view after);

}  // namespace attend
