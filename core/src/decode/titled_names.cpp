#include "decode/titled_names.h"

#include <algorithm>
#include <array>
#include <string>

#include "text/ascii.h"
#include "text/false_break.h"
#include "text/function_words.h"
#include "text/letters.h"

namespace attend {
namespace {

// The words of a name after its title and initials, at most ("Dr. Martin Luther King").
constexpr size_t kMostNameWords = 3;

// Titles written without their dot too (British "Mr Smith", French "Mme Dupont").
constexpr std::array<std::string_view, 6> kUndottedTitles = {"Mr", "Mrs", "Ms", "Dr", "Mme", "Mlle"};

// French "M." and "MM." (Monsieur, Messieurs), elsewhere initials ("John M. Smith").
bool is_french_title_word(std::string_view word) { return word == "M." || word == "MM."; }

bool is_title_word(std::string_view word) {
  if (word.empty() || word[0] < 'A' || word[0] > 'Z') return false;
  if (word.back() == '.') return is_title(word.substr(0, word.size() - 1));
  return std::find(kUndottedTitles.begin(), kUndottedTitles.end(), word) != kUndottedTitles.end();
}

// "J.", "É." are initials, part of the name.
bool is_initial(std::string_view word) {
  size_t length = 0;
  return !word.empty() && letter_at(word, 0, &length) == Letter::upper && word.size() == length + 1 && word.back() == '.';
}

}  // namespace

std::vector<ByteRange> titled_names(std::string_view text) {
  const std::vector<ByteRange> words = words_between_spaces(text);
  std::vector<ByteRange> found;
  size_t most_words = 0;  // name words after a title; guessed at the first title
  for (size_t k = 0; k + 1 < words.size(); ++k) {
    const std::string_view title = slice(text, words[k]);
    if (!is_title_word(title) && !(is_french_title_word(title) && guess_language(text) == Language::french)) continue;
    // German capitalises its nouns: there a capital after the name says nothing ("Dr. Müller Kuchen").
    if (most_words == 0) most_words = guess_language(text) == Language::german ? 1 : kMostNameWords;
    size_t end = 0;  // of the name so far; 0: none yet
    size_t name_words = 0;
    size_t next = k + 1;
    for (; next < words.size() && name_words < most_words; ++next) {
      std::string_view word = slice(text, words[next]);
      if (first_letter(word) != Letter::upper) break;
      if (is_initial(word) || is_title_word(word)) continue;  // "Dr. J. Smith", "Prof. Dr. Müller"
      ++name_words;
      size_t length = word.size();
      while (length > 0 && is_ascii_punctuation(word[length - 1]) && word[length - 1] != '\'') --length;
      end = words[next].begin + length;
      if (length < word.size()) break;  // "Brown," "Brown." end the name
    }
    if (end != 0) found.push_back(ByteRange{words[k].begin, end});
    k = next - 1;
  }
  return found;
}

}  // namespace attend
