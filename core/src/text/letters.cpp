#include "text/letters.h"

#include <array>
#include <cstdint>
#include <utility>

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
    const auto lead = static_cast<unsigned char>(text[i]);
    const size_t length = lead < 0x80 ? 1 : lead < 0xE0 ? 2 : lead < 0xF0 ? 3 : 4;
    uint32_t code_point = length == 1 ? lead : lead & (0x3F >> (length - 1));
    for (size_t k = 1; k < length && i + k < text.size(); ++k) {
      code_point = (code_point << 6) | (static_cast<unsigned char>(text[i + k]) & 0x3F);
    }
    if (is_letter(code_point)) return true;
    i += length;
  }
  return false;
}

}  // namespace attend
