// Clock times as the shipped models' languages write them: English "5 p.m." / "10:45 a.m.",
// German "20 Uhr" / "8.30 Uhr", French "20 h" / "8 h 30". The models misread every one of them
// ("um 20 Uhr" -> "a 20 watch", "à 8 h 30" -> "8 8 30"), so they pass through the model
// (pipeline/pass_through.h) and are written the translation's way, a rule needing no model.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "caption/function_words.h"

namespace attend {

// `text` written as a clock time of `language` ("20 Uhr" -> "8 p.m.", "20 h"; "5 p.m." -> "17 Uhr",
// "17 h"; "8 h 30" -> "8:30", "8:30 Uhr": English hours up to 12 on the 24-hour clock, since "8
// Uhr" may be said of the evening), with its preposition when it has one ("at", "um", "à";
// "around", "gegen", "vers": "um 20 Uhr" -> "at 8 p.m.", "à 20 h"), after which an hour with
// minutes and a colon is a clock time too ("at 8:15" -> "um 8:15 Uhr", "à 8 h 15"). The models
// dropped the preposition beside a clock time passed through them ("attend le bus 17 h").
// nullopt when it is no clock time (only the whole of `text`: "5 p.m" too, whose last dot the
// sentence kept), or the language is unknown.
std::optional<std::string> clock_time_in(std::string_view text, Language language);

// `text` written as a range of clock times of `language`, when the whole of it is one: a start
// (a clock time, or an hour with or without minutes that takes the end's clock), "bis", "to", "à"
// or a dash, or "und", "and", "et", and a clock time, after "von", "from", "de" or "zwischen",
// "between", "entre" or no word ("von 10 bis 20 Uhr" -> "from 10 a.m. to 8 p.m.", "de 10 h à 20
// h"; "9 to 5 p.m." -> "9 bis 17 Uhr": a bare start is on the end's half of the day when it is
// earlier than the end, else on the other; "zwischen 8 und 10 Uhr" -> "between 8:00 and 10:00").
// Passed as two spans the models read "von bis geöffnet", and "10" kept no clock ("from 10 to 8
// p.m."). English writes both ends on the 12-hour clock when either end is after noon or the
// source's was, the start's a.m. or p.m. only where it differs from the end's; German writes its
// Uhr once ("von 9 bis 17 Uhr"). After "at", "um" or "à" a range is one from its start ("um 8
// Uhr bis 9 Uhr" -> "from 8:00 to 9:00"); after "around", "gegen" or "vers" it keeps that word.
// nullopt when `text` is no such range or the language is unknown.
std::optional<std::string> clock_range_in(std::string_view text, Language language);

// `text`, a French number of hours after `word_before` that makes it a duration ("dure",
// "durent", "durée", "pendant", "en", "environ"), or a range of them ("3 h", "3h", "2 à 3 h", "de
// 2 à 3 h", "2-3 h", "2 ou 3 h"), written as `language` writes a duration: "3 hours", "3 Stunden",
// "3 h" ("1 hour", "1 Stunde"), "2 to 3 hours", "2 bis 3 Stunden", "2 or 3 hours". Read as clock
// times, "La visite dure de 2 à 3 h." became "… from 2:00 to 3:00". nullopt when it is none, or
// the language is unknown.
std::optional<std::string> french_duration_in(std::string_view text, std::string_view word_before, Language language);

// Where the phrase the clock time text[time_begin, time_end) ends begins: a range of clock times
// (clock_range_in; at its "von", "from", ... when it has one), else the time's preposition
// (clock_time_in): "von 10 bis 20 Uhr" of "Offen von 10 bis 20 Uhr.", "um 20 Uhr" of "Treffen um
// 20 Uhr.", "at 8:15" of "We meet at 8:15." (where "8:15" is a time only after its preposition);
// std::string_view::npos when it ends neither.
size_t clock_phrase_begin(std::string_view text, size_t time_begin, size_t time_end);

}  // namespace attend
