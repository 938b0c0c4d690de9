#include "caption/recasing.h"

#include <algorithm>
#include <cstddef>
#include <utility>
#include <vector>

#include "caption/function_words.h"
#include "text/ascii.h"
#include "text/letter_case.h"
#include "text/letters.h"
#include "text/words.h"

namespace attend {
namespace {

// A word: a run of letters, with ' or ’ between two letters inside it ("CAN'T").
struct LetterWord {
  size_t begin = 0, end = 0;                       // bytes of the text
  std::vector<std::pair<size_t, size_t>> letters;  // each letter's offset and length in bytes
  bool capitals = true;                            // no lowercase letter
  bool opens_sentence = false;                     // the text's first word, or the first after . ! ?
};

std::vector<LetterWord> letter_words(std::string_view text) {
  std::vector<LetterWord> words;
  bool sentence_start = true;
  size_t length = 0;
  for (size_t i = 0; i < text.size();) {
    if (letter_at(text, i, &length) == Letter::none) {
      sentence_start = sentence_start || text[i] == '.' || text[i] == '!' || text[i] == '?';
      i += length;
      continue;
    }
    LetterWord word;
    word.begin = i;
    word.opens_sentence = sentence_start;
    sentence_start = false;
    for (;;) {
      const Letter letter = letter_at(text, i, &length);
      word.capitals = word.capitals && letter == Letter::upper;
      word.letters.emplace_back(i, length);
      i += length;
      if (i >= text.size()) break;
      if (letter_at(text, i, &length) != Letter::none) continue;
      const size_t apostrophe = apostrophe_at(text, i);
      if (apostrophe == 0 || i + apostrophe >= text.size() || letter_at(text, i + apostrophe, &length) == Letter::none) break;
      i += apostrophe;  // "CAN'T": the word goes on
    }
    word.end = i;
    words.push_back(std::move(word));
  }
  return words;
}

}  // namespace

std::string sentence_case_if_all_caps(std::string_view text) {
  std::string out(text);
  if (!is_all_caps(text)) return out;
  bool first = true;
  for (size_t i = 0, length; i < out.size(); i += length) {
    if (letter_at(out, i, &length) != Letter::upper) continue;
    if (!first) out.replace(i, length, to_lowercase(out.substr(i, length)));
    first = false;
  }
  return out;
}

// Articles before an organisation's acronym ("the WHO", "die UNO", "le FMI").
constexpr std::string_view kArticles[] = {"the", "der", "die", "das", "dem", "den", "des", "le", "la", "les"};

std::string lowercase_shouted_words(std::string_view text, const KnowsLowercase& knows_lowercase) {
  std::string out(text);
  const std::vector<LetterWord> words = letter_words(text);
  const auto shouted = [&](size_t k) { return words[k].capitals && words[k].letters.size() >= 2; };
  const auto spaces_between = [&](size_t k) {  // between words k - 1 and k
    const std::string_view gap = text.substr(words[k - 1].end, words[k].begin - words[k - 1].end);
    return std::all_of(gap.begin(), gap.end(), is_ascii_space);
  };
  const auto after_article = [&](size_t k) {
    if (k == 0 || !spaces_between(k)) return false;
    const std::string before = to_lowercase(text.substr(words[k - 1].begin, words[k - 1].end - words[k - 1].begin));
    return std::find(std::begin(kArticles), std::end(kArticles), before) != std::end(kArticles);
  };
  for (size_t first = 0; first < words.size();) {
    size_t end = first;  // words[first, end): shouted words with only spaces between ("FREE HUGS")
    while (end < words.size() && shouted(end) && (end == first || spaces_between(end))) ++end;
    if (end == first) {
      ++first;
      continue;
    }
    // One word of three letters at most after an article, that in lowercase is a function word no
    // article stands before, names an organisation ("the WHO"; "the BIG ball" is shouted).
    const bool acronym = end - first == 1 && words[first].letters.size() <= 3 && after_article(first) &&
                         is_function_word_in_any_language(to_lowercase(text.substr(words[first].begin, words[first].end - words[first].begin)));
    size_t letters = 0;
    bool known = !acronym;
    for (size_t k = first; k < end; ++k) {
      letters += words[k].letters.size();
      known = known && knows_lowercase(text.substr(words[k].begin, words[k].end - words[k].begin));
    }
    for (size_t k = first; known && letters >= 3 && k < end; ++k) {
      for (size_t l = words[k].opens_sentence ? 1 : 0; l < words[k].letters.size(); ++l) {
        const auto [at, length] = words[k].letters[l];
        out.replace(at, length, to_lowercase(out.substr(at, length)));
      }
    }
    first = end;
  }
  return out;
}

}  // namespace attend
