#include "caption/titles.h"

#include <algorithm>
#include <array>
#include <vector>

#include "text/ascii.h"
#include "caption/in_each_language.h"
#include "text/letters.h"
#include "text/words.h"

namespace attend {
namespace {

// The title each language writes for each of Addressed, in its order (German has no title for a
// young woman but "Frau").
constexpr InEachLanguage kWrittenTitles[] = {
    {"Mr.", "Herr", "M."}, {"Messrs.", "Herren", "MM."}, {"Ms.", "Frau", "Mme"}, {"Mrs.", "Frau", "Mme"}, {"Miss", "Frau", "Mlle"}};

struct Title {
  std::string_view word;
  Language language;
  Addressed addressed;
};

constexpr std::array<Title, 17> kTitles = {{
    {"Mr.", Language::english, Addressed::man},
    {"Mr", Language::english, Addressed::man},
    {"Ms.", Language::english, Addressed::woman},
    {"Ms", Language::english, Addressed::woman},
    {"Mrs.", Language::english, Addressed::married_woman},
    {"Mrs", Language::english, Addressed::married_woman},
    {"Miss", Language::english, Addressed::young_woman},
    {"Herr", Language::german, Addressed::man},
    {"Herrn", Language::german, Addressed::man},
    {"Frau", Language::german, Addressed::woman},
    {"M.", Language::french, Addressed::man},
    {"Monsieur", Language::french, Addressed::man},
    {"MM.", Language::french, Addressed::men},
    {"Mme", Language::french, Addressed::married_woman},
    {"Madame", Language::french, Addressed::married_woman},
    {"Mlle", Language::french, Addressed::young_woman},
    {"Mademoiselle", Language::french, Addressed::young_woman},
}};

// German prepositions, after which "Herr" is "Herrn" (dative, accusative or genitive).
constexpr std::array<std::string_view, 25> kGermanPrepositions = {
    "mit",  "zu",    "von",    "bei",   "an",    "auf",   "in",       "für",        "gegen",  "ohne", "um",    "durch", "nach",
    "aus",  "seit",  "neben",  "hinter", "über", "unter", "vor",      "zwischen",   "gegenüber", "außer", "wegen", "trotz"};

}  // namespace

std::optional<Addressed> addressed_by(std::string_view title, Language language) {
  const auto known = std::find_if(kTitles.begin(), kTitles.end(),
                                  [&](const Title& t) { return t.word == title && t.language == language; });
  if (known == kTitles.end()) return std::nullopt;
  return known->addressed;
}

Language language_of_title(std::string_view word) {
  Language found = Language::unknown;
  for (const Title& title : kTitles) {
    if (title.word != word) continue;
    if (found != Language::unknown && found != title.language) return Language::unknown;
    found = title.language;
  }
  return found;
}

std::optional<std::string> title_in(std::string_view title, Language source, Language target, std::string_view word_before) {
  if (target == Language::unknown || target == source) return std::nullopt;
  const std::optional<Addressed> addressed = addressed_by(title, source);
  if (!addressed) return std::nullopt;
  const bool after_preposition =
      std::find(kGermanPrepositions.begin(), kGermanPrepositions.end(), word_before) != kGermanPrepositions.end();
  if (target == Language::german && *addressed == Addressed::man && after_preposition) return "Herrn";
  return std::string(kWrittenTitles[static_cast<size_t>(*addressed)].in(target));
}

std::string titles_in(std::string_view text, Language source, Language target, std::string_view word_before) {
  const std::vector<ByteRange> words = words_between_spaces(text);
  std::string out;
  size_t written = 0;  // text[0, written) is in out
  for (size_t i = 0; i + 1 < words.size(); ++i) {
    const std::optional<std::string> title = title_in(slice(text, words[i]), source, target, i == 0 ? word_before : "");
    if (!title || first_letter(slice(text, words[i + 1])) != Letter::upper) continue;
    // After a name's word, "M." is an initial ("Jean M. Dupont"); after punctuation or a lowercase
    // word, a title ("Smith, Mme Brown", "Smith and Mrs. Brown").
    const std::string_view before = i > 0 ? slice(text, words[i - 1]) : "";
    if (!before.empty() && first_letter(before) == Letter::upper && !is_ascii_punctuation(before.back())) continue;
    out.append(text, written, words[i].begin - written);
    out += *title;
    written = words[i].end;
  }
  out.append(text, written);
  return out;
}

}  // namespace attend
