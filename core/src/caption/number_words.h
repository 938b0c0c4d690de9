// A number after a number word ("the number 7", "Nummer 7", "numéro 7", "No. 7", "Nr. 7", "n° 7";
// German compounds, "Startnummer 7") names something: it is no quantity the model may write as a
// word, and the shipped models replaced it ("mit der Nummer 7" -> "Nummer 5", "number 47"). Cut
// out, the hole was no better: the models wrote a number of their own there ("the number 7
// eight", "Nummer 1102 11"). So it passes through and the model reads a stand-in digit in its place.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "text/words.h"

namespace attend {

// Whether the word before text[at], after at most one space, is a number word (brackets or
// quotes before it aside, any German compound ending in "nummer").
bool follows_number_word(std::string_view text, size_t at);

// The runs of ASCII digits of `text` right after a number word, single digits included.
std::vector<ByteRange> numbers_after_number_words(std::string_view text);

// What the model reads in place of such a number in `text`: "4", or "6" when `text` holds a 4 (a
// real 4 would be taken for the stand-in); empty when it holds both, and the number is only cut
// out. Of the digits they were given, the shipped models copied 4 and 6 in every direction.
std::string number_stand_in(std::string_view text);

}  // namespace attend
