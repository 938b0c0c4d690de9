// A sentence that opens in lowercase continues one before it: the document plan cuts "Hi Tom,
// two dogs play." after its greeting (caption/set_phrases.h opening_phrase_length), and people write
// "two dogs play." The shipped models open every translation with a capital, as Multi30k's
// captions do ("Hallo Tom, Zwei Hunde spielen …"). A translation of such a source opens in
// lowercase where its first word is written so inside a sentence: in English and French, a word
// the target vocabulary also holds in lowercase as a whole word ("▁The" -> "▁the"); in German,
// which capitalises its nouns ("Essen", not the verb "essen"), only a function word, a number
// or a question word ("▁Zwei" -> "▁zwei", "▁Wie" -> "▁wie"). English "I", a word of several
// pieces and a word the rule does not know keep their capital.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "attend/translator.h"
#include "caption/function_words.h"
#include "tokenizer/tokenizer.h"

namespace attend {

// Whether the source's first word (its first piece with a letter, "▁" aside) opens with a
// lowercase letter.
bool opens_in_lowercase(const std::vector<int>& source_ids, const Tokenizer& source);

// Each hypothesis (best first) whose first piece is a whole word ("▁Zwei" before "▁Hunde", not
// "▁Zwei" before "-") that `language` writes in lowercase inside a sentence made to open with
// that word's lowercase piece, when `target` holds it; one that then copies a better one is dropped
// (the beam may hold both cases), so the list may get shorter. Scores stay the search's, of what
// the model wrote. `language` unknown: German's rule.
void open_in_lowercase(std::vector<Hypothesis>& hypotheses, const Tokenizer& target, Language language);

// `text`, a translation written without the model (a set phrase, spans alone), opened in
// lowercase by the same rule, its first word read up to a space or punctuation ("Wie geht es
// Ihnen?" -> "wie geht es Ihnen?").
std::string opened_in_lowercase(std::string_view text, const Tokenizer& target, Language language);

}  // namespace attend
