#include "pipeline/web_addresses.h"

#include <algorithm>

#include "text/ascii.h"
#include "text/letter_case.h"
#include "text/words.h"

namespace attend {
namespace {

bool is_non_ascii(char c) { return (static_cast<unsigned char>(c) & 0x80) != 0; }

// A letter in any script: ASCII letters and every non-ASCII character (text is valid UTF-8).
bool is_letter(char c) { return is_ascii_letter(c) || is_non_ascii(c); }

bool is_handle_character(char c) { return is_letter(c) || is_ascii_digit(c) || c == '_'; }

// Quotes around an address, typographic: “…” „…“ «…» ‘…’ ‹…›.
constexpr std::string_view kOpeningQuotes[] = {"\u201C", "\u201E", "\u00AB", "\u2018", "\u201A", "\u2039"};
constexpr std::string_view kClosingQuotes[] = {"\u201D", "\u201C", "\u00BB", "\u2019", "\u2018", "\u203A"};

// The length in bytes of the ASCII bracket or quote, or typographic quote, that `word` opens with, or 0.
size_t opening_at_start(std::string_view word) {
  if (word[0] == '(' || word[0] == '[' || word[0] == '<' || word[0] == '"' || word[0] == '\'') return 1;
  for (std::string_view quote : kOpeningQuotes) {
    if (word.substr(0, quote.size()) == quote) return quote.size();
  }
  return 0;
}

// The length in bytes of the typographic quote `word` ends with, or 0.
size_t closing_quote_at_end(std::string_view word) {
  for (std::string_view quote : kClosingQuotes) {
    if (word.size() >= quote.size() && word.substr(word.size() - quote.size()) == quote) return quote.size();
  }
  return 0;
}

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
         (word.size() > 4 && to_lowercase(word.substr(0, 4)) == "www.");
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
  for (ByteRange word : words_between_spaces(text)) {
    const auto rest = [&] { return slice(text, word); };
    while (word.begin < word.end) {
      const size_t opening = opening_at_start(rest());
      if (opening == 0) break;
      word.begin += opening;
    }
    while (word.end > word.begin) {
      const size_t closing = ends_with_sentence_punctuation(rest()) ? 1 : closing_quote_at_end(rest());
      if (closing == 0) break;
      word.end -= closing;
    }
    const std::string_view candidate = slice(text, word);
    if (is_url(candidate) || is_email(candidate) || is_handle_or_hashtag(candidate)) addresses.push_back(word);
  }
  return addresses;
}

}  // namespace attend
