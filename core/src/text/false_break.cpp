#include "text/false_break.h"

#include <algorithm>
#include <cctype>
#include <string>
#include <vector>

#include "text/abbreviations.h"
#include "text/ascii.h"
#include "text/letter_case.h"
#include "text/letters.h"

namespace attend {
namespace {

bool is_ascii_letter(char c) { return std::isalpha(static_cast<unsigned char>(c)) != 0; }

bool listed(const std::vector<std::string_view>& list, std::string_view word) {
  return std::find(list.begin(), list.end(), word) != list.end();
}

// Whether a clock's "a.m." or "p.m." (`word`, without its last dot) ends its sentence before
// `after`: before a capitalised word ("closes at 6 p.m. Tickets cost €15."), but for a word the
// language lists after clocks (a weekday, a month, a time zone's) and one in capitals ("9 a.m. to
// 5 p.m. Monday to Friday", "at 5 p.m. EST", "10 a.m. Pacific Time", "9 a.m. Mon-Fri").
bool clock_abbreviation_ends_sentence(std::string_view word, std::string_view after, const Abbreviations& language) {
  const std::string lower = to_lowercase(word);
  if (lower != "a.m" && lower != "p.m") return false;
  const size_t begin = std::min(after.find_first_not_of(" \t\r\n"), after.size());
  const std::string_view next = after.substr(begin, after.find_first_of(" \t\r\n,.;:!?-", begin) - begin);
  if (first_letter(next) != Letter::upper) return false;
  const bool capitals = std::all_of(next.begin(), next.end(), [](char c) { return c < 'a' || c > 'z'; });
  return !capitals && !listed(language.after_clock, next);
}

bool follows_abbreviation(std::string_view before, std::string_view after, const Abbreviations& language) {
  size_t end = before.size();
  while (end > 0 && is_ascii_space(before[end - 1])) --end;
  if (end == 0 || before[end - 1] != '.') return false;
  // The word before the dot: ASCII letters and inner dots ("e.g", "J.P", "Mr").
  size_t start = end - 1;
  while (start > 0 && (is_ascii_letter(before[start - 1]) || before[start - 1] == '.')) --start;
  const std::string_view word = before.substr(start, end - 1 - start);
  if (word.empty() || !is_ascii_letter(word.front())) return false;
  if (start > 0 && static_cast<unsigned char>(before[start - 1]) >= 0x80) return false;  // part of a longer word

  // Initials and dotted acronyms: every part between dots is one letter ("J", "e.g", "E.S.E").
  bool initials = true;
  for (size_t i = 0; i < word.size(); ++i) {
    const bool letter_alone = is_ascii_letter(word[i]) && (i + 1 == word.size() || word[i + 1] == '.') &&
                              (i == 0 || word[i - 1] == '.');
    if (is_ascii_letter(word[i]) && !letter_alone) initials = false;
  }
  if (initials) return !clock_abbreviation_ends_sentence(word, after, language);

  const std::string lower = to_lowercase(word);
  if (listed(language.titles, lower) || listed(language.others, lower)) return true;
  size_t next = 0;
  while (next < after.size() && is_ascii_space(after[next])) ++next;
  return next < after.size() && is_ascii_digit(after[next]) && listed(language.before_numbers, lower);
}

// Whether `before` ends in an ordinal's dot ("Der 1." before "Platz geht …").
bool follows_ordinal(std::string_view before, std::string_view after, std::string_view language) {
  size_t end = before.size();
  while (end > 0 && is_ascii_space(before[end - 1])) --end;
  if (end < 2 || before[end - 1] != '.' || !is_ascii_digit(before[end - 2])) return false;
  return is_ordinal_dot(std::string(before).append(after), end - 1, language);
}

}  // namespace

bool is_title(std::string_view word) { return listed(abbreviations_of("").titles, to_lowercase(word)); }

bool is_ordinal_dot(std::string_view text, size_t dot, std::string_view language) {
  const std::vector<std::string_view>& openers = abbreviations_of(language).openers_after_number;
  if (openers.empty() || dot >= text.size() || text[dot] != '.') return false;
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
  return !listed(openers, to_lowercase(text.substr(word, word_end - word)));
}

bool is_false_break(std::string_view before, std::string_view after, std::string_view language) {
  return first_letter(after) == Letter::lower || follows_abbreviation(before, after, abbreviations_of(language)) ||
         follows_ordinal(before, after, language);
}

}  // namespace attend
