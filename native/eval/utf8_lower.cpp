// A compact Unicode lowercase, equal to Python's str.lower() (the full case mapping of
// UnicodeData + SpecialCasing) on these ranges:
//   ASCII; Latin-1 (U+00C0..U+00DE); Latin Extended-A (U+0100..U+017F); the Latin
//   Extended-B pairs used by Pinyin, Romanian and Livonian (U+01CD..U+01DC,
//   U+01DE..U+01EF, U+01F8..U+021F, U+0222..U+0233); Latin Extended Additional
//   (U+1E00..U+1EFF, incl. capital sharp s U+1E9E -> U+00DF); Greek basic
//   (U+0386..U+03AB, U+03CF, U+03D8..U+03EF) with the final-sigma rule; Cyrillic
//   (U+0400..U+052F); fullwidth Latin (U+FF21..U+FF3A).
// U+0130 (capital I with dot) lowers to "i" + U+0307, as in Python.
// Not covered (left unchanged, where Python would lower them): the rest of Latin
// Extended-B and IPA (e.g. U+018F schwa, U+01C4..U+01CC digraphs), Greek U+0370..U+0376,
// U+037F, U+03F4..U+03FF and Greek Extended, Armenian, Georgian, Cherokee, letterlike
// symbols (Kelvin, Angstrom, Ohm signs, Roman numerals), circled letters, Deseret and other
// non-BMP scripts. "Cased" and "case-ignorable" for final sigma are approximated by the
// ranges above plus the common ignorable marks listed in is_case_ignorable.
#include "utf8_lower.h"

#include "utf8.h"

namespace attend::eval {

namespace {

bool in(char32_t c, char32_t first, char32_t last) { return c >= first && c <= last; }

// In a range of alternating upper/lower pairs, the upper one is at the even (or odd) offset.
char32_t pair_lower(char32_t c, bool upper_is_even) {
  return ((c % 2 == 0) == upper_is_even) ? c + 1 : c;
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
  if (in(c, 0x0386, 0x03FF)) {
    if (c == 0x0386) return 0x03AC;
    if (in(c, 0x0388, 0x038A)) return c + 37;
    if (c == 0x038C) return 0x03CC;
    if (in(c, 0x038E, 0x038F)) return c + 63;
    if (in(c, 0x0391, 0x03AB) && c != 0x03A2) return c + 32;
    if (c == 0x03CF) return 0x03D7;
    if (in(c, 0x03D8, 0x03EF)) return pair_lower(c, true);
    return c;
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
         (in(c, 0xC0, 0x024F) && c != 0xD7 && c != 0xF7) || c == 0x0386 ||
         in(c, 0x0388, 0x03F5) || in(c, 0x0400, 0x0481) || in(c, 0x048A, 0x052F) ||
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
