// A compact Unicode lowercase, equal to Python's str.lower() (the full case mapping of
// UnicodeData + SpecialCasing) on these ranges, checked code point by code point against
// Python 3.11:
//   ASCII; Latin-1 (U+00C0..U+00DE); Latin Extended-A and -B (U+0100..U+024F: Vietnamese
//   horn letters, schwa, African letters, Pinyin, Romanian, the DZ/LJ/NJ digraphs);
//   Latin Extended Additional (U+1E00..U+1EFF, capital sharp s U+1E9E -> U+00DF); Greek
//   (U+0386..U+03FF) with the final-sigma rule; Cyrillic (U+0400..U+052F); fullwidth Latin
//   (U+FF21..U+FF3A).
// U+0130 (capital I with dot) lowers to "i" + U+0307, as in Python.
// Not covered (left unchanged, where Python would lower them): Greek U+0370..U+0376, U+037F
// and Greek Extended, Armenian, Georgian, Cherokee, Glagolitic, Latin Extended-C/D/E,
// letterlike symbols (Kelvin, Angstrom, Ohm signs, Roman numerals), circled letters,
// Deseret and other non-BMP scripts. "Cased" and "case-ignorable" for the final sigma are
// approximated by the ranges above plus the common ignorable marks in is_case_ignorable.
#include "utf8_lower.h"

#include <algorithm>
#include <iterator>
#include <utility>

#include "utf8.h"

namespace attend::eval {

namespace {

bool in(char32_t c, char32_t first, char32_t last) { return c >= first && c <= last; }

// In a range of alternating upper/lower pairs, the upper one is at the even (or odd) offset.
char32_t pair_lower(char32_t c, bool upper_is_even) {
  return ((c % 2 == 0) == upper_is_even) ? c + 1 : c;
}

// The letters of U+0180..U+024F and U+03F4..U+03FF outside the regular pair ranges, as
// (upper, lower) sorted by upper; generated from Python's str.lower().
constexpr std::pair<char32_t, char32_t> kIrregularLower[] = {
    {0x0181, 0x0253}, {0x0182, 0x0183}, {0x0184, 0x0185}, {0x0186, 0x0254}, {0x0187, 0x0188},
    {0x0189, 0x0256}, {0x018A, 0x0257}, {0x018B, 0x018C}, {0x018E, 0x01DD}, {0x018F, 0x0259},
    {0x0190, 0x025B}, {0x0191, 0x0192}, {0x0193, 0x0260}, {0x0194, 0x0263}, {0x0196, 0x0269},
    {0x0197, 0x0268}, {0x0198, 0x0199}, {0x019C, 0x026F}, {0x019D, 0x0272}, {0x019F, 0x0275},
    {0x01A0, 0x01A1}, {0x01A2, 0x01A3}, {0x01A4, 0x01A5}, {0x01A6, 0x0280}, {0x01A7, 0x01A8},
    {0x01A9, 0x0283}, {0x01AC, 0x01AD}, {0x01AE, 0x0288}, {0x01AF, 0x01B0}, {0x01B1, 0x028A},
    {0x01B2, 0x028B}, {0x01B3, 0x01B4}, {0x01B5, 0x01B6}, {0x01B7, 0x0292}, {0x01B8, 0x01B9},
    {0x01BC, 0x01BD}, {0x01C4, 0x01C6}, {0x01C5, 0x01C6}, {0x01C7, 0x01C9}, {0x01C8, 0x01C9},
    {0x01CA, 0x01CC}, {0x01CB, 0x01CC}, {0x01F1, 0x01F3}, {0x01F2, 0x01F3}, {0x01F4, 0x01F5},
    {0x01F6, 0x0195}, {0x01F7, 0x01BF}, {0x0220, 0x019E}, {0x023A, 0x2C65}, {0x023B, 0x023C},
    {0x023D, 0x019A}, {0x023E, 0x2C66}, {0x0241, 0x0242}, {0x0243, 0x0180}, {0x0244, 0x0289},
    {0x0245, 0x028C}, {0x0246, 0x0247}, {0x0248, 0x0249}, {0x024A, 0x024B}, {0x024C, 0x024D},
    {0x024E, 0x024F}, {0x03F4, 0x03B8}, {0x03F7, 0x03F8}, {0x03F9, 0x03F2}, {0x03FA, 0x03FB},
    {0x03FD, 0x037B}, {0x03FE, 0x037C}, {0x03FF, 0x037D},
};

char32_t irregular_lower(char32_t c) {
  const auto* found = std::lower_bound(
      std::begin(kIrregularLower), std::end(kIrregularLower), c,
      [](const std::pair<char32_t, char32_t>& entry, char32_t key) { return entry.first < key; });
  return (found != std::end(kIrregularLower) && found->first == c) ? found->second : c;
}

char32_t lower_code_point(char32_t c) {
  if (c < 0x80) return in(c, 'A', 'Z') ? c + 32 : c;
  if (c < 0x100) return (in(c, 0xC0, 0xDE) && c != 0xD7) ? c + 32 : c;
  if (c < 0x180) {
    if (in(c, 0x0100, 0x012F) || in(c, 0x0132, 0x0137) || in(c, 0x014A, 0x0177)) {
      return pair_lower(c, true);
    }
    if (in(c, 0x0139, 0x0148) || in(c, 0x0179, 0x017E)) return pair_lower(c, false);
    return c == 0x0178 ? 0x00FF : c;
  }
  if (in(c, 0x01CD, 0x01DC)) return pair_lower(c, false);
  if (in(c, 0x01DE, 0x01EF) || in(c, 0x01F8, 0x021F) || in(c, 0x0222, 0x0233)) {
    return pair_lower(c, true);
  }
  if (c < 0x0250) return irregular_lower(c);
  if (in(c, 0x0386, 0x03FF)) {
    if (c == 0x0386) return 0x03AC;
    if (in(c, 0x0388, 0x038A)) return c + 37;
    if (c == 0x038C) return 0x03CC;
    if (in(c, 0x038E, 0x038F)) return c + 63;
    if (in(c, 0x0391, 0x03AB) && c != 0x03A2) return c + 32;
    if (c == 0x03CF) return 0x03D7;
    if (in(c, 0x03D8, 0x03EF)) return pair_lower(c, true);
    return irregular_lower(c);
  }
  if (in(c, 0x0400, 0x052F)) {
    if (c < 0x0410) return c + 80;
    if (c < 0x0430) return c + 32;
    if (in(c, 0x0460, 0x0481) || in(c, 0x048A, 0x04BF) || in(c, 0x04D0, 0x052F)) {
      return pair_lower(c, true);
    }
    if (c == 0x04C0) return 0x04CF;
    if (in(c, 0x04C1, 0x04CE)) return pair_lower(c, false);
    return c;
  }
  if (in(c, 0x1E00, 0x1EFF)) {
    if (c == 0x1E9E) return 0x00DF;
    return (c <= 0x1E95 || c >= 0x1EA0) ? pair_lower(c, true) : c;
  }
  return in(c, 0xFF21, 0xFF3A) ? c + 32 : c;
}

// Unicode "Cased", restricted to the letters of the ranges above.
bool is_cased(char32_t c) {
  return in(c, 'A', 'Z') || in(c, 'a', 'z') || c == 0xAA || c == 0xB5 || c == 0xBA ||
         (in(c, 0xC0, 0x02AF) && c != 0xD7 && c != 0xF7) || c == 0x0386 ||
         (in(c, 0x0388, 0x03FF) && c != 0x03F6) || in(c, 0x0400, 0x0481) || in(c, 0x048A, 0x052F) ||
         in(c, 0x1E00, 0x1EFF) || in(c, 0xFF21, 0xFF3A) || in(c, 0xFF41, 0xFF5A);
}

// Unicode "Case_Ignorable", restricted to apostrophes, dots, diacritics and combining marks.
bool is_case_ignorable(char32_t c) {
  return c == 0x27 || c == 0x2E || c == 0x3A || c == 0x5E || c == 0x60 || c == 0xA8 ||
         c == 0xAD || c == 0xAF || c == 0xB4 || c == 0xB7 || c == 0xB8 || c == 0x2018 ||
         c == 0x2019 || in(c, 0x0300, 0x036F) || in(c, 0x0483, 0x0489);
}

// Final_Sigma: cased (case-ignorable)* SIGMA, not followed by (case-ignorable)* cased.
bool is_final_sigma(std::u32string_view text, size_t at) {
  size_t j = at;
  while (j > 0 && is_case_ignorable(text[j - 1])) --j;
  if (j == 0 || !is_cased(text[j - 1])) return false;
  size_t k = at + 1;
  while (k < text.size() && is_case_ignorable(text[k])) ++k;
  return k == text.size() || !is_cased(text[k]);
}

}  // namespace

std::u32string to_lower(std::u32string_view text) {
  std::u32string out;
  out.reserve(text.size());
  for (size_t i = 0; i < text.size(); ++i) {
    const char32_t c = text[i];
    if (c == 0x0130) {
      out += U"i\u0307";
    } else if (c == 0x03A3) {
      out.push_back(is_final_sigma(text, i) ? 0x03C2 : 0x03C3);
    } else {
      out.push_back(lower_code_point(c));
    }
  }
  return out;
}

std::string utf8_lower(std::string_view text) { return utf8_encode(to_lower(utf8_decode(text))); }

}  // namespace attend::eval
