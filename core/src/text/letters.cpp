#include "text/letters.h"

#include <array>
#include <cstdint>
#include <utility>

#include "text/utf8.h"

namespace attend {
namespace {

// Code points above ASCII that are never letters: Latin-1 punctuation and symbols, general
// punctuation to dingbats and arrows (U+2000–U+2BFF), CJK punctuation, variation selectors,
// fullwidth ASCII punctuation, and the emoji and symbol planes.
constexpr std::array<std::pair<uint32_t, uint32_t>, 11> kNonLetters = {{
    {0x80, 0xBF}, {0xD7, 0xD7}, {0xF7, 0xF7}, {0x2000, 0x2BFF}, {0x3000, 0x303F}, {0xFE00, 0xFE0F},
    {0xFE30, 0xFE4F}, {0xFF01, 0xFF0F}, {0xFF1A, 0xFF20}, {0xFFF0, 0xFFFF}, {0x1F000, 0x1FAFF},
}};

bool is_letter(uint32_t code_point) {
  if (code_point < 0x80) {
    return (code_point >= 'A' && code_point <= 'Z') || (code_point >= 'a' && code_point <= 'z');
  }
  for (const auto& [first, last] : kNonLetters) {
    if (code_point >= first && code_point <= last) return false;
  }
  return code_point < 0xE0000;  // tags and private use are not letters either
}

}  // namespace

bool contains_letter(std::string_view text) {
  for (size_t i = 0; i < text.size();) {
    const CodePoint c = code_point_at(text, i);
    if (is_letter(c.value)) return true;
    i += c.length;
  }
  return false;
}

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

Letter first_letter(std::string_view text) {
  size_t length = 0;
  return text.empty() ? Letter::none : letter_at(text, 0, &length);
}

}  // namespace attend
