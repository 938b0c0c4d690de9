#include "text/words.h"

#include "text/ascii.h"
#include "text/letter_case.h"

namespace attend {

size_t space_at(std::string_view text, size_t at) {
  static constexpr std::string_view kWideSpaces[] = {"\u00A0", "\u202F"};
  if (is_ascii_space(text[at])) return 1;
  for (std::string_view space : kWideSpaces) {
    if (text.substr(at, space.size()) == space) return space.size();
  }
  return 0;
}

size_t space_before(std::string_view text, size_t at) {
  for (size_t width = 1; width <= 3 && width <= at; ++width) {
    if (space_at(text, at - width) == width) return width;
  }
  return 0;
}

bool ends_text(std::string_view text, size_t at) {
  static constexpr std::string_view kClosers[] = {"\"", "'", ")", "]", "}", "\u201D", "\u2019", "\u00BB", "\u201C"};
  while (at < text.size()) {
    size_t length = space_at(text, at);
    for (std::string_view closer : kClosers) {
      if (length == 0 && text.substr(at, closer.size()) == closer) length = closer.size();
    }
    if (length == 0) return false;
    at += length;
  }
  return true;
}

size_t apostrophe_at(std::string_view text, size_t at) {
  static constexpr std::string_view kApostrophes[] = {"'", "\u2019"};
  for (std::string_view apostrophe : kApostrophes) {
    if (text.substr(at, apostrophe.size()) == apostrophe) return apostrophe.size();
  }
  return 0;
}

std::vector<ByteRange> words_between_spaces(std::string_view text) {
  std::vector<ByteRange> words;
  for (size_t at = 0; at < text.size();) {
    if (const size_t space = space_at(text, at)) {
      at += space;
      continue;
    }
    ByteRange word{at, at};
    while (word.end < text.size() && space_at(text, word.end) == 0) ++word.end;
    words.push_back(word);
    at = word.end;
  }
  return words;
}

ByteRange without_punctuation(std::string_view text, ByteRange range, bool keep_dot) {
  while (range.begin < range.end && is_ascii_punctuation(text[range.begin])) ++range.begin;
  while (range.end > range.begin && is_ascii_punctuation(text[range.end - 1]) && !(keep_dot && text[range.end - 1] == '.')) {
    --range.end;
  }
  return range;
}

std::string word_before_in_sentence(std::string_view text, const std::vector<ByteRange>& words, size_t i) {
  if (i == 0) return "";
  const std::string_view before = slice(text, words[i - 1]);
  const bool ordinal = before.size() >= 2 && before.back() == '.' && is_ascii_digit(before[before.size() - 2]);
  if (std::string_view(".!?:").find(before.back()) != std::string_view::npos && !ordinal) return "";
  return to_lowercase(slice(text, without_punctuation(text, words[i - 1])));
}

}  // namespace attend
