#include "text/clock_times.h"

#include "text/ascii.h"

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

std::string written_in(const ClockTime& time, Language language) {
  switch (language) {
    case Language::english:
      // Afternoon and evening hours as English says them; the others on the 24-hour clock, which a
      // German or French text may write for the evening too ("8 Uhr abends", "8 h du soir").
      if ((time.hour > 12 && time.hour < 24) || time.twelve_hour) {
        const int hour = time.hour % 12 == 0 ? 12 : time.hour % 12;
        return std::to_string(hour) + (time.has_minutes ? ":" + two_digits(time.minutes) : "") +
               (time.hour >= 12 && time.hour < 24 ? " p.m." : " a.m.");
      }
      return std::to_string(time.hour) + ":" + two_digits(time.minutes);
    case Language::german:
      return std::to_string(time.hour) + (time.has_minutes ? ":" + two_digits(time.minutes) : "") + " Uhr";
    case Language::french:
      return std::to_string(time.hour) + " h" + (time.has_minutes ? " " + two_digits(time.minutes) : "");
    case Language::unknown: break;
  }
  return "";
}

}  // namespace

std::optional<std::string> clock_time_in(std::string_view text, Language language) {
  if (language == Language::unknown) return std::nullopt;
  for (const auto read : {german, french, english}) {
    if (const std::optional<ClockTime> time = read(text)) return written_in(*time, language);
  }
  return std::nullopt;
}

}  // namespace attend
