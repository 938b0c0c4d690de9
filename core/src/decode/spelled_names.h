// Names the source vocabulary spells out nearly letter by letter ("California" -> ▁C al i f or n i a,
// "Xiaoming" -> ▁ X i a om ing): the shipped models have not seen them and invent a word for them
// ("an einem sehr BMX-Mo-Sch-Sch-…"), so they pass through like unknown pieces (decode/pass_through.h).
#pragma once

#include <string_view>
#include <vector>

#include "decode/pass_through.h"
#include "tokenizer/tokenizer.h"

namespace attend {

// The words of `text` (between whitespace, without the ASCII punctuation around them) that begin
// with a capital A-Z, do not begin a sentence, and that `tokens` (text's encode_with_offsets) cut
// into at least three pieces of two characters or fewer on average. None when such words are
// outnumbered by capitalised words the vocabulary knows: text that capitalises its nouns (German
// "Ein Kind steht um einen Hahn im Käfig") does not mark names by their capital. In text order.
std::vector<ByteRange> spelled_names(std::string_view text, const std::vector<TokenSpan>& tokens);

}  // namespace attend
