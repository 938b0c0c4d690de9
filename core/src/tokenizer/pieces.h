// What SentencePiece pieces say of words: a piece opening with "▁" opens one.
#pragma once

#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "tokenizer/tokenizer.h"

namespace attend {

inline constexpr std::string_view kWordStart = "\xE2\x96\x81";  // ▁

// The pieces [begin, end) of one word.
struct WordSpan {
  int begin = 0;
  int end = 0;
};

// Whether a SentencePiece piece starts a word (begins with "▁").
bool opens_word(const std::string& piece);

// `piece` without the "▁" that opens a word (3 bytes), if it has one.
std::string_view without_word_start(std::string_view piece);

// The words of SentencePiece pieces: a piece starting with "▁" opens a word, any other piece
// (a continuation, punctuation glued to the word before) joins the current word; the first
// piece always opens one. Pass the pieces to consider only (no eos).
std::vector<WordSpan> piece_words(const std::vector<std::string>& pieces);

// Whether `tokenizer`'s vocabulary holds a word whole (as one piece after ▁).
std::function<bool(std::string_view)> knows_whole_word(const Tokenizer& tokenizer);

}  // namespace attend
