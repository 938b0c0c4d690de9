// Numbers with separators and currency signs, as the shipped models' languages write them:
// English "3.5", "1,000.50", "$12.99", "€5"; German "3,5", "1.000,50", "12,99 $", "5 €"; French
// "3,5", "1 000,50" (a narrow no-break space), "12,99 $". A number passes through the model as
// written (pipeline/pass_through.h), so without this rule a German translation kept the English
// "Der Hund wiegt 3.5." and an English one "12,99 €": written the translation's way, a rule
// needing no model.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

#include "caption/function_words.h"

namespace attend {

// `text` (a span of the source, perhaps with words already written the translation's way) with
// its numbers read as `source` writes them and written as `target` does: the decimal separator
// and the thousands separators (only where the source had them: "2024" stays), and a currency
// sign ($ € £ ¥) right before or after the number and at most one space moved to the side the
// target puts it on; a % or degree sign after it set apart by a space in German and French and
// a % not in English ("50%" <-> "50 %", "25°C" -> "25 °C"). A run of digits and separators that is no number in `source` stays as
// written: "1,5" in English, "3.5" in German (a date's "3.5." too), a version "3.5.1", an address
// "192.168.0.1", a time "10:30", "5-7", "1/2". `text` itself when either language is unknown.
std::string numbers_in(std::string_view text, Language source, Language target);

// The end of the groups of thousands French writes after the number ending at text[at], each a
// space (a no-break or narrow one too) and three digits ("1 200 €": the end of "200"); `at` when
// there are none.
size_t french_thousands_end(std::string_view text, size_t at);

}  // namespace attend
