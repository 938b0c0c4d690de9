// Months and weekdays in the shipped models' languages (English, German, French). Multi30k's
// captions hardly name them, so the shipped vocabularies spell them in pieces ("▁Mar ch",
// "▁Frei tag", "▁ja n vi er") and the models mangled them ("in March" -> "in New York", "en
// janvier" -> "in a tub"): they pass through the model (caption/spelled_names.h) and are written
// in the translation's language, a closed list needing no model.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "caption/function_words.h"
#include "text/words.h"

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

// The one language that writes `word` as a month or weekday ("Saturday": English, "Mai": German,
// "lundi": French), or unknown (none, or two alike: "April").
Language language_of_calendar_name(std::string_view word);

// Whether `word` is a month (any of the three languages; French capitalised too, but "Mars").
bool is_month_name(std::string_view word);

// `text`, a day and its month ("25. Mai", "May 25", "May 25th", "5th May", "25 mai", "1er mai"),
// perhaps with a year ("25. Mai 2024", "May 25, 2024"), written as `language` writes a date: "May
// 25, 2024", "25. Mai 2024", "25 mai 2024" ("1er mai"); nullopt when it is no such date (only the
// whole of `text`; a day past its month's end, "31. Februar") or the language is unknown.
std::optional<std::string> date_in(std::string_view text, Language language);

// `text`, a date (date_in) after the preposition its language puts before one for a point in
// time: "on May 25", "am 25. Mai", "le 25 mai" (capitalised too; French "le" not after a
// preposition or "c'est", `word_before` in lowercase: "depuis le 3 mai" is no such "le"), written as
// `language` writes one: "on May 25", "am 25. Mai", "le 25 mai"; nullopt when it is none (only the
// whole of `text`) or the language is unknown. Without it the models lost the preposition or read
// "le" as "the" ("Am 3. Oktober feiern viele …" -> "A October 3 crowd …", "Le 14 juillet, …" ->
// "The you July 14, …").
std::optional<std::string> date_with_preposition_in(std::string_view text, std::string_view word_before, Language language);

// `text`, a range of two dates (date_in), after "from", "von", "vom" or "du" or not: "from December
// 24 to January 2", "vom 24. Dezember bis zum 2. Januar", "24. Dezember bis 2. Januar", "du 24
// décembre au 2 janvier", "May 1 - May 3", written as `language` writes one: "(from) December 24
// to January 2", "vom 24. Dezember bis zum 2. Januar" ("24. Dezember bis 2. Januar" without its
// "vom"), "du 24 décembre au 2 janvier"; nullopt when it is none (only the whole of `text`) or the
// language is unknown. The models lost the "from … to" between the two ("… geschlossenen von 24.
// Dezember einem Geschäft aufgestellt 2. Januar.").
std::optional<std::string> date_range_in(std::string_view text, Language language);

// `text`, a range of two weekdays or two months, after "from", "von", "du" or "de" or not:
// "Monday to Friday", "from March through May", "von Montag bis Freitag", "Montag-Freitag", "du
// lundi au vendredi", "de mars à mai", written as `language` writes one: "(from) Monday to
// Friday", "(von) Montag bis Freitag", "du lundi au vendredi", "de mars à mai" ("d'avril à juin");
// nullopt when it is none (only the whole of `text`) or the language is unknown.
std::optional<std::string> calendar_range_in(std::string_view text, Language language);

// `text`, a weekday as a habit after `word_before` (the word before it, in lowercase without
// punctuation; empty where a sentence opens): English "on Sundays", or "Sundays" opening a
// sentence or after "closed" or "open" (not "two Sundays a month"), German "sonntags"
// ("Sonntags" opening a sentence: elsewhere a noun's genitive, "eines Sonntags"), French "les
// dimanches", written as `language` writes one: "on Sundays", "sonntags", "le dimanche"; nullopt
// when it is none (only the whole of `text`) or the language is unknown. The models read the
// plural as a name ("geschlossen auf Sundays") and "sonntags" as "on their day".
std::optional<std::string> weekly_day_in(std::string_view text, std::string_view word_before, Language language);

// `text`, a weekday or month after the preposition of a point in time its language puts before
// it: English "on Friday", "in March", German "am Freitag", "im März" (capitalised too, "On
// Friday"), French "en mars", written as `language` writes one: "on Friday", "am Freitag",
// "vendredi" (French puts none before a weekday); "in March", "im März", "en mars". nullopt when
// it is none (only the whole of `text`) or the language is unknown. Given the preposition, the
// models read it as one of a place beside the hole ("Les enfants jouent sur vendredi un jeu.",
// "Die Kinder spielen auf Freitag dem Boden.").
std::optional<std::string> calendar_name_with_preposition_in(std::string_view text, Language language);

// The ranges calendar_range_in reads in `text`, each whole with its "from", ... and without the
// punctuation around it, the weekly days weekly_day_in reads and the weekdays and months with
// their preposition calendar_name_with_preposition_in reads, and the dates with their preposition
// date_with_preposition_in reads, the ranges of dates date_range_in reads (a French "Le" opening a sentence only before a comma: "Le 14
// juillet, …"; "Le 14 juillet est …" is the subject's article), in text order. Passed as two names,
// "Monday to Friday" was read "to" and lost it ("Montag Freitag").
std::vector<ByteRange> calendar_ranges(std::string_view text);

}  // namespace attend
