#include "html/html_text.h"

#include <algorithm>
#include <cstdint>
#include <optional>

#include "html/html_names.h"
#include "text/ascii.h"

namespace attend {
namespace {

// Longest reference name or number read; longer runs are not references.
constexpr size_t kMaxReferenceLength = 32;

bool is_alnum(char c) { return is_ascii_digit(c) || is_ascii_letter(c); }

std::optional<uint32_t> number(std::string_view digits, int base) {
  if (digits.empty()) return std::nullopt;
  uint32_t value = 0;
  for (const char c : digits) {
    int digit = -1;
    if (c >= '0' && c <= '9') digit = c - '0';
    if (base == 16 && c >= 'a' && c <= 'f') digit = c - 'a' + 10;
    if (base == 16 && c >= 'A' && c <= 'F') digit = c - 'A' + 10;
    if (digit < 0) return std::nullopt;
    value = std::min<uint32_t>(value * base + digit, 0x110000);  // anything larger decodes to U+FFFD
  }
  return value;
}

// The code point of reference raw[at] == '&' ... ';' and the length of the reference.
std::optional<std::pair<uint32_t, size_t>> reference_at(std::string_view raw, size_t at) {
  const size_t semicolon = raw.find(';', at + 1);
  if (semicolon == std::string_view::npos || semicolon - at > kMaxReferenceLength) return std::nullopt;
  const std::string_view body = raw.substr(at + 1, semicolon - at - 1);
  std::optional<uint32_t> code_point;
  if (body.size() > 1 && body[0] == '#' && (body[1] == 'x' || body[1] == 'X')) {
    code_point = number(body.substr(2), 16);
  } else if (!body.empty() && body[0] == '#') {
    code_point = number(body.substr(1), 10);
  } else if (std::all_of(body.begin(), body.end(), is_alnum)) {
    code_point = named_reference(body);
  }
  if (!code_point) return std::nullopt;
  return std::make_pair(*code_point, semicolon + 1 - at);
}

}  // namespace

bool is_html_space(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f'; }

bool is_html_whitespace(std::string_view text) { return std::all_of(text.begin(), text.end(), is_html_space); }

std::string decode_references(std::string_view raw) {
  std::string text;
  text.reserve(raw.size());
  for (size_t at = 0; at < raw.size();) {
    const auto reference = raw[at] == '&' ? reference_at(raw, at) : std::nullopt;
    if (reference) {
      text += utf8_of(reference->first);
      at += reference->second;
    } else {
      text += raw[at++];
    }
  }
  return text;
}

void append_escaped(std::string& out, std::string_view text) {
  for (size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (c == '&') {
      out += "&amp;";
    } else if (c == '<') {
      out += "&lt;";
    } else if (c == '>') {
      out += "&gt;";
    } else if (c == '\xC2' && i + 1 < text.size() && text[i + 1] == '\xA0') {
      out += "&nbsp;";
      ++i;
    } else {
      out += c;
    }
  }
}

}  // namespace attend
