#include "caption/clock_times.h"

#include <algorithm>
#include <initializer_list>
#include <iterator>

#include "text/ascii.h"
#include "caption/in_each_language.h"
#include "text/letter_case.h"

namespace attend {
namespace {

struct ClockTime {
  int hour = 0;     // 0-24
  int minutes = 0;  // 0-59
  bool has_minutes = false;
  bool twelve_hour = false;  // read with its a.m. or p.m.
};

// Reads text from *at: one or two digits.
std::optional<int> number_at(std::string_view text, size_t* at, size_t max_digits) {
  size_t end = *at;
  while (end < text.size() && end - *at < max_digits && is_ascii_digit(text[end])) ++end;
  if (end == *at) return std::nullopt;
  int value = 0;
  for (size_t i = *at; i < end; ++i) value = value * 10 + (text[i] - '0');
  *at = end;
  return value;
}

// Skips one space at *at, if there is one.
void skip_space(std::string_view text, size_t* at) {
  if (*at < text.size() && text[*at] == ' ') ++*at;
}

// "20", "8.30", "8:30" from *at (the separators `separators` allowed before the minutes).
std::optional<ClockTime> hour_and_minutes(std::string_view text, size_t* at, std::string_view separators) {
  const std::optional<int> hour = number_at(text, at, 2);
  if (!hour) return std::nullopt;
  ClockTime time{*hour, 0, false};
  if (*at < text.size() && separators.find(text[*at]) != std::string_view::npos) {
    size_t minutes_at = *at + 1;
    const std::optional<int> minutes = number_at(text, &minutes_at, 2);
    if (!minutes || minutes_at != *at + 3) return std::nullopt;
    time.minutes = *minutes;
    time.has_minutes = true;
    *at = minutes_at;
  }
  return time;
}

bool valid(const ClockTime& time, int max_hour) {
  return time.hour <= max_hour && time.minutes < 60 && !(time.hour == 24 && time.minutes > 0);
}

// "20 Uhr", "8.30 Uhr", "8:30 Uhr".
std::optional<ClockTime> german(std::string_view text) {
  size_t at = 0;
  const std::optional<ClockTime> time = hour_and_minutes(text, &at, ".:");
  if (!time || text.substr(at) != " Uhr" || !valid(*time, 24)) return std::nullopt;
  return time;
}

// "20 h", "9h", "8 h 30", "14h30".
std::optional<ClockTime> french(std::string_view text) {
  size_t at = 0;
  std::optional<ClockTime> time = hour_and_minutes(text, &at, "");
  if (!time) return std::nullopt;
  skip_space(text, &at);
  if (at >= text.size() || text[at] != 'h') return std::nullopt;
  ++at;
  if (at < text.size()) {
    skip_space(text, &at);
    const size_t minutes_at = at;
    const std::optional<int> minutes = number_at(text, &at, 2);
    if (!minutes || at != minutes_at + 2) return std::nullopt;
    time->minutes = *minutes;
    time->has_minutes = true;
  }
  if (at != text.size() || !valid(*time, 24)) return std::nullopt;
  return time;
}

// "5 p.m.", "5pm", "10:45 a.m.", "5 P.M", in 24 hours.
std::optional<ClockTime> english(std::string_view text) {
  size_t at = 0;
  std::optional<ClockTime> time = hour_and_minutes(text, &at, ":");
  if (!time) return std::nullopt;
  skip_space(text, &at);
  if (at >= text.size()) return std::nullopt;
  const char half = static_cast<char>(text[at] | 0x20);
  if (half != 'a' && half != 'p') return std::nullopt;
  ++at;
  const bool dotted = at < text.size() && text[at] == '.';
  at += dotted;
  if (at >= text.size() || (text[at] | 0x20) != 'm') return std::nullopt;
  ++at;
  if (dotted && at < text.size() && text[at] == '.') ++at;
  if (at != text.size() || time->hour < 1 || !valid(*time, 12)) return std::nullopt;
  time->hour = time->hour % 12 + (half == 'p' ? 12 : 0);
  time->twelve_hour = true;
  return time;
}

std::string two_digits(int n) { return std::string(1, static_cast<char>('0' + n / 10)) + static_cast<char>('0' + n % 10); }

bool after_noon(const ClockTime& time) { return time.hour >= 12 && time.hour < 24; }

// "5 p.m.", "10:45 a.m."; "5", "10:45" without `half` of the day.
std::string twelve_hour(const ClockTime& time, bool half) {
  const int hour = time.hour % 12 == 0 ? 12 : time.hour % 12;
  return std::to_string(hour) + (time.has_minutes ? ":" + two_digits(time.minutes) : "") +
         (half ? (after_noon(time) ? " p.m." : " a.m.") : "");
}

// Whether English says `time` on the 12-hour clock: the afternoon and evening hours, and a time
// read with its a.m. or p.m.; the others on the 24-hour clock, which a German or French text may
// write for the evening too ("8 Uhr abends", "8 h du soir").
bool twelve_hour_in_english(const ClockTime& time) { return (time.hour > 12 && time.hour < 24) || time.twelve_hour; }

std::string written_in(const ClockTime& time, Language language) {
  switch (language) {
    case Language::english:
      if (twelve_hour_in_english(time)) return twelve_hour(time, true);
      return std::to_string(time.hour) + ":" + two_digits(time.minutes);
    case Language::german:
      return std::to_string(time.hour) + (time.has_minutes ? ":" + two_digits(time.minutes) : "") + " Uhr";
    case Language::french:
      return std::to_string(time.hour) + " h" + (time.has_minutes ? " " + two_digits(time.minutes) : "");
    case Language::unknown: break;
  }
  return "";
}

std::optional<ClockTime> clock_time(std::string_view text) {
  for (const auto read : {german, french, english}) {
    if (const std::optional<ClockTime> time = read(text)) return time;
  }
  return std::nullopt;
}

// The words of a range of clock times, each as English, German and French write it.
using RangeWord = InEachLanguage;
constexpr RangeWord kFrom = {"from", "von", "de"};
constexpr RangeWord kBetween = {"between", "zwischen", "entre"};
constexpr RangeWord kTo = {"to", "bis", "\xc3\xa0"};  // à
constexpr RangeWord kAnd = {"and", "und", "et"};
constexpr RangeWord kAt = {"at", "um", "\xc3\xa0"};  // à
constexpr RangeWord kAround = {"around", "gegen", "vers"};
constexpr Language kLanguages[] = {Language::english, Language::german, Language::french};

// The one of `words` that `word` (in lowercase) is in any of the three languages; null when none.
const RangeWord* one_of(std::string_view word, std::initializer_list<const RangeWord*> words) {
  for (const RangeWord* candidate : words) {
    for (Language language : kLanguages) {
      if (word == candidate->in(language)) return candidate;
    }
  }
  return nullptr;
}

// A clock time after its preposition: "at 5 p.m.", "um 20 Uhr", "vers 8 h 30"; after it an hour
// with minutes and a colon is a clock time too ("at 8:15", "um 8:15"; not "um 2.50", an amount).
struct TimeAt {
  const RangeWord* preposition = nullptr;  // kAt or kAround
  ClockTime time;
};

// `text` read whole as a clock time after its preposition, or std::nullopt.
std::optional<TimeAt> time_at(std::string_view text) {
  const size_t space = text.find(' ');
  if (space == std::string_view::npos) return std::nullopt;
  const RangeWord* preposition = one_of(to_lowercase(text.substr(0, space)), {&kAt, &kAround});
  if (preposition == nullptr) return std::nullopt;
  const std::string_view rest = text.substr(space + 1);
  if (const std::optional<ClockTime> time = clock_time(rest)) return TimeAt{preposition, *time};
  size_t at = 0;
  const std::optional<ClockTime> bare = hour_and_minutes(rest, &at, ":");
  if (bare && bare->has_minutes && at == rest.size() && valid(*bare, 24)) return TimeAt{preposition, *bare};
  return std::nullopt;
}

struct ClockRange {
  const RangeWord* opening = nullptr;  // kFrom (also for "at"), kBetween, kAround or none
  ClockTime start;
  const RangeWord* joint = nullptr;  // kTo, kAnd or none: a dash
  ClockTime end;
};

// A range's start, `text` whole: a clock time, or when `bare` may an hour ("10", "8.30") on the
// end's clock. On the 12-hour clock it is on the end's half of the day when earlier than the end
// ("2 to 5 p.m."), else on the other ("9 to 5 p.m."); not before 12 ("9-12am": noon or
// midnight?). std::nullopt when it is neither.
std::optional<ClockTime> range_start(std::string_view text, const ClockTime& end, bool bare) {
  if (const std::optional<ClockTime> time = clock_time(text)) return time;
  if (!bare) return std::nullopt;
  size_t at = 0;
  std::optional<ClockTime> start = hour_and_minutes(text, &at, ".:");
  if (!start || at != text.size() || !valid(*start, end.twelve_hour ? 12 : 24)) return std::nullopt;
  if (end.twelve_hour) {
    if (start->hour == 0 || end.hour % 12 == 0) return std::nullopt;
    const bool on_ends_half = start->hour % 12 < end.hour % 12;
    start->hour = start->hour % 12 + (on_ends_half == after_noon(end) ? 12 : 0);
    start->twelve_hour = true;
  }
  return start;
}

// `text` read whole as a range of clock times (clock_range_in), or std::nullopt.
std::optional<ClockRange> clock_range(std::string_view text) {
  ClockRange range;
  const std::string first = to_lowercase(text.substr(0, text.find(' ')));
  // A range after "at" is one from its start ("um 8 Uhr bis 9 Uhr" -> "from 8:00 to 9:00").
  const RangeWord* opening = first.size() < text.size() ? one_of(first, {&kFrom, &kBetween, &kAt, &kAround}) : nullptr;
  if (opening != nullptr) {
    range.opening = opening == &kAt ? &kFrom : opening;
    text.remove_prefix(first.size() + 1);
  }
  struct Joint {
    std::string_view text;
    const RangeWord* word;
    bool bare_start_alone;  // an hour without its clock may start the range with no opening word
  };
  // Not "12 à 20 h" alone: French "le 12 à 20 h" is a day and a time ("on the 12th at 8 p.m.").
  static constexpr Joint kJoints[] = {
      {" bis ", &kTo, true},   {" to ", &kTo, true},      {" \xc3\xa0 ", &kTo, false},         {" und ", &kAnd, false},
      {" and ", &kAnd, false}, {" et ", &kAnd, false},    {" - ", nullptr, true},              {"-", nullptr, true},
      {" \xe2\x80\x93 ", nullptr, true}, {"\xe2\x80\x93", nullptr, true}};  // à, en dash
  for (const Joint& joint : kJoints) {
    const bool from = range.opening == &kFrom || range.opening == &kAround;
    if (from ? joint.word == &kAnd : range.opening == &kBetween && joint.word != &kAnd) continue;
    const bool bare = range.opening != nullptr || joint.bare_start_alone;
    for (size_t at = text.find(joint.text); at != std::string_view::npos; at = text.find(joint.text, at + 1)) {
      const std::optional<ClockTime> end = clock_time(text.substr(at + joint.text.size()));
      if (!end) continue;
      const std::optional<ClockTime> start = range_start(text.substr(0, at), *end, bare);
      if (start && (start->hour != end->hour || start->minutes != end->minutes)) {
        range.start = *start;
        range.joint = joint.word;
        range.end = *end;
        return range;
      }
    }
  }
  return std::nullopt;
}

std::string written_in(const ClockRange& range, Language language) {
  std::string start, end;
  switch (language) {
    case Language::english:
      if (twelve_hour_in_english(range.start) || twelve_hour_in_english(range.end)) {
        start = twelve_hour(range.start, after_noon(range.start) != after_noon(range.end));
        end = twelve_hour(range.end, true);
      } else {
        start = written_in(range.start, language);
        end = written_in(range.end, language);
      }
      break;
    case Language::german:  // its Uhr once: "von 9 bis 17 Uhr"
      start = std::to_string(range.start.hour) + (range.start.has_minutes ? ":" + two_digits(range.start.minutes) : "");
      end = written_in(range.end, language);
      break;
    case Language::french:
      start = written_in(range.start, language);
      end = written_in(range.end, language);
      break;
    case Language::unknown: return "";
  }
  const std::string opening = range.opening ? std::string(range.opening->in(language)) + " " : "";
  const std::string joint = range.joint ? " " + std::string(range.joint->in(language)) + " " : "-";
  return opening + start + joint + end;
}

}  // namespace

std::optional<std::string> clock_time_in(std::string_view text, Language language) {
  if (language == Language::unknown) return std::nullopt;
  if (const std::optional<ClockTime> time = clock_time(text)) return written_in(*time, language);
  if (const std::optional<TimeAt> time = time_at(text)) {
    return std::string(time->preposition->in(language)) + " " + written_in(time->time, language);
  }
  return std::nullopt;
}

std::optional<std::string> clock_range_in(std::string_view text, Language language) {
  if (language == Language::unknown) return std::nullopt;
  const std::optional<ClockRange> range = clock_range(text);
  if (!range) return std::nullopt;
  return written_in(*range, language);
}

namespace {

// Words before a French number of hours that make it a duration ("dure 3 h", "pendant 2 h").
constexpr std::string_view kBeforeFrenchDurations[] = {"dure", "durent", "dur\xc3\xa9", "dur\xc3\xa9" "e", "pendant", "en",
                                                       "environ"};  // duré, durée

// A duration's joint between two numbers of hours, as English, German and French write it.
constexpr RangeWord kDurationJoints[] = {{"to", "bis", "\xc3\xa0"}, {"or", "oder", "ou"}};  // à

struct Hours {
  int first = 0, last = 0;
  const RangeWord* joint = nullptr;  // kDurationJoints' or none: one number
};

// "3 h", "3h", "2 à 3 h", "de 2 à 3 h", "2-3 h", "2 ou 3 h", `text` whole.
std::optional<Hours> french_hours(std::string_view text) {
  const bool from = text.substr(0, 3) == "de " || text.substr(0, 3) == "De ";  // only before a range
  if (from) text.remove_prefix(3);
  Hours hours;
  size_t at = 0;
  const std::optional<int> first = number_at(text, &at, 3);
  if (!first) return std::nullopt;
  hours.first = hours.last = *first;
  for (const RangeWord& joint : kDurationJoints) {
    const std::string spaced = " " + std::string(joint.french) + " ";
    if (text.substr(at, spaced.size()) == spaced) {
      at += spaced.size();
      hours.joint = &joint;
      break;
    }
  }
  if (!hours.joint && at < text.size() && text[at] == '-') {
    ++at;
    hours.joint = &kDurationJoints[0];
  }
  if (from && !hours.joint) return std::nullopt;
  if (hours.joint) {
    const std::optional<int> last = number_at(text, &at, 3);
    if (!last || *last <= hours.first) return std::nullopt;
    hours.last = *last;
  }
  skip_space(text, &at);
  if (text.substr(at) != "h") return std::nullopt;
  return hours;
}

}  // namespace

std::optional<std::string> french_duration_in(std::string_view text, std::string_view word_before, Language language) {
  if (language == Language::unknown ||
      std::find(std::begin(kBeforeFrenchDurations), std::end(kBeforeFrenchDurations), word_before) ==
          std::end(kBeforeFrenchDurations)) {
    return std::nullopt;
  }
  const std::optional<Hours> hours = french_hours(text);
  if (!hours) return std::nullopt;
  const std::string first = std::to_string(hours->first);
  const std::string numbers =
      hours->joint ? first + " " + std::string(hours->joint->in(language)) + " " + std::to_string(hours->last) : first;
  const bool one = !hours->joint && hours->first == 1;
  switch (language) {
    case Language::english: return numbers + (one ? " hour" : " hours");
    case Language::german: return numbers + (one ? " Stunde" : " Stunden");
    case Language::french: return numbers + " h";
    case Language::unknown: break;
  }
  return std::nullopt;
}

size_t clock_phrase_begin(std::string_view text, size_t time_begin, size_t time_end) {
  size_t found = std::string_view::npos;
  size_t word = time_begin;  // the beginning of a word, stepping back over at most six
  for (int words_back = 0; words_back <= 6; ++words_back) {
    size_t begin = word;
    while (begin < time_begin && is_ascii_punctuation(text[begin])) ++begin;  // "(von 10 bis 20 Uhr)"
    const std::string_view phrase = text.substr(begin, time_end - begin);
    if (clock_range(phrase) || time_at(phrase)) found = begin;
    while (word > 0 && text[word - 1] == ' ') --word;
    if (word == 0) break;
    while (word > 0 && text[word - 1] != ' ') --word;
  }
  return found;
}

}  // namespace attend
