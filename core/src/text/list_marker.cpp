#include "text/list_marker.h"

#include <array>

#include "text/ascii.h"

namespace attend {
namespace {

constexpr std::array<std::string_view, 10> kBullets = {"-", "*", "+", "•", "◦", "▪", "‣", "–", "—", "·"};

// Length of the marker itself at the start of `line`, or 0.
size_t marker_length(std::string_view line) {
  for (std::string_view bullet : kBullets) {
    if (line.substr(0, bullet.size()) == bullet) return bullet.size();
  }
  size_t digits = 0;
  while (digits < line.size() && digits < 4 && is_ascii_digit(line[digits])) ++digits;
  if (digits > 0 && digits < 4 && digits < line.size() && (line[digits] == '.' || line[digits] == ')')) return digits + 1;
  if (line.size() >= 2 && line[0] >= 'a' && line[0] <= 'z' && line[1] == ')') return 2;
  if (!line.empty() && line[0] == '(') {
    size_t close = 1;
    while (close < line.size() && close < 5 && is_ascii_digit(line[close])) ++close;
    if (close > 1 && close < line.size() && line[close] == ')') return close + 1;
  }
  size_t hashes = 0;
  while (hashes < line.size() && hashes < 7 && line[hashes] == '#') ++hashes;
  return hashes >= 1 && hashes <= 6 ? hashes : 0;
}

bool is_letter_start(std::string_view text) {
  if (text.empty()) return false;
  const auto c = static_cast<unsigned char>(text[0]);
  return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || c >= 0x80;
}

// The end of the spaces and tabs from text[at].
size_t spaces_end(std::string_view text, size_t at) {
  while (at < text.size() && (text[at] == ' ' || text[at] == '\t')) ++at;
  return at;
}

}  // namespace

size_t list_marker_length(std::string_view line) {
  const size_t marker = marker_length(line);
  const size_t end = spaces_end(line, marker);
  if (marker == 0 || end == marker) return 0;
  // "# 8 for Iowa State": a number sign, not a heading.
  if (line[0] == '#' && !is_letter_start(line.substr(end))) return 0;
  return end;
}

size_t enumerator_length(std::string_view sentence) {
  const size_t marker = marker_length(sentence);
  const size_t end = spaces_end(sentence, marker);
  return marker > 0 && sentence[marker - 1] == ')' && end > marker ? end : 0;
}

}  // namespace attend
