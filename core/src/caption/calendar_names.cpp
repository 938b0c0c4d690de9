#include "caption/calendar_names.h"

#include <algorithm>
#include <array>
#include <optional>

#include "caption/in_each_language.h"

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

}  // namespace attend
