// A source that opens in lowercase gets a translation that does (caption/opening_case.h): the
// pieces' rules on the shipped en-de vocabulary, and the shipped en-de model, which opens every
// translation with a capital, on every path.
#include "caption/opening_case.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "attend/document.h"
#include "attend/html.h"
#include "attend/translator.h"
#include "shipped_en_de.h"

namespace attend {
namespace {

bool source_opens_in_lowercase(const std::string& source) {
  return opens_in_lowercase(source_vocabulary().encode(source), source_vocabulary());
}

// The texts of `hypotheses` after open_in_lowercase, in `language`.
std::vector<std::string> opened(std::vector<Hypothesis> hypotheses, Language language = Language::german) {
  open_in_lowercase(hypotheses, target_vocabulary(), language);
  std::vector<std::string> texts;
  for (const Hypothesis& h : hypotheses) texts.push_back(target_vocabulary().decode(h.ids));
  return texts;
}

TEST(OpeningCase, IsTheCaseOfTheSourcesFirstLetter) {
  EXPECT_TRUE(source_opens_in_lowercase("two dogs play."));
  EXPECT_TRUE(source_opens_in_lowercase("über the bridge"));
  EXPECT_FALSE(source_opens_in_lowercase("Two dogs play."));
  EXPECT_FALSE(source_opens_in_lowercase("9 a.m."));
  EXPECT_FALSE(source_opens_in_lowercase("\"two dogs\""));  // what opens it is the quote
  EXPECT_FALSE(source_opens_in_lowercase(""));
}

TEST(OpeningCase, GermanOpensInLowercaseItsFunctionWordsNumbersAndQuestionWords) {
  EXPECT_EQ(opened({hypothesis("Zwei Hunde spielen.")})[0], "zwei Hunde spielen.");
  EXPECT_EQ(opened({hypothesis("Ein Hund rennt.")})[0], "ein Hund rennt.");
  // Nouns keep their capital, also where the vocabulary holds the word in lowercase: the verb
  // "essen", English "ball".
  ASSERT_NE(target_vocabulary().piece_to_id("\xE2\x96\x81" "essen"), target_vocabulary().unk_id());
  EXPECT_EQ(opened({hypothesis("Essen und Getränke.")})[0], "Essen und Getränke.");
  EXPECT_EQ(opened({hypothesis("Ball spielen.")})[0], "Ball spielen.");
  EXPECT_EQ(opened({hypothesis("Hunde spielen.")})[0], "Hunde spielen.");
  EXPECT_EQ(opened({hypothesis("Zwei Hunde.")}, Language::unknown)[0], "zwei Hunde.");  // German's rule
}

TEST(OpeningCase, EnglishAndFrenchOpenInLowercaseAWordTheVocabularyHoldsSo) {
  EXPECT_EQ(opened({hypothesis("Ball games.")}, Language::english)[0], "ball games.");
  EXPECT_EQ(opened({hypothesis("I am here.")}, Language::english)[0], "I am here.");  // English "I"
  EXPECT_EQ(opened({hypothesis("ZWEI Hunde.")}, Language::english)[0], "ZWEI Hunde.");  // capitals throughout
  EXPECT_EQ(opened({hypothesis("")}, Language::english)[0], "");
}

TEST(OpeningCase, OnlyAWordOfOnePiece) {
  // "Ballspiel" is "▁Ball" "spiel": "▁ball" is a whole word, but not the start of this one.
  ASSERT_EQ(target_vocabulary().pieces(target_vocabulary().encode("Ballspiel ball")),
            (std::vector<std::string>{"\xE2\x96\x81" "Ball", "spiel", "\xE2\x96\x81" "ball"}));
  EXPECT_EQ(opened({hypothesis("Ballspiel im Park.")}, Language::english)[0], "Ballspiel im Park.");
  // Nor a word joined to the next by a hyphen.
  ASSERT_EQ(target_vocabulary().pieces(target_vocabulary().encode("Zwei-Personen")).at(1), "-");
  EXPECT_EQ(opened({hypothesis("Zwei-Personen-Zelt.")})[0], "Zwei-Personen-Zelt.");
}

TEST(OpeningCase, ACopyOfABetterHypothesisIsDropped) {
  // The beam held both cases of the best: it opens in lowercase, and the worse copy goes.
  EXPECT_EQ(opened({hypothesis("Ein Hund rennt."), hypothesis("Zwei Hunde."), hypothesis("ein Hund rennt.")}),
            (std::vector<std::string>{"ein Hund rennt.", "zwei Hunde."}));
}

TEST(OpeningCase, TextWrittenWithoutTheModel) {
  const auto german = [](std::string_view text) { return opened_in_lowercase(text, target_vocabulary(), Language::german); };
  EXPECT_EQ(german("Zwei Hunde!"), "zwei Hunde!");
  EXPECT_EQ(german("Ein, zwei."), "ein, zwei.");
  EXPECT_EQ(german("Hunde!"), "Hunde!");
  EXPECT_EQ(german("Essen!"), "Essen!");
  EXPECT_EQ(german("Wie geht es Ihnen?"), "wie geht es Ihnen?");
  EXPECT_EQ(german("Zwei-Personen-Zelt"), "Zwei-Personen-Zelt");
  EXPECT_EQ(german(""), "");
}

TEST(OpeningCase, TheShippedModelOpensInLowercaseOnEveryPath) {
  // Without the rule the model opens both with a capital.
  Translator translator(shipped_model());
  const Translation capital = translator.translate("Two dogs play in the snow.");
  const Translation lowercase = translator.translate("two dogs play in the snow.");
  ASSERT_EQ(capital.hypotheses[0].text.substr(0, 5), "Zwei ");
  EXPECT_EQ(lowercase.hypotheses[0].text, "z" + capital.hypotheses[0].text.substr(1));
  EXPECT_EQ(lowercase.hypotheses[0].pieces[0], "\xE2\x96\x81zwei");  // the ids say so too

  TranslateOptions beam;
  beam.beam_size = 4;
  beam.nbest = 4;
  beam.capture_attention = true;
  const Translation listed = translator.translate("two dogs play in the snow.", beam);
  EXPECT_EQ(listed.hypotheses[0].text.substr(0, 5), "zwei ");
  ASSERT_TRUE(listed.attention.has_value());  // of the ids shown
  EXPECT_EQ(listed.attention->target_pieces[0], "\xE2\x96\x81zwei");

  // After a greeting cut off at its comma, in a document and in HTML; with a span too.
  EXPECT_EQ(translate_document(translator, "Hi Tom, two dogs play in the snow.").text,
            "Hallo Tom, " + lowercase.hypotheses[0].text);
  const std::string html = translate_html(translator, "<p>Hi Tom, <b>two</b> dogs play in the snow.</p>").html;
  EXPECT_EQ(html.find("<p>Hallo Tom, <b>zwei</b> Hunde"), 0u) << html;  // placed by the attention still
  EXPECT_EQ(translator.translate("two dogs 😀 play in the snow.").hypotheses[0].text.substr(0, 5), "zwei ");
}

}  // namespace
}  // namespace attend
