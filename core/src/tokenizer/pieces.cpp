#include "tokenizer/pieces.h"

namespace attend {

bool opens_word(const std::string& piece) { return piece.rfind(kWordStart, 0) == 0; }

std::string_view without_word_start(std::string_view piece) {
  if (piece.substr(0, kWordStart.size()) == kWordStart) piece.remove_prefix(kWordStart.size());
  return piece;
}

std::vector<WordSpan> piece_words(const std::vector<std::string>& pieces) {
  std::vector<WordSpan> words;
  for (int i = 0; i < static_cast<int>(pieces.size()); ++i) {
    if (words.empty() || opens_word(pieces[i])) {
      words.push_back(WordSpan{i, i + 1});
    } else {
      words.back().end = i + 1;
    }
  }
  return words;
}

std::function<bool(std::string_view)> knows_whole_word(const Tokenizer& tokenizer) {
  return [&tokenizer](std::string_view word) {
    return tokenizer.piece_to_id(std::string(kWordStart) + std::string(word)) != tokenizer.unk_id();
  };
}

}  // namespace attend
