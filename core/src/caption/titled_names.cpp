#include "caption/titled_names.h"

#include <algorithm>
#include <array>
#include <string>

#include "text/ascii.h"
#include "text/false_break.h"
#include "caption/function_words.h"
#include "text/letter_case.h"
#include "text/letters.h"

namespace attend {
namespace {

// The words of a name after its title and initials, at most ("Dr. Martin Luther King").
constexpr size_t kMostNameWords = 3;

// Titles written without their dot too (British "Mr Smith", French "Mme Dupont"), and French ones
// written out ("Madame Dupont").
constexpr std::array<std::string_view, 10> kUndottedTitles = {"Mr",  "Mrs",    "Ms",     "Dr",       "Mme",
                                                              "Mlle", "Madame", "Monsieur", "Mademoiselle", "Miss"};

// French "M." and "MM." (Monsieur, Messieurs), elsewhere initials ("John M. Smith").
bool is_french_title_word(std::string_view word) { return word == "M." || word == "MM."; }

// German words before a noun: articles and determiners, and those that end as an adjective does.
constexpr std::array<std::string_view, 12> kGermanDeterminers = {"ein", "der",  "die", "das",  "den", "dem",
                                                                 "des", "kein", "mein", "sein", "ihr", "unser"};

// Adjectives of a letter's greeting, before a title ("Liebe Frau Müller", "Sehr geehrter Herr Weber").
constexpr std::array<std::string_view, 4> kGermanGreetings = {"liebe", "lieber", "geehrte", "geehrter"};

// Whether `word` (lowercased) is one a German noun may follow: a
// determiner, or a word of four letters or more ending as an adjective or determiner does
// ("eine", "ältere", "jungen", "dieser").
bool before_german_noun(std::string_view word) {
  if (std::find(kGermanDeterminers.begin(), kGermanDeterminers.end(), word) != kGermanDeterminers.end()) return true;
  if (std::find(kGermanGreetings.begin(), kGermanGreetings.end(), word) != kGermanGreetings.end()) return false;
  const auto ends_with = [&](std::string_view ending) {
    return word.size() >= ending.size() && word.substr(word.size() - ending.size()) == ending;
  };
  return word.size() >= 4 && (ends_with("e") || ends_with("en") || ends_with("er") || ends_with("em") || ends_with("es"));
}

// German "Herr", "Herrn", "Frau" are titles ("Frau Müller wohnt in Berlin") but after a word a
// noun may follow, where they are nouns ("eine ältere Frau Brot", "ein Herr Motorrad": Multi30k's
// training text has these, and no title). `before`: the word before in its sentence, or empty; after
// punctuation ("Heute, Frau Müller, …") a title.
bool is_german_title_word(std::string_view word, std::string_view before) {
  if (word != "Herr" && word != "Herrn" && word != "Frau") return false;
  return before.empty() || is_ascii_punctuation(before.back()) || !before_german_noun(to_lowercase(before));
}

// Whether `word` (without the punctuation after it, in lowercase) is a function word of any of the
// languages ("The", "Le", "Der"): no name's first word.
bool is_any_function_word(std::string_view word) {
  while (!word.empty() && is_ascii_punctuation(word.back())) word.remove_suffix(1);
  return is_function_word_in_any_language(to_lowercase(word));
}

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

std::vector<ByteRange> titled_names(std::string_view text, Language language) {
  const std::vector<ByteRange> words = words_between_spaces(text);
  std::vector<ByteRange> found;
  // Name words after a title: German capitalises its nouns, so a capital after the name says nothing ("Dr. Müller Kuchen").
  const size_t most_words = language == Language::german ? 1 : kMostNameWords;
  for (size_t k = 0; k + 1 < words.size(); ++k) {
    const std::string_view title = slice(text, words[k]);
    std::string_view before = k > 0 ? slice(text, words[k - 1]) : "";  // in the same sentence
    if (!before.empty() && std::string_view(".!?:").find(before.back()) != std::string_view::npos) before = "";
    if (!is_title_word(title) && !(is_french_title_word(title) && language == Language::french) &&
        !(is_german_title_word(title, before) && language == Language::german)) {
      continue;
    }
    size_t end = 0;  // of the name so far; 0: none yet
    size_t name_words = 0;
    size_t next = k + 1;
    for (; next < words.size() && name_words < most_words; ++next) {
      std::string_view word = slice(text, words[next]);
      if (first_letter(word) != Letter::upper) break;
      if (is_initial(word) || is_title_word(word)) continue;  // "Dr. J. Smith", "Prof. Dr. Müller"
      if (name_words == 0 && is_any_function_word(word)) break;  // Title Case: "Don't Miss The Big Game"
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
