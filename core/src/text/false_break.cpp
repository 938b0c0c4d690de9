#include "text/false_break.h"

#include <algorithm>
#include <array>
#include <cctype>
#include <string>

#include "text/ascii.h"
#include "text/calendar_names.h"
#include "text/german_ordinal.h"
#include "text/letter_case.h"
#include "text/letters.h"

namespace attend {
namespace {

bool is_ascii_letter(char c) { return std::isalpha(static_cast<unsigned char>(c)) != 0; }

// Titles before a name (lowercase, without their final dot: en, de, fr) and other abbreviations
// that rarely end a sentence: after a name, "versus", Latin and German short forms. Common words
// ("me", "no", "fig") are left out or need a number after them (kNumberAbbreviations).
constexpr std::array<std::string_view, 22> kTitles = {
    "mr",  "mrs", "ms",  "mx",  "dr",  "prof", "st",  "mt",  "sgt",  "capt", "col",
    "gen", "lt",  "rev", "hon", "gov", "sen",  "rep", "pres", "mme", "mlle", "ste"};
constexpr std::array<std::string_view, 11> kAbbreviations = {
    "jr", "sr", "vs", "approx", "ca", "cf", "incl", "bzw", "evtl", "ggf", "sog"};
// Abbreviations that stand before a number: "No. 5", "Nr. 3", "pp. 10".
constexpr std::array<std::string_view, 6> kNumberAbbreviations = {"no", "nos", "nr", "vol", "p", "pp"};

template <size_t N>
bool listed(const std::array<std::string_view, N>& list, const std::string& word) {
  return std::find(list.begin(), list.end(), word) != list.end();
}

// Words after a clock's "a.m." or "p.m." in its sentence: a time zone's ("10 a.m. Pacific Time"),
// weekdays and months shortened ("9 a.m. Mon to Fri").
constexpr std::array<std::string_view, 31> kAfterClockTimes = {
    "Time", "Eastern", "Central", "Mountain", "Pacific", "Atlantic", "Standard", "Daylight", "Greenwich",
    "Mon",  "Tue",     "Tues",    "Wed",      "Thu",     "Thur",     "Thurs",    "Fri",      "Sat",
    "Sun",  "Jan",     "Feb",     "Mar",      "Apr",     "Jun",      "Jul",      "Aug",      "Sep",
    "Sept", "Oct",     "Nov",     "Dec"};

// Whether a clock's "a.m." or "p.m." (`word`, without its last dot) ends its sentence before
// `after`: before a capitalised word ("closes at 6 p.m. Tickets cost €15."), but for a weekday or
// month, whole or shortened, a time zone's word and one in capitals ("9 a.m. to 5 p.m. Monday to
// Friday", "at 5 p.m. EST", "10 a.m. Pacific Time", "9 a.m. Mon-Fri").
bool clock_abbreviation_ends_sentence(std::string_view word, std::string_view after) {
  const std::string lower = to_lowercase(word);
  if (lower != "a.m" && lower != "p.m") return false;
  const size_t begin = std::min(after.find_first_not_of(" \t\r\n"), after.size());
  const std::string_view next = after.substr(begin, after.find_first_of(" \t\r\n,.;:!?-", begin) - begin);
  if (first_letter(next) != Letter::upper) return false;
  const bool capitals = std::all_of(next.begin(), next.end(), [](char c) { return c < 'a' || c > 'z'; });
  const bool listed = std::find(kAfterClockTimes.begin(), kAfterClockTimes.end(), next) != kAfterClockTimes.end();
  return !capitals && !listed && !is_calendar_name(next, false);
}

bool follows_abbreviation(std::string_view before, std::string_view after) {
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
  if (initials) return !clock_abbreviation_ends_sentence(word, after);

  const std::string lower = to_lowercase(word);
  if (listed(kTitles, lower) || listed(kAbbreviations, lower)) return true;
  size_t next = 0;
  while (next < after.size() && is_ascii_space(after[next])) ++next;
  return next < after.size() && is_ascii_digit(after[next]) && listed(kNumberAbbreviations, lower);
}

// Whether `before` ends in a German ordinal's dot ("Der 1." before "Platz geht …").
bool follows_german_ordinal(std::string_view before, std::string_view after) {
  size_t end = before.size();
  while (end > 0 && is_ascii_space(before[end - 1])) --end;
  if (end < 2 || before[end - 1] != '.' || !is_ascii_digit(before[end - 2])) return false;
  return is_german_ordinal_dot(std::string(before).append(after), end - 1);
}

}  // namespace

bool is_title(std::string_view word) { return listed(kTitles, to_lowercase(word)); }

bool is_false_break(std::string_view before, std::string_view after) {
  return first_letter(after) == Letter::lower || follows_abbreviation(before, after) ||
         follows_german_ordinal(before, after);
}

}  // namespace attend
