// caption/spelled_names.h on hand-made tokens: which capitalised words count as names the
// vocabulary spells out, and when capitals are not a sign of names at all.
#include "caption/spelled_names.h"

#include <gtest/gtest.h>

#include <map>
#include <string>

#include "texts_of.h"

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

const KnowsLowercase knows_none = [](std::string_view) { return false; };

// The spelled names of `text` in `language` (the model file's source language).
std::vector<std::string> names_in(std::string_view text, const std::map<std::string, int>& spelled,
                                  const KnowsLowercase& knows = knows_none, Language language = Language::english) {
  return texts_of(text, spelled_names(text, tokens_of(text, spelled), knows, language));
}

using Names = std::vector<std::string>;

TEST(SpelledNames, ACapitalisedWordCutIntoShortPieces) {
  const std::string text = "Two cyclists cross the street on a very breezy California day.";
  EXPECT_EQ(names_in(text, {{"California", 8}, {"breezy", 5}}), Names{"California"});
  EXPECT_EQ(names_in(text, {{"California", 2}}), Names{});  // known well enough: 5 characters a piece
  EXPECT_EQ(names_in("A man in Paris.", {{"Paris.", 4}}), Names{"Paris"});  // 5 characters, 3 pieces + "."
  EXPECT_EQ(names_in("A man in Paris.", {{"Paris.", 2}}), Names{});           // 5 characters in 2 pieces
  EXPECT_EQ(names_in("A man in Paris.", {{"Paris.", 1}}), Names{});           // one piece: known
}

TEST(SpelledNames, ShortNamesInTwoPieces) {
  EXPECT_EQ(names_in("Tom and Anna play chess.", {{"Tom", 2}, {"Anna", 2}}), Names{"Anna"});  // Tom opens it
  EXPECT_EQ(names_in("A boy named Leo jumps.", {{"Leo", 2}}), Names{"Leo"});
  EXPECT_EQ(names_in("Ask Anna today.", {{"Anna", 2}}), Names{"Anna"});     // 4 characters in 2 pieces
  EXPECT_EQ(names_in("Ask Annabel today.", {{"Annabel", 2}}), Names{});
  EXPECT_EQ(names_in("Leo and Xiaoming meet Tom.", {{"Xiaoming", 5}, {"Tom.", 2}}), (Names{"Xiaoming", "Tom"}));
  // Beside a capitalised word the vocabulary knows, two pieces are not enough: a German noun.
  EXPECT_EQ(names_in("Ein Reh springt über einen Zaun.", {{"Reh", 2}}), Names{});
  EXPECT_EQ(names_in("An Asian man meets Tom.", {{"Tom.", 2}}), Names{});
  // The pronoun "I" is not such a word.
  EXPECT_EQ(names_in("My friend Leo and I swim, I'm sure.", {{"Leo", 2}, {"I'm", 3}}), Names{"Leo"});
}

TEST(SpelledNames, NotAWordTheVocabularyKnowsInLowercase) {
  const KnowsLowercase knows_mom = [](std::string_view word) { return word == "Mom"; };
  EXPECT_EQ(names_in("A card for Mom and Leo.", {{"Mom", 2}, {"Leo.", 3}}, knows_mom), Names{"Leo"});
  EXPECT_EQ(names_in("A card for Mom and Leo.", {{"Mom", 2}, {"Leo.", 3}}), (Names{"Mom", "Leo"}));
}

TEST(SpelledNames, NotASentenceStartNorALowercaseWord) {
  EXPECT_EQ(names_in("Xiaoming rides a bike.", {{"Xiaoming", 5}}), Names{});
  EXPECT_EQ(names_in("A dog runs. Xiaoming rides a bike.", {{"Xiaoming", 5}}), Names{});
  EXPECT_EQ(names_in("A boy, Xiaoming, rides a bike.", {{"Xiaoming,", 6}}), Names{"Xiaoming"});
  EXPECT_EQ(names_in("A very breezy day.", {{"breezy", 5}}), Names{});
}

TEST(SpelledNames, TitlesAndInitialsAreNoNamesAndEndNoSentence) {
  EXPECT_EQ(names_in("We met Mr. Xiaoming today.", {{"Mr.", 3}, {"Xiaoming", 5}}), Names{"Xiaoming"});
  EXPECT_EQ(names_in("A photo by J.P. Xiaoming.", {{"J.P.", 4}, {"Xiaoming.", 5}}), (Names{"J.P.", "Xiaoming"}));
  EXPECT_EQ(names_in("A dog runs in the U.S. today.", {{"U.S.", 3}}), Names{"U.S."});  // the dot is the name's
  EXPECT_EQ(names_in("We visited the U.S.", {{"U.S.", 4}}), Names{"U.S"});  // the dot ends the sentence
  EXPECT_EQ(names_in("We saw (the U.S.)", {{"U.S.)", 4}}), Names{"U.S"});   // before a closing bracket too
  EXPECT_EQ(names_in("We met him. Xiaoming smiled.", {{"Xiaoming", 5}}), Names{});  // a sentence start
}

TEST(SpelledNames, AcronymsPassWhereverTheyStand) {
  // At a sentence start, and beside capitalised words the vocabulary knows (New, York).
  EXPECT_EQ(names_in("IBM hires a man.", {{"IBM", 3}}), Names{"IBM"});
  EXPECT_EQ(names_in("A man works at IBM in New York.", {{"IBM", 2}}), Names{"IBM"});
  EXPECT_EQ(names_in("Ein Mann von der NASA und ein Kind.", {{"NASA", 2}}), Names{"NASA"});
  // One the vocabulary holds as a piece is known, and counts as a known capitalised word.
  EXPECT_EQ(names_in("A man rides a BMX bike.", {}), Names{});
  EXPECT_EQ(names_in("An Asian BMX rider meets Xiaoming.", {{"Xiaoming.", 5}}), Names{});  // two known, one name
  // Two capitals the vocabulary knows in lowercase are a shouted word: "The dog is SO happy."
  const KnowsLowercase knows_so = [](std::string_view word) { return word == "SO"; };
  EXPECT_EQ(names_in("The dog is SO happy, EU says.", {{"SO", 2}, {"EU", 2}}, knows_so), Names{"EU"});
  // A capital alone is no acronym; one word in capitals with a small letter is a name or none.
  EXPECT_EQ(names_in("A man reads A book.", {{"A", 2}}), Names{});
  EXPECT_EQ(names_in("Tom reads a book.", {{"Tom", 2}}), Names{});
}

TEST(SpelledNames, InnerCapitalsPassWhereverTheyStand) {
  // A capital after a lowercase letter: a brand or name, lowercase first, at a sentence start, in
  // German text and beside known capitalised words alike ("on her iPhone" was dropped).
  EXPECT_EQ(names_in("She watches YouTube on her iPhone and sells bikes on eBay.",
                     {{"YouTube", 3}, {"iPhone", 3}, {"eBay.", 2}}),
            (Names{"YouTube", "iPhone", "eBay"}));
  EXPECT_EQ(names_in("iPhone in der Hand, McDonald's in New York.", {{"iPhone", 3}, {"McDonald's", 4}}),
            (Names{"iPhone", "McDonald's"}));
  // Only its part between hyphens: "Der FedEx-Fahrer" read whole gave "The FedEx-Fahrer worker".
  EXPECT_EQ(names_in("Der FedEx-Fahrer und der Post-iPod-Mann hören zu.", {{"FedEx-Fahrer", 4}, {"Post-iPod-Mann", 6}}),
            (Names{"FedEx", "iPod"}));
  // After a French elision; not German's gender-inclusive ending.
  EXPECT_EQ(names_in("Il utilise l'iPhone de Paul.", {{"l'iPhone", 4}}), Names{"iPhone"});
  EXPECT_EQ(names_in("Die LehrerInnen und StudentIn streiken.", {{"LehrerInnen", 4}, {"StudentIn", 3}}), Names{});
  // One piece: the vocabulary knows it. A capital first and no lowercase before another: none.
  EXPECT_EQ(names_in("A man holds an iPad and a NoteBook.", {{"NoteBook.", 1}}), Names{});
  EXPECT_EQ(names_in("Ein Mann liest ABC.", {}), Names{});
}

TEST(SpelledNames, MonthsAndWeekdaysPassInGermanTextAndInTwoPieces) {
  // "The meeting is in March." was "Die Konferenz ist in New York."
  EXPECT_EQ(names_in("The New York meeting is in March.", {{"March.", 2}}), Names{"March"});
  EXPECT_EQ(names_in("Monday's meeting is in New York.", {{"Monday's", 4}}), Names{"Monday's"});
  // German capitalises its nouns, which hides other names, not these.
  EXPECT_EQ(names_in("Am Freitag spielen die Kinder im Park.", {{"Freitag", 2}, {"Kinder", 2}}, knows_none, Language::german), Names{"Freitag"});
  // Two pieces at a sentence start are a word there ("May I help?"); one piece is known.
  EXPECT_EQ(names_in("May I help? March on!", {{"May", 2}, {"March", 2}}), Names{});
  EXPECT_EQ(names_in("We met in June.", {}), Names{});
}

TEST(SpelledNames, FrenchMonthsAndWeekdaysInLowercaseAndOpeningASentence) {
  // "Un homme promène son chien en janvier." was "… his dog in a tub."
  EXPECT_EQ(names_in("Un homme promène son chien en janvier.", {{"janvier.", 4}}, knows_none, Language::french), Names{"janvier"});
  EXPECT_EQ(names_in("Deux enfants jouent en mai.", {{"mai.", 2}}, knows_none, Language::french), Names{"mai"});
  // Capitalised only where a sentence opens, in two pieces too ("Mardi, …" was "Mardidi, …").
  EXPECT_EQ(names_in("Mardi, un homme court.", {{"Mardi,", 2}}, knows_none, Language::french), Names{"Mardi"});
  EXPECT_EQ(names_in("Un homme nommé Mardi court.", {{"Mardi", 2}}, knows_none, Language::french), Names{});
  EXPECT_EQ(names_in("Mardi Gras beads hang from his neck.", {{"Mardi", 2}}), Names{});  // English
  // "Mars" is the planet wherever it stands; "mars" in lowercase the month.
  EXPECT_EQ(names_in("Mars est rouge.", {{"Mars", 2}}, knows_none, Language::french), Names{});
  EXPECT_EQ(names_in("Le 3 mars, il neige.", {{"mars,", 3}}, knows_none, Language::french), Names{"mars"});
}

TEST(SpelledNames, PunctuationAroundTheWordStaysOut) {
  EXPECT_EQ(names_in("Workers protest against (Equinox).", {{"(Equinox).", 7}}), Names{"Equinox"});
  EXPECT_EQ(names_in("He plays \"Mike Tyson's Punchout\" today.", {{"\"Mike", 4}, {"Tyson's", 4}, {"Punchout\"", 5}}),
            (Names{"Mike", "Tyson's", "Punchout"}));
}

TEST(SpelledNames, AWordWithApostrophesIsJudgedByItsLongestPart) {
  EXPECT_EQ(names_in("Yes, I'm here and I’ve won.", {{"I'm", 3}, {"I’ve", 3}}), Names{});
  EXPECT_EQ(names_in("He plays Tyson's game.", {{"Tyson's", 4}}), Names{"Tyson's"});
  EXPECT_EQ(names_in("He meets O'Brien today.", {{"O'Brien", 5}}), Names{"O'Brien"});
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
  EXPECT_EQ(spelled_names("A man in California.", {}, knows_none, Language::english).size(), 0u);
}

}  // namespace
}  // namespace attend
