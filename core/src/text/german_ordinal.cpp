#include "text/german_ordinal.h"

#include <algorithm>
#include <array>
#include <string>

#include "text/ascii.h"
#include "text/calendar_names.h"
#include "text/function_words.h"
#include "text/letter_case.h"
#include "text/letters.h"

namespace attend {
namespace {

// Words a German sentence often opens with (lowercased): articles, pronouns, adverbs, conjunctions
// and prepositions. An ordinal stands before a noun or an adjective instead.
constexpr std::array<std::string_view, 78> kSentenceOpeners = {
    "der",   "die",   "das",   "den",   "dem",  "des",   "ein",   "eine",  "einer", "einem",
    "einen", "es",    "er",    "sie",   "ich",  "wir",   "ihr",   "man",   "dann",  "da",
    "dort",  "danach", "doch", "aber",  "und",  "auch",  "so",    "hier",  "heute", "jetzt",
    "nun",   "dies",  "diese", "dieser", "dieses", "sein", "seine", "ihre", "wer",  "was",
    "wie",   "wo",    "in",    "im",    "auf",  "an",    "am",    "mit",   "zu",    "zum",
    "zur",   "von",   "vom",   "bei",   "nach", "als",   "wenn",  "kein",  "keine", "mein",
    "meine", "meinem", "meinen", "meiner", "unser", "unsere", "dein", "deine", "ihm", "ihn",
    "uns",   "um",    "gestern", "alle", "nur",  "sonst", "bitte", "danke"};

// A month or weekday spelled the German way, not the English ("Juli", "März", "Montag"; not
// "April"): a date ("am 14. Juli") whatever the rest of the sentence says of its language.
bool german_calendar_name(std::string_view word) {
  return is_calendar_name(word, false) && calendar_name_in(word, false, Language::german) == word &&
         calendar_name_in(word, false, Language::english) != word;
}

}  // namespace

bool is_german_ordinal_dot(std::string_view text, size_t dot) {
  if (dot >= text.size() || text[dot] != '.') return false;
  size_t digits = dot;
  while (digits > 0 && is_ascii_digit(text[digits - 1])) --digits;
  const size_t number_length = dot - digits;
  if (number_length < 1 || number_length > 3) return false;
  if (digits < 2 || text[digits - 1] != ' ' || is_ascii_space(text[digits - 2])) return false;  // after a word

  size_t word = dot + 1;
  while (word < text.size() && text[word] == ' ') ++word;
  if (word == dot + 1 || first_letter(text.substr(word)) != Letter::upper) return false;
  size_t word_end = word;
  while (word_end < text.size() && !is_ascii_space(text[word_end]) && !is_ascii_punctuation(text[word_end])) ++word_end;
  const std::string_view next = text.substr(word, word_end - word);
  if (std::find(kSentenceOpeners.begin(), kSentenceOpeners.end(), to_lowercase(next)) != kSentenceOpeners.end()) return false;
  return guess_language(text) == Language::german || german_calendar_name(next);
}

}  // namespace attend
