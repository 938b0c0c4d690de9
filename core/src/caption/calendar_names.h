// Months and weekdays in the shipped models' languages (English, German, French). Multi30k's
// captions hardly name them, so the shipped vocabularies spell them in pieces ("▁Mar ch",
// "▁Frei tag", "▁ja n vi er") and the models mangled them ("in March" -> "in New York", "en
// janvier" -> "in a tub", "Saturday afternoon" -> "afternoon"): they pass through the model
// (caption/spelled_names.h) and are written in the translation's language, a closed list. No
// name after a set phrase either ("See you Monday!": caption/set_phrases.h).
#pragma once

#include <string>
#include <string_view>

#include "caption/function_words.h"

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

// `word`'s month or weekday (as is_calendar_name reads it) in `language`: capitalised in English
// and German, in lowercase in French ("Freitag" -> "Friday", "vendredi"); `word` itself when it
// is none or the language is unknown.
std::string calendar_name_in(std::string_view word, bool opens_french_sentence, Language language);

}  // namespace attend
