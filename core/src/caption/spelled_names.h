// Names the source vocabulary spells out nearly letter by letter ("California" -> ▁C al i f or n i a,
// "Xiaoming" -> ▁ X i a om ing): the shipped models have not seen them and invent a word for them
// ("an einem sehr BMX-Mo-Sch-Sch-…"), so they pass through like unknown pieces (pipeline/pass_through.h).
#pragma once

#include <string_view>
#include <vector>

#include "caption/function_words.h"
#include "text/words.h"
#include "caption/recasing.h"
#include "text/letter_case.h"
#include "tokenizer/tokenizer.h"

namespace attend {

// KnowsLowercase (text/letter_case.h) from the source tokenizer: the word lowercased (text/letter_case.h), "▁" in front.
KnowsLowercase knows_lowercase(const Tokenizer& tokenizer);

// The words of `text` (between whitespace, without the ASCII punctuation around them) that begin
// with a capital A-Z, do not begin a sentence, and that `tokens` (text's encode_with_offsets) cut
// into pieces of two characters or fewer on average, whose longest part between apostrophes is
// more than one piece ("I'm" -> ▁I ' m is the pronoun; "Tyson's" -> ▁T y s on ' s is a name): three or more pieces ("California" -> ▁C al
// i f or n i a), or two of a word the vocabulary does not know in lowercase ("Tom" -> ▁T om, but
// not "Mom" -> ▁Mo m, a common word capitalised). Two pieces are weaker evidence: those pass only
// where no other capitalised word is known ("Ein Reh springt über einen Zaun": a German noun). None
// when such words are outnumbered by capitalised words the vocabulary knows: text that capitalises
// its nouns (German "Ein Kind steht um einen Hahn im Käfig") does not mark names by their capital.
// The pronoun "I" ("I'm") is no such word. A title before its dot ("Mr. Smith") is no name, and
// neither it nor initials ("J.P. Morgan", "the U.S. team", their dot the name's) end a sentence
// (text/false_break.h). Acronyms, words of two or more capitals A-Z the vocabulary cuts into two
// or more pieces ("IBM" -> ▁I B M), are names wherever they stand, sentence starts and German
// text included: "A man works at IBM in New York." lost IBM beside New York. So are words with a
// capital A-Z after a lowercase a-z that the vocabulary cuts into two or more pieces ("iPhone",
// "eBay", "McDonald's": "on her iPhone" was dropped), their part between hyphens only ("FedEx" of
// "FedEx-Fahrer") and after a French elision ("iPhone" of "l'iPhone"); not German "LehrerInnen". So are months and weekdays (caption/calendar_names.h: English and German
// capitalised, French in lowercase, or capitalised opening a sentence when `language`, the model
// file's source language, is French) the vocabulary cuts into three or more pieces, or two not at a
// sentence start or opening a French one ("in March", "am Freitag", "en janvier", "Mardi, …"). In text order.
std::vector<ByteRange> spelled_names(std::string_view text, const std::vector<TokenSpan>& tokens,
                                     const KnowsLowercase& knows, Language language);

}  // namespace attend
