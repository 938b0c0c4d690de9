// A sentence that opens in lowercase continues one before it: the document plan cuts "Hi Tom,
// thanks for your message!" after its greeting (text/set_phrases.h opening_phrase_length), and
// people write "two dogs play." The shipped models open every translation with a capital, as
// Multi30k's captions do ("Hallo Tom, Vielen Dank …", "Sehr geehrte Frau Jones, Zwei Hunde …").
// A translation of such a source opens in lowercase where its first word is one the target
// vocabulary holds in lowercase as a whole word ("▁zwei", "▁vielen"); a noun the vocabulary holds
// only with its capital ("Hund"), a word of several pieces and English "I" keep theirs.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "decode/search.h"
#include "tokenizer/tokenizer.h"

namespace attend {

// Whether the source's first word (its first piece with a letter, "▁" aside) opens with a
// lowercase letter.
bool opens_in_lowercase(const std::vector<int>& source_ids, const Tokenizer& source);

// Each hypothesis (best first) whose first piece is a whole word with a capital first ("▁Zwei"
// before "▁Hunde") made to open with that word in lowercase, when `target` holds it as one piece
// ("▁zwei"); one that then copies a better one is dropped (the beam may hold both cases), so the
// list may get shorter. Scores stay the search's, of what the model wrote.
void open_in_lowercase(std::vector<SearchHypothesis>& hypotheses, const Tokenizer& target);

// `text`, a translation written without the model (a set phrase, spans alone), opened in
// lowercase by the same rule: its first word, up to a space or punctuation, lowercased where
// `target` holds it so as one piece ("Vielen Dank!" -> "vielen Dank!").
std::string opened_in_lowercase(std::string_view text, const Tokenizer& target);

}  // namespace attend
