#include "decode/web_addresses.h"

#include <algorithm>

#include "text/ascii.h"
namespace attend {
namespace {

bool is_ascii_letter(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); }

bool is_non_ascii(char c) { return (static_cast<unsigned char>(c) & 0x80) != 0; }

// A letter in any script: ASCII letters and every non-ASCII character (text is valid UTF-8).
bool is_letter(char c) { return is_ascii_letter(c) || is_non_ascii(c); }

bool is_handle_character(char c) { return is_letter(c) || (c >= '0' && c <= '9') || c == '_'; }

bool opens(char c) { return c == '(' || c == '[' || c == '<' || c == '"' || c == '\''; }

// Whether the word's last character is the sentence's rather than the address's: punctuation, a
// quote, or a closing bracket the address did not open itself ("https://en.wikipedia.org/wiki/Bonn_(city)").
bool ends_with_sentence_punctuation(std::string_view word) {
  const auto more = [&](char open, char close) {
    return std::count(word.begin(), word.end(), open) < std::count(word.begin(), word.end(), close);
  };
  switch (word.back()) {
    case '.': case ',': case ';': case ':': case '!': case '?': case '"': case '\'': case '>':
      return true;
    case ')':
      return more('(', ')');
    case ']':
      return more('[', ']');
    default:
      return false;
  }
}

bool is_url(std::string_view word) {
  const size_t scheme_end = word.find("://");
  return (scheme_end != std::string_view::npos && scheme_end > 0 && is_ascii_letter(word[scheme_end - 1]) &&
          scheme_end + 3 < word.size()) ||
         (word.substr(0, 4) == "www." && word.size() > 4);
}

bool is_email(std::string_view word) {
  const size_t at = word.find('@');
  if (at == 0 || at == std::string_view::npos) return false;
  const std::string_view domain = word.substr(at + 1);
  const size_t dot = domain.find('.');
  return dot != std::string_view::npos && dot > 0 && dot + 1 < domain.size();
}

bool is_handle_or_hashtag(std::string_view word) {
  if (word.size() < 2) return false;
  return (word[0] == '@' && is_handle_character(word[1])) || (word[0] == '#' && is_letter(word[1]));
}

}  // namespace

std::vector<ByteRange> web_addresses(std::string_view text) {
  std::vector<ByteRange> addresses;
  for (size_t at = 0; at < text.size();) {
    if (is_ascii_space(text[at])) {
      ++at;
      continue;
    }
    ByteRange word{at, at};
    while (word.end < text.size() && !is_ascii_space(text[word.end])) ++word.end;
    at = word.end;
    while (word.begin < word.end && opens(text[word.begin])) ++word.begin;
    while (word.end > word.begin && ends_with_sentence_punctuation(text.substr(word.begin, word.end - word.begin))) {
      --word.end;
    }
    const std::string_view candidate = text.substr(word.begin, word.end - word.begin);
    if (is_url(candidate) || is_email(candidate) || is_handle_or_hashtag(candidate)) addresses.push_back(word);
  }
  return addresses;
}

}  // namespace attend
