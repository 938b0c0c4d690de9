// decode/spelled_names.h on hand-made tokens: which capitalised words count as names the
// vocabulary spells out, and when capitals are not a sign of names at all.
#include "decode/spelled_names.h"

#include <gtest/gtest.h>

#include <map>
#include <string>

namespace attend {
namespace {

// Tokens of `text`: each word one piece, but the words in `spelled` cut into that many pieces
// of (nearly) equal bytes.
std::vector<TokenSpan> tokens_of(std::string_view text, const std::map<std::string, int>& spelled) {
  std::vector<TokenSpan> tokens;
  for (size_t at = 0; at < text.size();) {
    if (text[at] == ' ') {
      ++at;
      continue;
    }
    size_t end = text.find(' ', at);
    if (end == std::string_view::npos) end = text.size();
    const auto found = spelled.find(std::string(text.substr(at, end - at)));
    const size_t pieces = found == spelled.end() ? 1 : static_cast<size_t>(found->second);
    for (size_t k = 0; k < pieces; ++k) {
      tokens.push_back(TokenSpan{10, at + (end - at) * k / pieces, at + (end - at) * (k + 1) / pieces});
    }
    at = end;
  }
  return tokens;
}

std::vector<std::string> names_in(std::string_view text, const std::map<std::string, int>& spelled) {
  std::vector<std::string> out;
  for (const ByteRange& name : spelled_names(text, tokens_of(text, spelled))) {
    out.emplace_back(text.substr(name.begin, name.end - name.begin));
  }
  return out;
}

using Names = std::vector<std::string>;

TEST(SpelledNames, ACapitalisedWordCutIntoShortPieces) {
  const std::string text = "Two cyclists cross the street on a very breezy California day.";
  EXPECT_EQ(names_in(text, {{"California", 8}, {"breezy", 5}}), Names{"California"});
  EXPECT_EQ(names_in(text, {{"California", 2}}), Names{});  // known well enough: 5 characters a piece
  EXPECT_EQ(names_in("A man in Paris.", {{"Paris.", 4}}), Names{"Paris"});  // 5 characters, 3 pieces + "."
  EXPECT_EQ(names_in("A man in Paris.", {{"Paris.", 2}}), Names{});           // 2 pieces are too few
}

TEST(SpelledNames, NotASentenceStartNorALowercaseWord) {
  EXPECT_EQ(names_in("Xiaoming rides a bike.", {{"Xiaoming", 5}}), Names{});
  EXPECT_EQ(names_in("A dog runs. Xiaoming rides a bike.", {{"Xiaoming", 5}}), Names{});
  EXPECT_EQ(names_in("A boy, Xiaoming, rides a bike.", {{"Xiaoming,", 6}}), Names{"Xiaoming"});
  EXPECT_EQ(names_in("A very breezy day.", {{"breezy", 5}}), Names{});
}

TEST(SpelledNames, PunctuationAroundTheWordStaysOut) {
  EXPECT_EQ(names_in("Workers protest against (Equinox).", {{"(Equinox).", 7}}), Names{"Equinox"});
  EXPECT_EQ(names_in("He plays \"Mike Tyson's Punchout\" today.", {{"\"Mike", 4}, {"Tyson's", 4}, {"Punchout\"", 5}}),
            (Names{"Mike", "Tyson's", "Punchout"}));
}

TEST(SpelledNames, TextThatCapitalisesItsNounsHasNone) {
  // German: Kind, Frau and Käfig are known, only Hahn is spelled; capitals mark nouns, not names.
  const std::string german = "Ein kleines Kind und eine Frau stehen um einen Hahn im Käfig herum.";
  EXPECT_EQ(names_in(german, {{"Hahn", 3}}), Names{});
  // English with as many known capitalised words as names keeps its names.
  EXPECT_EQ(names_in("An Asian man walks with Michael.", {{"Michael.", 5}}), Names{"Michael"});
}

TEST(SpelledNames, TokensOutsideTheWordsDoNotCount) {
  // Hand-made tokens that cover none of a word leave it known.
  EXPECT_EQ(spelled_names("A man in California.", {}).size(), 0u);
}

}  // namespace
}  // namespace attend
