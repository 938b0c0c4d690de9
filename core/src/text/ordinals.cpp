#include "text/ordinals.h"

#include <array>

#include "text/ascii.h"
#include "text/letter_case.h"

namespace attend {
namespace {

// Endings after the digits, in lowercase: English, German, French.
constexpr std::array<std::string_view, 9> kEndings = {"st", "nd", "rd", "th", ".", "er", "re", "e", "\xc3\xa8me"};  // ème

std::string english(int n) {
  const int tens = n % 100, units = n % 10;
  const char* ending = tens >= 11 && tens <= 13 ? "th" : units == 1 ? "st" : units == 2 ? "nd" : units == 3 ? "rd" : "th";
  return std::to_string(n) + ending;
}

}  // namespace

std::optional<std::string> ordinal_in(std::string_view word, Language language) {
  size_t digits = 0;
  while (digits < word.size() && is_ascii_digit(word[digits])) ++digits;
  if (digits == 0 || digits > 3) return std::nullopt;
  const std::string ending = to_lowercase(word.substr(digits));
  bool listed = false;
  for (std::string_view known : kEndings) listed = listed || ending == known;
  if (!listed) return std::nullopt;
  int n = 0;
  for (size_t i = 0; i < digits; ++i) n = n * 10 + (word[i] - '0');
  if (n == 0) return std::nullopt;
  switch (language) {
    case Language::english: return english(n);
    case Language::german: return std::to_string(n) + ".";
    case Language::french: return n == 1 ? std::string("1er") : std::to_string(n) + "e";
    case Language::unknown: break;
  }
  return std::nullopt;
}

}  // namespace attend
