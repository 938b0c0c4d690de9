// Text in capitals read in sentence case, shouted words in lowercase (caption/recasing.h), and
// the shipped en-de model on them.
#include <gtest/gtest.h>

#include <string>

#include "attend/translator.h"
#include "caption/recasing.h"

namespace attend {
namespace {

TEST(Recasing, CapitalsBecomeSentenceCase) {
  EXPECT_EQ(sentence_case_if_all_caps("A WOMAN IS WALKING HER DOG."), "A woman is walking her dog.");
  EXPECT_EQ(sentence_case_if_all_caps("  ÉTÉ: ZWEI MÄNNER, 3 HUNDE × 2!"), "  Été: zwei männer, 3 hunde × 2!");
}

TEST(Recasing, OtherTextIsLeftAsItIs) {
  for (const char* text : {"A dog runs in NYC.", "NEW", "A B C D", "", "Two DOGS play.", "北京 NYC", "ÉTÉ à PARIS"}) {
    EXPECT_EQ(sentence_case_if_all_caps(text), text) << text;
  }
}

TEST(Recasing, TheShippedModelReadsCapitalsAsASentence) {
  Translator translator(Model::from_file(ATTEND_SHIPPED_MODEL));
  TranslateOptions beam;
  beam.beam_size = 5;
  const Translation shouted = translator.translate("A WOMAN IS WALKING HER DOG.", beam);
  EXPECT_EQ(shouted.hypotheses[0].text, translator.translate("A woman is walking her dog.", beam).hypotheses[0].text);
  EXPECT_TRUE(shouted.hypotheses[0].ended_with_eos);  // without this it ran to the length limit: "Ein IMAMAMA…"
}

TEST(Recasing, ShoutedWordsTheVocabularyKnowsAreReadInLowercase) {
  const auto knows = [](std::string_view word) { return word == "VERY" || word == "HUGE" || word == "WARNING" || word == "ÉTÉ"; };
  EXPECT_EQ(lowercase_shouted_words("The dog is VERY happy. HUGE news!", knows), "The dog is very happy. Huge news!");
  EXPECT_EQ(lowercase_shouted_words("WARNING: a BMX in the USA", knows), "Warning: a BMX in the USA");
  EXPECT_EQ(lowercase_shouted_words("Un ÉTÉ chaud, VERYgood, VERy, IT", knows), "Un été chaud, VERYgood, VERy, IT");
  EXPECT_EQ(lowercase_shouted_words("", knows), "");
  const auto knows_english = [](std::string_view word) {
    for (std::string_view known : {"FREE", "HUGS", "NEW", "IT", "IS", "BIG", "LOVE", "DOGS"}) {
      if (word == known) return true;
    }
    return false;
  };
  EXPECT_EQ(lowercase_shouted_words("It says FREE HUGS, NEW YORK and IT IS BIG.", knows_english),
            "It says free hugs, NEW YORK and it is big.");
  EXPECT_EQ(lowercase_shouted_words("I CAN'T. I LOVE DOGS! IT", knows_english), "I CAN'T. I love dogs! IT");
}

TEST(Recasing, AnAcronymAloneAfterAnArticleStays) {
  // "The WHO helps children" was en-de "Die helfen Kindern": the organisation read as "who".
  const auto knows = [](std::string_view word) { return word == "WHO" || word == "BIG" || word == "DOG" || word == "ONE"; };
  EXPECT_EQ(lowercase_shouted_words("The WHO helps. Die WHO hilft. Le WHO aide.", knows),
            "The WHO helps. Die WHO hilft. Le WHO aide.");
  // Only a function word ("who"), which no article stands before: "the BIG ball" is shouted.
  EXPECT_EQ(lowercase_shouted_words("WHO helps the BIG DOG, a WHO, the ONE, the BIG ball.", knows),
            "Who helps the big dog, a who, the one, the big ball.");
  EXPECT_EQ(lowercase_shouted_words("theWHO, the-WHO", knows), "theWHO, the-who");
}

TEST(Recasing, TheShippedModelTranslatesAShoutedWord) {
  Translator translator(Model::from_file(ATTEND_SHIPPED_MODEL));
  TranslateOptions beam;
  beam.beam_size = 5;
  // "VERY" was left as it is, a name to the model: "Der Hund ist VERY glücklich."
  EXPECT_EQ(translator.translate("The dog is VERY happy today.", beam).hypotheses[0].text,
            translator.translate("The dog is very happy today.", beam).hypotheses[0].text);
  EXPECT_TRUE(translator.prepare("A BMX rider in the USA.").pass_through.empty());  // acronyms the vocabulary has
}

// Found by the translate_text fuzzer: a sentence passed through unread keeps its capitals.
TEST(Recasing, AnUnreadableSentenceInCapitalsPassesThroughAsGiven) {
  Translator translator(Model::from_file(ATTEND_SHIPPED_MODEL));
  const std::string text = "我们今天去公园散步 OK GO";
  const Translation t = translator.translate(text);
  ASSERT_EQ(t.status, TranslationStatus::unreadable_script);
  EXPECT_EQ(t.hypotheses.at(0).text, text);
}

}  // namespace
}  // namespace attend
