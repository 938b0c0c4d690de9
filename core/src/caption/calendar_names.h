// Months and weekdays in the shipped models' languages (English, German, French): no name after a
// set phrase ("See you Monday!" is no greeting of someone called Monday: caption/set_phrases.h).
#pragma once

#include <string_view>

namespace attend {

// Whether `word` is a month or weekday: English and German capitalised ("March", "März",
// "Sonnabend"), French in lowercase ("mars", "lundi") or capitalised where a French sentence
// opens ("Lundi, …"; `opens_french_sentence`), never "Mars", the planet.
bool is_calendar_name(std::string_view word, bool opens_french_sentence);

// Whether `word` names a month or weekday after `word_before` (the word before it, in lowercase;
// empty at a sentence's opening): always, but for the months that are first names too ("April",
// "May", "June", "August"), which only after a preposition of time ("in June", "since May", "im
// August", "en août"; not "with April", "named May").
bool reads_as_calendar_name(std::string_view word, std::string_view word_before);

}  // namespace attend
