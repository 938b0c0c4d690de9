#include "caption/ordinals.h"

#include <algorithm>
#include <array>

#include "text/ascii.h"
#include "text/letter_case.h"

namespace attend {
namespace {

// Endings after the digits, in lowercase: English, German, French.
constexpr std::array<std::string_view, 10> kEndings = {"st", "nd", "rd", "th", ".", "er", "re", "e", "\xc3\xa8me",
                                                       "\xc3\xa8re"};  // ème ère

std::string english(int n) {
  const int tens = n % 100, units = n % 10;
  const char* ending = tens >= 11 && tens <= 13 ? "th" : units == 1 ? "st" : units == 2 ? "nd" : units == 3 ? "rd" : "th";
  return std::to_string(n) + ending;
}

// The digits that open `word`, 0 to 3 of them.
size_t leading_digits(std::string_view word) {
  size_t digits = 0;
  while (digits < word.size() && digits < 4 && is_ascii_digit(word[digits])) ++digits;
  return digits;
}

}  // namespace

size_t ordinal_ending_length(std::string_view text, size_t at) {
  if (at > text.size()) return 0;
  for (std::string_view ending : kEndings) {
    const size_t end = at + ending.size();
    if (ending == "." || end > text.size() || to_lowercase(text.substr(at, ending.size())) != ending) continue;
    if (end == text.size() || !(is_ascii_letter(text[end]) || is_ascii_digit(text[end]))) return ending.size();
  }
  return 0;
}

int ordinal_number(std::string_view word) {
  const size_t digits = leading_digits(word);
  if (digits == 0 || digits > 3) return 0;
  const std::string ending = to_lowercase(word.substr(digits));
  if (std::find(kEndings.begin(), kEndings.end(), ending) == kEndings.end()) return 0;
  int n = 0;
  for (size_t i = 0; i < digits; ++i) n = n * 10 + (word[i] - '0');
  return n;
}

std::optional<std::string> ordinal_in(std::string_view word, Language language) {
  const int n = ordinal_number(word);
  if (n == 0) return std::nullopt;
  const std::string ending = to_lowercase(word.substr(leading_digits(word)));
  switch (language) {
    case Language::english: return english(n);
    case Language::german: return std::to_string(n) + ".";
    case Language::french:  // "1re" (feminine) only where the source says so: "1st" has no gender
      if (n == 1) return ending == "re" || ending == "\xc3\xa8re" ? "1re" : "1er";  // ère
      return std::to_string(n) + "e";
    case Language::unknown: break;
  }
  return std::nullopt;
}

}  // namespace attend
