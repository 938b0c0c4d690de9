// Clock times as the shipped models' languages write them: English "5 p.m." / "10:45 a.m.",
// German "20 Uhr" / "8.30 Uhr", French "20 h" / "8 h 30". The models misread every one of them
// ("um 20 Uhr" -> "a 20 watch", "à 8 h 30" -> "8 8 30"), so they pass through the model
// (decode/pass_through.h) and are written the translation's way, a rule needing no model.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "text/function_words.h"

namespace attend {

// `text` written as a clock time of `language` ("20 Uhr" -> "8 p.m.", "20 h"; "5 p.m." -> "17 Uhr",
// "17 h"; "8 h 30" -> "8:30", "8:30 Uhr": English hours up to 12 on the 24-hour clock, since "8
// Uhr" may be said of the evening); nullopt when it is no clock time (only the whole of `text`:
// "5 p.m" too, whose last dot the sentence kept), or the language is unknown.
std::optional<std::string> clock_time_in(std::string_view text, Language language);

}  // namespace attend
