// German ordinals written as a number and a dot ("Der 1. Platz", "am 25. Mai", "zum 3. Mal"): the
// dot is no full stop. UAX #29 broke "Der 1. Platz geht an einen Jungen." after "1." and the
// models read "Der 1." alone ("The 1 1. A group of boys walking in a plaza.").
#pragma once

#include <cstddef>
#include <string_view>

namespace attend {

// Whether the dot at text[dot] ends a German ordinal (text/false_break.h is_ordinal_dot for "de":
// before a capitalised word that is not one German sentences open with, "Es", "Dann", "Der",
// "Mein"), in text guessed German (caption/function_words.h)
// or before a month or weekday spelled the German way ("Treffen am 14. Juli um 20 Uhr.", which
// holds no function word the guess knows).
// "Er ist 5. Dann geht er." ends a sentence; "Er ist 5. Zwei Hunde …" is read as an ordinal.
bool is_german_ordinal_dot(std::string_view text, size_t dot);

}  // namespace attend
