#include "caption/german_ordinal.h"

#include "text/ascii.h"
#include "caption/calendar_names.h"
#include "caption/function_words.h"
#include "text/false_break.h"

namespace attend {
namespace {

// A month or weekday spelled the German way, not the English ("Juli", "März", "Montag"; not
// "April"): a date ("am 14. Juli") whatever the rest of the sentence says of its language.
bool german_calendar_name(std::string_view word) {
  return is_calendar_name(word, false) && calendar_name_in(word, false, Language::german) == word &&
         calendar_name_in(word, false, Language::english) != word;
}

}  // namespace

bool is_german_ordinal_dot(std::string_view text, size_t dot) {
  if (!is_ordinal_dot(text, dot, "de")) return false;
  size_t word = dot + 1;
  while (word < text.size() && text[word] == ' ') ++word;
  size_t word_end = word;
  while (word_end < text.size() && !is_ascii_space(text[word_end]) && !is_ascii_punctuation(text[word_end])) ++word_end;
  return guess_language(text) == Language::german || german_calendar_name(text.substr(word, word_end - word));
}

}  // namespace attend
