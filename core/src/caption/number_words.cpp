#include "caption/number_words.h"

#include <algorithm>
#include <iterator>

#include "text/ascii.h"
#include "text/letter_case.h"

namespace attend {
namespace {

constexpr std::string_view kNumberWords[] = {"number", "nummer", "num\xc3\xa9ro", "no.", "nr.", "n\xc2\xb0"};  // numéro n°

constexpr std::string_view kNumberStandIns[] = {"4", "6"};

}  // namespace

bool follows_number_word(std::string_view text, size_t at) {
  size_t end = at;
  if (end > 0 && text[end - 1] == ' ') --end;
  size_t begin = end;
  while (begin > 0 && !is_ascii_space(text[begin - 1])) --begin;
  while (begin < end && is_ascii_punctuation(text[begin])) ++begin;  // "(Nr."
  const std::string word = to_lowercase(text.substr(begin, end - begin));
  const auto ends_with = [&](std::string_view suffix) {
    return word.size() >= suffix.size() && word.compare(word.size() - suffix.size(), suffix.size(), suffix) == 0;
  };
  return ends_with("nummer") || std::find(std::begin(kNumberWords), std::end(kNumberWords), word) != std::end(kNumberWords);
}

std::vector<ByteRange> numbers_after_number_words(std::string_view text) {
  std::vector<ByteRange> numbers;
  for (size_t begin = 0; begin < text.size(); ++begin) {
    if (!is_ascii_digit(text[begin])) continue;
    size_t end = begin + 1;
    while (end < text.size() && is_ascii_digit(text[end])) ++end;
    if (follows_number_word(text, begin)) numbers.push_back(ByteRange{begin, end});
    begin = end - 1;
  }
  return numbers;
}

std::string number_stand_in(std::string_view text) {
  for (std::string_view digit : kNumberStandIns) {
    if (text.find(digit) == std::string_view::npos) return std::string(digit);
  }
  return "";
}

}  // namespace attend
