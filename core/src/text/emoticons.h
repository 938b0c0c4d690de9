// Emoticons typed in ASCII (":)", ";-)", ":D", "<3", "^_^"): the shipped models read their
// punctuation and dropped them or made words of them ("A dog plays in the park :)" -> "Ein Hund
// spielt im Park Saxofon."), while emoji, unknown pieces, came through. So they pass through like emoji
// (pipeline/pass_through.h). Faces among them also end sentences (text/faces.h).
#pragma once

#include <string_view>
#include <vector>

#include "text/words.h"

namespace attend {

// Whether `word` (a whole word, no spaces) is one of the emoticons below.
bool is_emoticon(std::string_view word);
// "<3" or "</3".
bool is_heart(std::string_view word);

// `word` without a final , . ! or ? that belongs to the sentence (":)." and ";-)," give the
// emoticon).
std::string_view without_clause_mark(std::string_view word);

// The words of `text` (between spaces, text/words.h; without a , . ! or ? after them) that are
// an emoticon: eyes (: ; =), maybe a tear ('), maybe a nose (- ^ o), and one or more of the same
// mouth () ( ] [ D P p O o / \ | * 3 $ @ { }), as in ":)", ":'(", ";-)" and ":DD"; a heart ("<3",
// "</3"); a face of two eyes around a mouth ("^_^", "-_-", "T_T", ">_<"; "." only between round
// eyes: "o.O", "^.^") or "^^"; or "xD". In text order.
std::vector<ByteRange> emoticons(std::string_view text);

}  // namespace attend
