#include "text/faces.h"

#include <array>
#include <cstdint>
#include <utility>

#include "text/emoticons.h"
#include "text/letters.h"
#include "text/utf8.h"
#include "text/words.h"

namespace attend {
namespace {

constexpr std::array<std::pair<uint32_t, uint32_t>, 5> kFaceEmoji = {{
    {0x1F600, 0x1F64F}, {0x1F910, 0x1F92F}, {0x1F970, 0x1F97A}, {0x1FAE0, 0x1FAE8}, {0x2639, 0x263A},
}};

bool in(const std::pair<uint32_t, uint32_t>& range, uint32_t c) { return c >= range.first && c <= range.second; }

bool is_face_emoji(uint32_t c) {
  for (const auto& range : kFaceEmoji) {
    if (in(range, c)) return true;
  }
  return false;
}

// A variation selector (U+FE0F: "☺️" drawn as emoji), a skin tone (U+1F3FB–U+1F3FF), or a zero-width
// joiner and the sign it joins ("🤦‍♂️": U+1F926 U+200D U+2642 U+FE0F).
bool is_modifier(uint32_t c) {
  return c == 0xFE0E || c == 0xFE0F || (c >= 0x1F3FB && c <= 0x1F3FF) || c == 0x200D || c == 0x2640 || c == 0x2642;
}

bool is_face_emoji_run(std::string_view word) {
  bool face = false;
  for (size_t at = 0; at < word.size();) {
    const CodePoint c = code_point_at(word, at);
    if (is_face_emoji(c.value)) {
      face = true;
    } else if (!face || !is_modifier(c.value)) {
      return false;
    }
    at += c.length;
  }
  return face;
}

}  // namespace

bool is_face(std::string_view word) {
  word = without_clause_mark(word);
  return (is_emoticon(word) && !is_heart(word)) || is_face_emoji_run(word);
}

bool only_faces(std::string_view text) {
  const std::vector<ByteRange> words = words_between_spaces(text);
  for (const ByteRange& word : words) {
    if (!is_face(slice(text, word))) return false;
  }
  return !words.empty();
}

std::vector<size_t> breaks_after_faces(std::string_view text) {
  std::vector<size_t> breaks;
  const std::vector<ByteRange> words = words_between_spaces(text);
  for (size_t k = 1; k < words.size(); ++k) {
    if (is_face(slice(text, words[k - 1])) && first_letter(slice(text, words[k])) == Letter::upper) breaks.push_back(words[k].begin);
  }
  return breaks;
}

}  // namespace attend
