// caption/quotations.h: quotations that pass through, their stand-in, and where they go.
#include "caption/quotations.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "texts_of.h"

namespace attend {
namespace {

using Texts = std::vector<std::string>;

Texts quotations_in(std::string_view text) { return texts_of(text, quotations(text)); }

TEST(Quotations, ASignsTextOrANameInQuotationMarks) {
  EXPECT_EQ(quotations_in("A woman on a boat named \"El Corazon\" drops weights."), Texts{"\"El Corazon\""});
  EXPECT_EQ(quotations_in("A banner that says, \"Memoria Justicia Sin Olvido.\""), Texts{"\"Memoria Justicia Sin Olvido.\""});
  EXPECT_EQ(quotations_in("Ein Kind mit der Nummer \"93\" und ein Schild „Love Parade“."), (Texts{"\"93\"", "„Love Parade“"}));
  EXPECT_EQ(quotations_in("Un panneau « Viet Nam » et (“Free Hugs”)."), (Texts{"« Viet Nam »", "“Free Hugs”"}));
}

TEST(Quotations, NotWordsInLowercaseOrBrokenMarks) {
  EXPECT_EQ(quotations_in("A young woman in \"street clothes\" gives a \"bath\"."), Texts{});
  EXPECT_EQ(quotations_in("He said \"Hi and left."), Texts{});           // never closed
  EXPECT_EQ(quotations_in("A x\"Y\" and \"Z\"s here."), Texts{});       // marks inside words
  EXPECT_EQ(quotations_in("A sign \"\" and \" \"."), Texts{});           // empty
  EXPECT_EQ(quotations_in("\"One two three four five six seven eight nine ten eleven twelve thirteen\""), Texts{});
}

TEST(Quotations, TheMarksOfWordsTheModelsTranslate) {
  const auto marks_in = [](std::string_view text) { return texts_of(text, word_quotation_marks(text)); };
  EXPECT_EQ(marks_in("A young woman in \"street clothes\" gives a \"bath\"."), (Texts{"\"", "\"", "\"", "\""}));
  EXPECT_EQ(marks_in("A boat named \"El Corazon\"."), Texts{});  // passes whole
  // German capitalises its nouns, and they pass too: given to de-en, "Pullman" became "peacock".
  EXPECT_EQ(quotations_in("Ein Junge fährt in einem „Pullman“ und ein „lustiger“ Hund."), Texts{"„Pullman“"});
  EXPECT_EQ(marks_in("Ein Junge fährt in einem „Pullman“ und ein „lustiger“ Hund."), (Texts{"„", "“"}));
  const std::string text = "A man in \"street clothes\", dancing.";
  EXPECT_TRUE(opens_quotation(text, ByteRange{9, 10}));
  EXPECT_FALSE(opens_quotation(text, ByteRange{23, 24}));  // a straight mark closing, before a comma
  const std::string french = "Un homme en « tenue de rue » danse.";  // spaces inside: « opens, » closes
  const size_t open = french.find("«"), close = french.find("»");
  EXPECT_TRUE(opens_quotation(french, ByteRange{open, open + 2}));
  EXPECT_FALSE(opens_quotation(french, ByteRange{close, close + 2}));
  EXPECT_TRUE(is_quotation_mark("„"));
  EXPECT_FALSE(is_quotation_mark("\"\""));
  EXPECT_EQ(quotation_mark_in("\"", true, Language::german), "„");
  EXPECT_EQ(quotation_mark_in("„", false, Language::english), "\"");
  EXPECT_EQ(quotation_mark_in("«", true, Language::unknown), "«");
}

TEST(Quotations, TheStandInIsSBetweenTheSourcesMarks) {
  EXPECT_EQ(quotation_stand_in("\"El Corazon\""), "\"S\"");
  EXPECT_EQ(quotation_stand_in("„Love Parade“"), "„S“");
  EXPECT_EQ(quotation_stand_in("« Viet Nam »"), "«S»");
  EXPECT_TRUE(is_quotation_stand_in("„S“"));
  EXPECT_FALSE(is_quotation_stand_in("someone"));
  EXPECT_FALSE(is_quotation_stand_in("\"T\""));
}

TEST(Quotations, PlacedWhereTheModelWroteAQuotation) {
  // en-de read "A woman on a boat named "S" drops weights." as "… mit der Aufschrift „S“ schwingt …".
  const std::vector<std::string> german = {"▁Eine", "▁Frau", "▁mit", "▁der", "▁Aufschrift", "▁„", "S", "“", "▁schwingt", "."};
  const std::vector<WordSpan> words = piece_words(german);
  std::vector<bool> replaced(words.size(), false);
  const std::optional<QuotationPlace> place = place_quotation("\"El Corazon\"", german, words, 4, replaced);
  ASSERT_TRUE(place);
  EXPECT_EQ(place->text, "„El Corazon“");  // the translation's marks
  EXPECT_EQ(place->begin, 5);
  EXPECT_EQ(place->end, 8);
  EXPECT_TRUE(replaced[5]);
  // Taken: none left for a second quotation.
  EXPECT_FALSE(place_quotation("\"Pullman\"", german, words, 4, replaced));
  // A quotation the model left open ("SS on his computer") is its first word alone.
  const std::vector<std::string> open = {"▁A", "▁man", "▁playing", "▁\"", "SS", "▁on", "▁his", "▁computer", "."};
  const std::vector<WordSpan> open_words = piece_words(open);
  std::vector<bool> none(open_words.size(), false);
  const std::optional<QuotationPlace> playing = place_quotation("\"Mike Tyson's Punchout\"", open, open_words, 2, none);
  ASSERT_TRUE(playing);
  EXPECT_EQ(playing->text, "\"Mike Tyson's Punchout\"");
  EXPECT_EQ(playing->begin, 3);
  EXPECT_EQ(playing->end, 5);
  // No quotation in the translation: none.
  const std::vector<std::string> plain = {"▁A", "▁sign", "."};
  std::vector<bool> unreplaced(2, false);
  EXPECT_FALSE(place_quotation("\"Stop\"", plain, piece_words(plain), 0, unreplaced));
}

}  // namespace
}  // namespace attend
