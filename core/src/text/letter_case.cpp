#include "text/letter_case.h"

#include <cstddef>
#include <utility>
#include <vector>

namespace attend {
namespace {

// Letters are ASCII or Latin-1 ("À".."Þ" and "ß".."ÿ", two bytes in UTF-8 after 0xC3).
enum class Letter { none, upper, lower };

// The letter at text[i] and its length in bytes.
Letter letter_at(std::string_view text, size_t i, size_t* length) {
  *length = 1;
  const auto c = static_cast<unsigned char>(text[i]);
  if (c >= 'A' && c <= 'Z') return Letter::upper;
  if (c >= 'a' && c <= 'z') return Letter::lower;
  if (c != 0xC3 || i + 1 >= text.size()) return Letter::none;
  *length = 2;
  const auto second = static_cast<unsigned char>(text[i + 1]);
  if (second >= 0x80 && second <= 0x9E && second != 0x97) return Letter::upper;  // U+00C0..U+00DE but ×
  if (second >= 0x9F && second <= 0xBF && second != 0xB7) return Letter::lower;  // U+00DF..U+00FF but ÷
  return Letter::none;
}

// The capital at text[at] (`length` bytes) in lowercase: 'A' + 32 = 'a'; 0xC3 0x89 + 32: é.
void lowercase(std::string* text, size_t at, size_t length) {
  (*text)[at + length - 1] = static_cast<char>((*text)[at + length - 1] + 0x20);
}

}  // namespace

bool is_all_caps(std::string_view text) {
  int capital_words = 0, run = 0;
  for (size_t i = 0, length; i < text.size(); i += length) {
    const Letter letter = letter_at(text, i, &length);
    if (letter == Letter::lower) return false;
    if (letter == Letter::upper) {
      ++run;
      continue;
    }
    capital_words += run >= 2;
    run = 0;
  }
  capital_words += run >= 2;
  return capital_words >= 2;
}

std::string to_lowercase(std::string_view text) {
  std::string out(text);
  for (size_t i = 0, length; i < out.size(); i += length) {
    if (letter_at(out, i, &length) == Letter::upper) lowercase(&out, i, length);
  }
  return out;
}

std::string sentence_case_if_all_caps(std::string_view text) {
  std::string out(text);
  if (!is_all_caps(text)) return out;
  bool first = true;
  for (size_t i = 0, length; i < out.size(); i += length) {
    if (letter_at(out, i, &length) != Letter::upper) continue;
    if (!first) lowercase(&out, i, length);
    first = false;
  }
  return out;
}

std::string lowercase_shouted_words(std::string_view text, const KnowsLowercase& knows_lowercase) {
  std::string out(text);
  bool sentence_start = true;  // no word yet, or . ! ? since the last one
  size_t length = 0;
  for (size_t i = 0; i < out.size();) {
    if (letter_at(out, i, &length) == Letter::none) {
      sentence_start = sentence_start || out[i] == '.' || out[i] == '!' || out[i] == '?';
      i += length;
      continue;
    }
    const size_t begin = i;
    std::vector<std::pair<size_t, size_t>> letters;  // each letter's offset and length in bytes
    bool all_capitals = true;
    for (Letter letter; i < out.size() && (letter = letter_at(out, i, &length)) != Letter::none; i += length) {
      all_capitals = all_capitals && letter == Letter::upper;
      letters.emplace_back(i, length);
    }
    if (all_capitals && letters.size() >= 3 && knows_lowercase(std::string_view(out).substr(begin, i - begin))) {
      for (size_t k = sentence_start ? 1 : 0; k < letters.size(); ++k) lowercase(&out, letters[k].first, letters[k].second);
    }
    sentence_start = false;
  }
  return out;
}

}  // namespace attend
