#include "text/emoticons.h"

#include <string_view>

namespace attend {
namespace {

constexpr std::string_view kEyes = ":;=";
constexpr std::string_view kNoses = "-^o";
constexpr std::string_view kMouths = ")(][DPpOo/\\|*3$@{}";
// Faces read across: two eyes around a mouth "_" ("-_-"), or "." between round eyes ("o.O"; not
// letters that could be initials, "T.O.").
constexpr std::string_view kFaceEyes = "^-oOT><";
constexpr std::string_view kRoundEyes = "^oO";

bool one_of(std::string_view set, char c) { return set.find(c) != std::string_view::npos; }

// ":)", ":'(", ";-)", ":DD".
bool is_sideways_face(std::string_view word) {
  size_t at = 0;
  if (at == word.size() || !one_of(kEyes, word[at++])) return false;
  if (at < word.size() && word[at] == '\'') ++at;
  if (at < word.size() && one_of(kNoses, word[at]) && at + 1 < word.size()) ++at;
  if (at == word.size() || !one_of(kMouths, word[at])) return false;
  const char mouth = word[at];
  while (at < word.size() && word[at] == mouth) ++at;
  return at == word.size();
}

// "^_^", "-_-", "o_O", "T_T", ">_<", "^.^", "^^".
bool is_face_across(std::string_view word) {
  if (word == "^^") return true;
  if (word.size() != 3) return false;
  const std::string_view eyes = word[1] == '_' ? kFaceEyes : word[1] == '.' ? kRoundEyes : std::string_view();
  return one_of(eyes, word[0]) && one_of(eyes, word[2]);
}

bool ends_clause(char c) { return c == ',' || c == '.' || c == '!' || c == '?'; }

}  // namespace

bool is_heart(std::string_view word) { return word == "<3" || word == "</3"; }

bool is_emoticon(std::string_view word) {
  return is_sideways_face(word) || is_face_across(word) || is_heart(word) || word == "xD" || word == "XD";
}

std::string_view without_clause_mark(std::string_view word) {
  if (!word.empty() && ends_clause(word.back())) word.remove_suffix(1);
  return word;
}

std::vector<ByteRange> emoticons(std::string_view text) {
  std::vector<ByteRange> found;
  for (const ByteRange& word : words_between_spaces(text)) {
    const std::string_view face = without_clause_mark(slice(text, word));
    if (is_emoticon(face)) found.push_back(ByteRange{word.begin, word.begin + face.size()});
  }
  return found;
}

}  // namespace attend
