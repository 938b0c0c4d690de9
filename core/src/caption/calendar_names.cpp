#include "caption/calendar_names.h"

#include <algorithm>
#include <array>
#include <optional>
#include <string>
#include <vector>

#include "text/ascii.h"
#include "caption/in_each_language.h"
#include "text/letter_case.h"
#include "caption/ordinals.h"

namespace attend {
namespace {

// One month or weekday in each language, in that order: English, German, French.
using CalendarName = InEachLanguage;

constexpr std::array<CalendarName, 20> kCalendarNames = {{
    {"January", "Januar", "janvier"},
    {"February", "Februar", "février"},
    {"March", "März", "mars"},
    {"April", "April", "avril"},
    {"May", "Mai", "mai"},
    {"June", "Juni", "juin"},
    {"July", "Juli", "juillet"},
    {"August", "August", "août"},
    {"September", "September", "septembre"},
    {"October", "Oktober", "octobre"},
    {"November", "November", "novembre"},
    {"December", "Dezember", "décembre"},
    {"Monday", "Montag", "lundi"},
    {"Tuesday", "Dienstag", "mardi"},
    {"Wednesday", "Mittwoch", "mercredi"},
    {"Thursday", "Donnerstag", "jeudi"},
    {"Friday", "Freitag", "vendredi"},
    {"Saturday", "Samstag", "samedi"},
    {"Saturday", "Sonnabend", "samedi"},  // northern German
    {"Sunday", "Sonntag", "dimanche"},
}};

// "Lundi" of "lundi" (French names begin with ASCII letters).
bool capitalised_as(std::string_view word, std::string_view lowercase) {
  return word.size() == lowercase.size() && !word.empty() && word[0] == lowercase[0] - 'a' + 'A' &&
         word.substr(1) == lowercase.substr(1);
}

std::optional<CalendarName> find_calendar_name(std::string_view word, bool french_capitalised) {
  for (const CalendarName& name : kCalendarNames) {
    if (word == name.english || word == name.german || word == name.french ||
        (french_capitalised && word != "Mars" && capitalised_as(word, name.french))) {
      return name;
    }
  }
  return std::nullopt;
}

// Months that are first names too, as English writes them.
constexpr std::array<std::string_view, 4> kFirstNames = {"April", "May", "June", "August"};

// Words before a month that make it one ("in May", "seit August", "depuis août").
constexpr std::array<std::string_view, 24> kBeforeMonths = {
    "in",  "since", "until", "till",  "during", "early", "late",   "mid",  "next", "last", "of",      "every",
    "im",  "seit",  "bis",   "ab",    "anfang", "ende",  "mitte",  "jeden", "en",  "depuis", "début", "fin"};

}  // namespace

Language language_of_calendar_name(std::string_view word) {
  Language found = Language::unknown;
  for (const CalendarName& name : kCalendarNames) {
    for (const Language language : {Language::english, Language::german, Language::french}) {
      if (word != name.in(language)) continue;
      if (found != Language::unknown && found != language) return Language::unknown;
      found = language;
    }
  }
  return found;
}

bool reads_as_calendar_name(std::string_view word, std::string_view word_before) {
  if (std::find(kFirstNames.begin(), kFirstNames.end(), word) == kFirstNames.end()) return true;
  return std::find(kBeforeMonths.begin(), kBeforeMonths.end(), word_before) != kBeforeMonths.end();
}

bool is_calendar_name(std::string_view word, bool opens_french_sentence) {
  return find_calendar_name(word, opens_french_sentence).has_value();
}

std::string calendar_name_in(std::string_view word, bool opens_french_sentence, Language language) {
  const std::optional<CalendarName> name = find_calendar_name(word, opens_french_sentence);
  return std::string(!name || language == Language::unknown ? word : name->in(language));
}

namespace {

constexpr size_t kMonths = 12;  // kCalendarNames' first entries

// The month `word` names, 1 to 12, or 0.
size_t month_number(std::string_view word) {
  for (size_t month = 0; month < kMonths; ++month) {
    const CalendarName& name = kCalendarNames[month];
    if (word == name.english || word == name.german || word == name.french ||
        (word != "Mars" && capitalised_as(word, name.french))) {  // "3 Mars bars" is no date
      return month + 1;
    }
  }
  return 0;
}

// The day `word` names in `month` (1 to 12): one or two digits, alone or as an ordinal ("25",
// "25.", "5th", "1er"); 0 if none, or past the month's end ("31. Februar").
int day_in_month(std::string_view word, size_t month) {
  constexpr int kDays[kMonths] = {31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
  int day = ordinal_number(word);
  if (day == 0 && !word.empty() && word.size() <= 2 && std::all_of(word.begin(), word.end(), is_ascii_digit)) {
    day = std::stoi(std::string(word));
  }
  return day >= 1 && day <= kDays[month - 1] ? day : 0;
}

// The entry of kCalendarNames `word` is, as English and German (capitalised) or French (in
// lowercase, or capitalised when `french_capitalised`, but "Mars") write it.
std::optional<size_t> calendar_index(std::string_view word, bool french_capitalised) {
  for (size_t index = 0; index < kCalendarNames.size(); ++index) {
    const CalendarName& name = kCalendarNames[index];
    if (word == name.english || word == name.german || word == name.french ||
        (french_capitalised && word != "Mars" && capitalised_as(word, name.french))) {
      return index;
    }
  }
  return std::nullopt;
}

struct CalendarRange {
  bool opening = false;  // after "from", "von", "du", "de"
  size_t first = 0, last = 0;  // of kCalendarNames, both months or both weekdays
};

constexpr std::array<std::string_view, 4> kRangeOpenings = {"from", "von", "du", "de"};
constexpr std::array<std::string_view, 10> kRangeJoints = {"to",  "through", "till", "until", "bis",
                                                           "au",  "\xc3\xa0", "-",    "\xe2\x80\x93", "thru"};  // à, en dash

// The words between the two dates of a range (date_range_in).
constexpr std::array<std::string_view, 7> kDateRangeJoints = {"to", "until", "till", "bis", "au", "-", "\xe2\x80\x93"};

std::optional<CalendarRange> calendar_range(std::string_view text) {
  std::vector<std::string_view> words;
  for (const ByteRange& word : words_between_spaces(text)) words.push_back(slice(text, word));
  CalendarRange range;
  if (words.size() >= 2) {
    const std::string first = to_lowercase(words[0]);
    range.opening = std::find(kRangeOpenings.begin(), kRangeOpenings.end(), first) != kRangeOpenings.end();
    if (range.opening) words.erase(words.begin());
  }
  for (std::string_view elided : {"d'", "D'", "d\xe2\x80\x99", "D\xe2\x80\x99"}) {  // "d'avril à juin", d’
    if (!range.opening && !words.empty() && words[0].substr(0, elided.size()) == elided) {
      range.opening = true;
      words[0].remove_prefix(elided.size());
    }
  }
  std::string_view from, to;
  if (words.size() == 3 && std::find(kRangeJoints.begin(), kRangeJoints.end(), words[1]) != kRangeJoints.end()) {
    from = words[0];
    to = words[2];
  } else if (words.size() == 1) {  // "Monday-Friday", "Montag–Freitag"
    for (std::string_view dash : {"-", "\xe2\x80\x93"}) {
      const size_t at = words[0].find(dash);
      if (at == std::string_view::npos) continue;
      from = words[0].substr(0, at);
      to = words[0].substr(at + dash.size());
    }
  }
  // The first French name capitalised where it opens the text ("Lundi au vendredi, …").
  const std::optional<size_t> first = calendar_index(from, !range.opening), last = calendar_index(to, false);
  if (!first || !last || (*first < kMonths) != (*last < kMonths) || *first == *last) return std::nullopt;
  range.first = *first;
  range.last = *last;
  return range;
}

constexpr size_t kFirstWeekday = kMonths;  // kCalendarNames' entries after the months

// Words before a bare English plural that make it a weekly day ("closed Sundays").
constexpr std::array<std::string_view, 2> kBeforeWeeklyDays = {"closed", "open"};

// The weekday of kCalendarNames a weekly `text` names after `word_before` (weekly_day_in).
std::optional<size_t> weekly_day(std::string_view text, std::string_view word_before) {
  std::vector<std::string_view> words;
  for (const ByteRange& word : words_between_spaces(text)) words.push_back(slice(text, word));
  if (words.size() == 2 && (words[0] == "on" || words[0] == "On" || words[0] == "les" || words[0] == "Les")) {
    words.erase(words.begin());
  } else if (words.size() != 1) {
    return std::nullopt;
  }
  const std::string_view word = words[0];
  if (word.size() < 2 || word.back() != 's') return std::nullopt;
  const std::string_view day = word.substr(0, word.size() - 1);
  const bool bare = text == word, french = !bare && (text[0] == 'l' || text[0] == 'L');
  const bool opens = word_before.empty();
  const bool bare_english = opens || std::find(kBeforeWeeklyDays.begin(), kBeforeWeeklyDays.end(), word_before) !=
                                         kBeforeWeeklyDays.end();
  for (size_t index = kFirstWeekday; index < kCalendarNames.size(); ++index) {
    const CalendarName& name = kCalendarNames[index];
    if (french ? day == name.french
               : bare ? day == to_lowercase(name.german) || (opens && day == name.german) || (bare_english && day == name.english)
                      : day == name.english) {
      return index;
    }
  }
  return std::nullopt;
}

// The preposition each language puts before a weekday or a month for a point in time; French
// puts none before a weekday ("Il vient vendredi").
struct CalendarPreposition {
  Language language;
  std::string_view word;
  bool weekday;  // before a weekday, else before a month
};
constexpr std::array<CalendarPreposition, 5> kCalendarPrepositions = {{{Language::english, "on", true},
                                                                       {Language::english, "in", false},
                                                                       {Language::german, "am", true},
                                                                       {Language::german, "im", false},
                                                                       {Language::french, "en", false}}};

// The entry of kCalendarNames `text` names after its preposition (calendar_name_with_preposition_in).
std::optional<size_t> calendar_name_with_preposition(std::string_view text) {
  const size_t space = text.find(' ');
  if (space == std::string_view::npos) return std::nullopt;
  const std::string preposition = to_lowercase(text.substr(0, space));
  const std::string_view word = text.substr(space + 1);
  for (const CalendarPreposition& before : kCalendarPrepositions) {
    if (preposition != before.word) continue;
    const size_t first = before.weekday ? kFirstWeekday : 0, last = before.weekday ? kCalendarNames.size() : kMonths;
    for (size_t index = first; index < last; ++index) {
      if (word == kCalendarNames[index].in(before.language)) return index;
    }
  }
  return std::nullopt;
}

// The preposition each language puts before a date for a point in time: "on May 25", "am 25. Mai",
// "le 25 mai".
constexpr InEachLanguage kDatePreposition = {"on", "am", "le"};

// French words after which "le" before a date is the date's article: prepositions ("depuis le 3
// mai": since May 3), "c'est" ("C'est le 14 juillet.": it is July 14).
constexpr std::array<std::string_view, 11> kFrenchBeforeDateArticle = {
    "depuis", "avant", "après", "pour", "dès", "vers", "pendant", "entre", "et", "c'est", "c\xe2\x80\x99" "est"};

// Whether words[i] is French "Le" opening a sentence before a date ending at `date_end` and no
// comma: the article of a date that is the sentence's subject ("Le 14 juillet est la fête
// nationale."), not its preposition ("Le 14 juillet, des milliers …").
bool opens_french_date_subject(std::string_view text, const std::vector<ByteRange>& words, size_t i, size_t date_end) {
  if (to_lowercase(slice(text, words[i])) != "le" || !word_before_in_sentence(text, words, i).empty()) return false;
  return date_end >= text.size() || text[date_end] != ',';
}

}  // namespace

bool is_month_name(std::string_view word) { return month_number(word) != 0; }

std::optional<std::string> date_with_preposition_in(std::string_view text, std::string_view word_before, Language language) {
  const size_t space = text.find(' ');
  if (space == std::string_view::npos || language == Language::unknown) return std::nullopt;
  const std::string preposition = to_lowercase(text.substr(0, space));
  if (preposition != kDatePreposition.english && preposition != kDatePreposition.german &&
      preposition != kDatePreposition.french) {
    return std::nullopt;
  }
  if (preposition == kDatePreposition.french &&
      std::find(kFrenchBeforeDateArticle.begin(), kFrenchBeforeDateArticle.end(), word_before) != kFrenchBeforeDateArticle.end()) {
    return std::nullopt;
  }
  const std::optional<std::string> date = date_in(text.substr(space + 1), language);
  if (!date) return std::nullopt;
  return std::string(kDatePreposition.in(language)) + " " + *date;
}

std::optional<std::string> calendar_name_with_preposition_in(std::string_view text, Language language) {
  const std::optional<size_t> index = calendar_name_with_preposition(text);
  if (!index || language == Language::unknown) return std::nullopt;
  const bool weekday = *index >= kFirstWeekday;
  for (const CalendarPreposition& before : kCalendarPrepositions) {
    if (before.language == language && before.weekday == weekday) {
      return std::string(before.word) + " " + std::string(kCalendarNames[*index].in(language));
    }
  }
  return std::string(kCalendarNames[*index].in(language));  // French "vendredi"
}

std::optional<std::string> weekly_day_in(std::string_view text, std::string_view word_before, Language language) {
  const std::optional<size_t> index = weekly_day(text, word_before);
  if (!index) return std::nullopt;
  const CalendarName& name = kCalendarNames[*index];
  switch (language) {
    case Language::english: return "on " + std::string(name.english) + "s";
    case Language::german: return to_lowercase(name.german) + "s";
    case Language::french: return "le " + std::string(name.french);
    case Language::unknown: break;
  }
  return std::nullopt;
}

std::optional<std::string> date_range_in(std::string_view text, Language language) {
  const std::vector<ByteRange> words = words_between_spaces(text);
  if (language == Language::unknown || words.empty()) return std::nullopt;
  const auto word = [&](size_t k) { return slice(text, words[k]); };
  const auto joined = [&](size_t from, size_t to) { return slice(text, ByteRange{words[from].begin, words[to - 1].end}); };
  const std::string first = to_lowercase(word(0));
  const bool opening = first == "from" || first == "von" || first == "vom" || first == "du";
  const size_t begin = opening ? 1 : 0;
  for (size_t joint = begin + 2; joint + 2 < words.size(); ++joint) {  // a date of two words at least each side
    if (std::find(kDateRangeJoints.begin(), kDateRangeJoints.end(), word(joint)) == kDateRangeJoints.end()) continue;
    const size_t second = joint + 1 + (word(joint) == "bis" && word(joint + 1) == "zum");  // "bis zum 2. Januar"
    if (second + 2 > words.size()) return std::nullopt;
    const std::optional<std::string> from = date_in(joined(begin, joint), language);
    const std::optional<std::string> to = date_in(joined(second, words.size()), language);
    if (!from || !to) continue;
    switch (language) {
      case Language::english: return (opening ? "from " : "") + *from + " to " + *to;
      case Language::german: return opening ? "vom " + *from + " bis zum " + *to : *from + " bis " + *to;
      case Language::french: return "du " + *from + " au " + *to;
      case Language::unknown: break;
    }
  }
  return std::nullopt;
}

std::optional<std::string> calendar_range_in(std::string_view text, Language language) {
  const std::optional<CalendarRange> range = calendar_range(text);
  if (!range) return std::nullopt;
  const CalendarName &first = kCalendarNames[range->first], &last = kCalendarNames[range->last];
  switch (language) {
    case Language::english:
      return (range->opening ? "from " : "") + std::string(first.english) + " to " + std::string(last.english);
    case Language::german:
      return (range->opening ? "von " : "") + std::string(first.german) + " bis " + std::string(last.german);
    case Language::french: {
      if (range->first >= kMonths) return "du " + std::string(first.french) + " au " + std::string(last.french);
      const bool vowel = first.french[0] == 'a' || first.french[0] == 'o';  // "d'avril", "d'août", "d'octobre"
      return (vowel ? "d'" : "de ") + std::string(first.french) + " \xc3\xa0 " + std::string(last.french);  // à
    }
    case Language::unknown: break;
  }
  return std::nullopt;
}

namespace {

// Whether words[k] of `text` is a month that is a first name too, before a capitalised word ("June
// Carter's style").
bool first_name_before_name(std::string_view text, const std::vector<ByteRange>& words, size_t k) {
  const bool name_after = k + 1 < words.size() && text[words[k + 1].begin] >= 'A' && text[words[k + 1].begin] <= 'Z';
  const std::string_view month = slice(text, without_punctuation(text, words[k]));
  return name_after && std::find(kFirstNames.begin(), kFirstNames.end(), month) != kFirstNames.end();
}

}  // namespace

std::vector<ByteRange> calendar_ranges(std::string_view text) {
  const std::vector<ByteRange> words = words_between_spaces(text);
  std::vector<ByteRange> ranges;
  for (size_t i = 0; i < words.size(); ++i) {
    for (size_t n = std::min<size_t>(8, words.size() - i); n >= 1; --n) {
      const ByteRange range = without_punctuation(text, ByteRange{words[i].begin, words[i + n - 1].end});
      const bool weekly = n <= 2 && weekly_day(slice(text, range), word_before_in_sentence(text, words, i));
      const bool with_preposition = n == 2 && calendar_name_with_preposition(slice(text, range)) &&
                                    !first_name_before_name(text, words, i + 1);
      const bool date = n >= 3 &&
                        date_with_preposition_in(slice(text, range), word_before_in_sentence(text, words, i), Language::english) &&
                        !opens_french_date_subject(text, words, i, range.end);
      const bool dates = n >= 5 && date_range_in(slice(text, range), Language::english);  // nothing else is as long
      if (!calendar_range(slice(text, range)) && !weekly && !with_preposition && !date && !dates) continue;
      ranges.push_back(range);
      i += n - 1;
      break;
    }
  }
  return ranges;
}

std::optional<std::string> date_in(std::string_view text, Language language) {
  std::vector<std::string_view> words;  // "25." "Mai" ["2024"], "May" "25," ["2024"]
  for (size_t begin = 0; begin <= text.size();) {
    const size_t end = std::min(text.find(' ', begin), text.size());
    words.push_back(text.substr(begin, end - begin));
    begin = end + 1;
  }
  if (language == Language::unknown || words.size() < 2 || words.size() > 3) return std::nullopt;
  std::string year;
  if (words.size() == 3) {
    const std::string_view last = words[2];
    if (last.size() != 4 || !std::all_of(last.begin(), last.end(), is_ascii_digit)) return std::nullopt;
    year = std::string(last);
    if (!words[1].empty() && words[1].back() == ',') words[1].remove_suffix(1);  // "May 25, 2024"
  }
  size_t month = 0;
  int day = 0;
  if ((month = month_number(words[1])) != 0) {  // "25. Mai", "5th May", "25 mai", "1er mai"
    day = day_in_month(words[0], month);
  } else if ((month = month_number(words[0])) != 0) {  // "May 25", "May 25th"
    day = words[1].back() == '.' ? 0 : day_in_month(words[1], month);
  }
  if (day == 0) return std::nullopt;
  const CalendarName& name = kCalendarNames[month - 1];
  switch (language) {
    case Language::english: return std::string(name.english) + " " + std::to_string(day) + (year.empty() ? "" : ", " + year);
    case Language::german: return std::to_string(day) + ". " + std::string(name.german) + (year.empty() ? "" : " " + year);
    case Language::french:
      return (day == 1 ? "1er" : std::to_string(day)) + " " + std::string(name.french) + (year.empty() ? "" : " " + year);
    case Language::unknown: break;
  }
  return std::nullopt;
}

}  // namespace attend
