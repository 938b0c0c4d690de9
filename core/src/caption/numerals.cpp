#include "caption/numerals.h"

#include <algorithm>
#include <optional>
#include <vector>

#include "text/ascii.h"
#include "caption/currencies.h"

namespace attend {
namespace {

constexpr std::string_view kNarrowNoBreakSpace = "\xe2\x80\xaf";

// The spaces French puts between groups of thousands, and before a currency sign: a space, a
// no-break space, a narrow no-break space.
constexpr std::string_view kSpaces[] = {" ", "\xc2\xa0", kNarrowNoBreakSpace};

// The length of the space (of kSpaces) at text[at], or 0.
size_t space_length(std::string_view text, size_t at) {
  for (std::string_view space : kSpaces) {
    if (text.substr(at, space.size()) == space) return space.size();
  }
  return 0;
}

bool is_separator(char c) { return c == '.' || c == ',' || c == ':' || c == '/' || c == '-'; }

// Whether a number starts at text[at]: a digit after no digit, no letter (a version "v2.0", "MP3")
// and no separator between digits ("5" of "-5", not "7" of "5-7").
bool starts_number(std::string_view text, size_t at) {
  if (!is_ascii_digit(text[at])) return false;
  if (at == 0) return true;
  const char before = text[at - 1];
  return !is_ascii_digit(before) && !is_ascii_letter(before) &&
         !(is_separator(before) && at >= 2 && is_ascii_digit(text[at - 2]));
}

// The length of a space French puts between groups of thousands at text[at] (a space, a no-break
// space or a narrow one) when a group of three digits follows it ("1 200 €"), else 0.
size_t french_group_space(std::string_view text, size_t at) {
  const size_t length = space_length(text, at);
  const size_t digits = at + length;
  const bool group = length > 0 && digits + 3 <= text.size() && is_ascii_digit(text[digits]) &&
                     is_ascii_digit(text[digits + 1]) && is_ascii_digit(text[digits + 2]) &&
                     (digits + 3 == text.size() || !is_ascii_digit(text[digits + 3]));
  return group ? length : 0;
}

// The end of the number starting at `at`: digits, and single separators between digits; in French
// also spaces between groups of thousands.
size_t number_end(std::string_view text, size_t at, Language language) {
  while (at < text.size()) {
    if (is_ascii_digit(text[at]) || (is_separator(text[at]) && at + 1 < text.size() && is_ascii_digit(text[at + 1]))) {
      ++at;
    } else if (const size_t groups = language == Language::french ? french_thousands_end(text, at) : at; groups > at) {
      at = groups;
    } else {
      break;
    }
  }
  return at;
}

bool all_digits(std::string_view text) {
  if (text.empty()) return false;
  for (char c : text) {
    if (!is_ascii_digit(c)) return false;
  }
  return true;
}

struct Numeral {
  std::vector<std::string_view> groups;  // of the integer part: one when it had no separators
  std::string_view fraction;             // empty when none
};

// `text` read with `group` between thousands and `decimal` before the fraction: "1,000.5" with
// ',' and '.'; std::nullopt when it is no such number ("1,5" with ',' and '.': no group of three).
std::optional<Numeral> read(std::string_view text, char group, char decimal) {
  Numeral numeral;
  const size_t point = text.find(decimal);
  if (point != std::string_view::npos) {
    numeral.fraction = text.substr(point + 1);
    if (!all_digits(numeral.fraction)) return std::nullopt;
    text = text.substr(0, point);
  }
  for (size_t begin = 0;;) {
    const size_t end = std::min(text.find(group, begin), text.size());
    numeral.groups.push_back(text.substr(begin, end - begin));
    if (end == text.size()) break;
    begin = end + 1;
  }
  for (size_t i = 0; i < numeral.groups.size(); ++i) {
    const std::string_view digits = numeral.groups[i];
    const bool sized = numeral.groups.size() == 1 || (i == 0 ? digits.size() <= 3 : digits.size() == 3);
    if (!all_digits(digits) || !sized) return std::nullopt;
  }
  return numeral;
}

// The number `text` (digits and separators between them) as `target` writes it, read as `source`
// does; std::nullopt when it is none in `source`.
std::optional<std::string> numeral_in(std::string_view text, Language source, Language target) {
  for (char c : text) {
    if (c == ':' || c == '/' || c == '-') return std::nullopt;  // a time, a fraction or date, a range
  }
  std::string groups;  // French spaces between thousands read as dots
  for (size_t at = 0; at < text.size();) {
    const size_t space = space_length(text, at);
    groups += space > 0 ? '.' : text[at];
    at += std::max<size_t>(space, 1);
  }
  const bool english_source = source == Language::english;
  const std::optional<Numeral> numeral = read(groups, english_source ? ',' : '.', english_source ? '.' : ',');
  if (!numeral) return std::nullopt;
  const std::string_view group = target == Language::english ? "," : target == Language::german ? "." : kNarrowNoBreakSpace;
  std::string written;
  for (size_t i = 0; i < numeral->groups.size(); ++i) {
    if (i > 0) written += group;
    written += numeral->groups[i];
  }
  if (!numeral->fraction.empty()) {
    written += target == Language::english ? '.' : ',';
    written += numeral->fraction;
  }
  return written;
}

// The currency sign text[at, ...) starts with, or empty.
std::string_view sign_at(std::string_view text, size_t at) {
  for (std::string_view sign : kCurrencySigns) {
    if (text.substr(at, sign.size()) == sign) return sign;
  }
  return {};
}

// The currency sign `out` ends with, perhaps before one space, when no letter or digit comes
// before it ("costs $", "€ "); empty when none. *begin: where it begins in `out`.
std::string_view sign_ending(const std::string& out, size_t* begin) {
  const size_t end = !out.empty() && out.back() == ' ' ? out.size() - 1 : out.size();
  for (std::string_view sign : kCurrencySigns) {
    if (end < sign.size() || std::string_view(out).substr(end - sign.size(), sign.size()) != sign) continue;
    const size_t at = end - sign.size();
    if (at > 0 && (is_ascii_digit(out[at - 1]) || is_ascii_letter(out[at - 1]))) continue;
    *begin = at;
    return sign;
  }
  return {};
}

// Signs German and French set apart from the number before them and English does not ("50%" ->
// "50 %"), and those only English writes either way ("25°C", "25 °C" -> "25 °C").
constexpr std::string_view kPercent = "%";
constexpr std::string_view kDegrees[] = {"\xc2\xb0" "C", "\xc2\xb0" "F"};  // °C, °F

// Appends to `out` the space `target` writes between the number ending at text[end] and a % or
// degree sign after it (at most one space of the source's before it); returns the length of text
// that space replaces.
size_t set_apart_sign(std::string_view text, size_t end, Language target, std::string* out) {
  const size_t space = space_length(text, end);
  const std::string_view after = text.substr(end + space);
  const auto begins = [&](std::string_view sign) { return after.substr(0, sign.size()) == sign; };
  const bool degrees = std::any_of(std::begin(kDegrees), std::end(kDegrees), begins);
  if (!begins(kPercent) && !degrees) return 0;
  const size_t past = degrees ? kDegrees[0].size() : kPercent.size();
  if (past < after.size() && (is_ascii_letter(after[past]) || is_ascii_digit(after[past]))) return 0;  // "%20" of an address
  if (target == Language::english && degrees) return 0;  // as written
  if (target != Language::english) *out += ' ';
  return space;
}

}  // namespace

size_t french_thousands_end(std::string_view text, size_t at) {
  while (const size_t space = french_group_space(text, at)) at += space + 3;
  return at;
}

std::string numbers_in(std::string_view text, Language source, Language target) {
  if (source == Language::unknown || target == Language::unknown || source == target) return std::string(text);
  std::string out;
  for (size_t at = 0; at < text.size();) {
    if (!starts_number(text, at)) {
      out += text[at++];
      continue;
    }
    const size_t end = number_end(text, at, source);
    const std::optional<std::string> written = numeral_in(text.substr(at, end - at), source, target);
    if (!written) {
      out.append(text, at, end - at);
      at = end;
      continue;
    }
    size_t sign_begin = 0;
    const std::string_view before = target == Language::english ? std::string_view() : sign_ending(out, &sign_begin);
    const size_t after_at = end + space_length(text, end);  // past one space, a no-break one too ("12,99 €")
    const std::string_view after = target == Language::english ? sign_at(text, after_at) : std::string_view();
    if (!before.empty()) {  // "$12.99" -> "12,99 $"
      out.resize(sign_begin);
      out += *written + " " + std::string(before);
    } else if (!after.empty()) {  // "12,99 €" -> "€12.99"
      out += std::string(after) + *written;
      at = after_at + after.size();
      continue;
    } else {
      out += *written;
    }
    at = end + set_apart_sign(text, end, target, &out);
  }
  return out;
}

}  // namespace attend
