// Sentence breaks that UAX #29 takes and a reader would not: after a title or another
// abbreviation of the text's language (text/abbreviations.h), initials and dotted acronyms ("Mr.
// Smith", "e.g. Paris", "J.P. Morgan"; a clock's "p.m." only before a weekday, month or time
// zone: "5 p.m. Monday to Friday"), an ordinal's dot where the language writes one ("Der 1.
// Platz"), and before a lowercase letter („Wo ist er?“ fragte sie.).
#pragma once

#include <cstddef>
#include <string_view>

namespace attend {

// Whether `word` (without its dot, any case) is a title that stands before a name in any
// language of text/abbreviations.h: "Mr", "Dr", "Prof", "St", "Mme", ...
bool is_title(std::string_view word);

// Whether the dot at text[dot] marks an ordinal in `language` (a BCP-47 code; only a language
// whose entry lists openers_after_number writes them so): after a number of one to three digits
// that follows a word on the same line, before a space and a capitalised word that is not one
// of those openers ("Der 1. Platz", "Am 25. Mai"; not "Das Kind ist 5. Es spielt.").
bool is_ordinal_dot(std::string_view text, size_t dot, std::string_view language);

// Whether a sentence break between `before` (the text up to the break, trailing whitespace
// included) and `after` (the text from the break on) is one of those, in text of `language`.
bool is_false_break(std::string_view before, std::string_view after, std::string_view language);

}  // namespace attend
