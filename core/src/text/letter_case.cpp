#include "text/letter_case.h"

#include <cstddef>

#include "text/ascii.h"
#include "text/letters.h"

namespace attend {
namespace {

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

std::string with_first_capital(std::string_view text) {
  std::string out(text);
  size_t length = 0;
  if (out.empty() || letter_at(out, 0, &length) != Letter::lower) return out;
  const unsigned char last = static_cast<unsigned char>(out[length - 1]);
  const bool no_latin1_capital = length == 2 && (last == 0x9F || last == 0xBF);  // ß, ÿ
  if (!no_latin1_capital) out[length - 1] = static_cast<char>(last - 0x20);
  return out;
}

}  // namespace attend
