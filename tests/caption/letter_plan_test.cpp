// The caption layer's phrases in a document plan (caption/set_phrases.h letter_phrases): a label
// or greeting is a sentence of its own, a letter's signature is kept; the splitting corpus's
// entries that need them; and none of that without them.
#include <gtest/gtest.h>

#include <fstream>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "attend/document.h"
#include "caption/set_phrases.h"

namespace attend {
namespace {

PlanOptions with_letter_phrases() {
  PlanOptions options;
  options.language = "en";
  options.phrases = letter_phrases();
  return options;
}

std::vector<std::string> sentences_of(std::string_view text, const PlanOptions& options) {
  std::vector<std::string> out;
  for (const DocumentSegment& s : plan_document(text, sentence_breaks(text, options.language), options)) {
    if (s.translate) out.emplace_back(text.substr(s.begin, s.end - s.begin));
  }
  return out;
}

std::vector<std::string> letter_sentences(std::string_view text) { return sentences_of(text, with_letter_phrases()); }

TEST(LetterPlan, SplittingCorpusEntriesOfTheCaptionLayer) {
  std::ifstream file(ATTEND_SPLITTING_CORPUS);
  const nlohmann::json corpus = nlohmann::json::parse(file);
  int entries = 0;
  for (const auto& c : corpus) {
    if (!c.value("caption_rules", false)) continue;
    ++entries;
    const std::string text = c["text"].get<std::string>();
    const auto expected = c["sentences"].get<std::vector<std::string>>();
    EXPECT_EQ(letter_sentences(text), expected) << c["name"];
    PlanOptions without = with_letter_phrases();
    without.phrases = {};
    EXPECT_NE(sentences_of(text, without), expected) << c["name"] << ": the same without the caption layer";
  }
  EXPECT_EQ(entries, 3);
}

TEST(LetterPlan, ALettersSignatureIsKept) {
  // "Anna" after the closing is kept as written; a name anywhere else is a sentence.
  EXPECT_EQ(letter_sentences("Dear Anna,\n\nTwo dogs play.\n\nBest regards,\n\nTom Smith\n"),
            (std::vector<std::string>{"Dear Anna,", "Two dogs play.", "Best regards,"}));
  EXPECT_EQ(letter_sentences("Mit freundlichen Grüßen\nAnna"), (std::vector<std::string>{"Mit freundlichen Grüßen"}));
  EXPECT_EQ(letter_sentences("See you soon,\nTom"), (std::vector<std::string>{"See you soon,"}));
  EXPECT_EQ(letter_sentences("Two dogs play.\nAnna"), (std::vector<std::string>{"Two dogs play.", "Anna"}));
  EXPECT_EQ(letter_sentences("Best regards,\nThe dog runs."), (std::vector<std::string>{"Best regards,", "The dog runs."}));
  // A document in parts (the CLI's lines) carries the closing over to the next part.
  PlanContext context;
  EXPECT_EQ(plan_document("Best regards,", sentence_breaks("Best regards,"), with_letter_phrases(), &context).size(), 1u);
  EXPECT_TRUE(context.after_closing);
  const std::vector<DocumentSegment> signature = plan_document("Anna", sentence_breaks("Anna"), with_letter_phrases(), &context);
  ASSERT_EQ(signature.size(), 1u);
  EXPECT_FALSE(signature[0].translate);
  EXPECT_FALSE(context.after_closing);
}

TEST(LetterPlan, ALabelBeforeAColonIsASentenceOfItsOwn) {
  EXPECT_EQ(letter_sentences("Opening hours: Monday to Friday, 9 a.m. to 5 p.m."),
            (std::vector<std::string>{"Opening hours:", "Monday to Friday, 9 a.m. to 5 p.m."}));
  EXPECT_EQ(letter_sentences("Price: $12.99"), (std::vector<std::string>{"Price:"}));  // what follows has no letter
  EXPECT_EQ(letter_sentences("A man says: hello."), (std::vector<std::string>{"A man says: hello."}));
}

TEST(LetterPlan, AGreetingBeforeACommaIsASentenceOfItsOwn) {
  EXPECT_EQ(letter_sentences("Dear Ms. Jones, thank you! A man rides a bike."),
            (std::vector<std::string>{"Dear Ms. Jones,", "thank you!", "A man rides a bike."}));
  EXPECT_EQ(letter_sentences("Hi Tom, two dogs play in the snow."),
            (std::vector<std::string>{"Hi Tom,", "two dogs play in the snow."}));
  EXPECT_EQ(letter_sentences("A man, a dog and a cat run."), (std::vector<std::string>{"A man, a dog and a cat run."}));
  EXPECT_EQ(letter_sentences("Hello, Anna!"), (std::vector<std::string>{"Hello, Anna!"}));
  EXPECT_EQ(letter_sentences("2) Hi Tom, two dogs play."), (std::vector<std::string>{"Hi Tom,", "two dogs play."}));
  // Greetings one after another are cut one after another, not by a recursion as deep as they
  // are many (WebAssembly's stack is small), and each costs the same, however many follow.
  std::string greetings;
  for (int i = 0; i < 40000; ++i) greetings += "Hi, ";
  const std::vector<std::string> many = letter_sentences(greetings + "a dog runs.");
  EXPECT_GT(many.size(), 20000u);
  EXPECT_EQ(many.back(), "a dog runs.");
}

}  // namespace
}  // namespace attend
