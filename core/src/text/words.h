// Words as the text rules see them: runs of characters between spaces, and the apostrophes that
// join a word's parts ("I'm", "CAN’T"). Text is valid UTF-8; offsets are bytes.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace attend {

// Bytes [begin, end) of a text.
struct ByteRange {
  size_t begin = 0;
  size_t end = 0;
};

// The bytes of `text` in `range`.
inline std::string_view slice(std::string_view text, const ByteRange& range) {
  return text.substr(range.begin, range.end - range.begin);
}

// The length in bytes of the space at text[at], or 0: ASCII whitespace, and the no-break and
// narrow no-break spaces (French puts one before : ! ? and inside « »).
size_t space_at(std::string_view text, size_t at);

// The length in bytes of the space (space_at) that ends right before text[at], or 0.
size_t space_before(std::string_view text, size_t at);

// The length in bytes of the apostrophe (' or ’) at text[at], or 0.
size_t apostrophe_at(std::string_view text, size_t at);

// Whether text[at, end) holds only spaces (space_at) and closing quotes or brackets ( " ' ) ] } ”
// ’ » “ ): a dot before it is the text's last ("… at 5 p.m.\"", "… the U.S.)").
bool ends_text(std::string_view text, size_t at);

// The runs of characters between spaces (space_at), in text order.
std::vector<ByteRange> words_between_spaces(std::string_view text);

// `range` of `text` without the ASCII punctuation around it; a final dot kept when `keep_dot`
// ("a.m." of "9 a.m.,").
ByteRange without_punctuation(std::string_view text, ByteRange range, bool keep_dot = false);

// The word before words[i] of `text` (words_between_spaces) in lowercase without its
// punctuation; empty where a sentence opens (i = 0, or after . ! ? or :, but an ordinal's dot:
// "des 1. Sonntags").
std::string word_before_in_sentence(std::string_view text, const std::vector<ByteRange>& words, size_t i);

}  // namespace attend
