// A source's final "?" or "!" kept in its translation (decode/final_mark.h): the pieces' rules on
// the shipped en-de vocabulary, and the shipped en-de model, which drops them, on every path.
#include "decode/final_mark.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "attend/document.h"
#include "attend/html.h"
#include "attend/translator.h"
#include "model/model_impl.h"

namespace attend {
namespace {

const std::shared_ptr<const Model>& shipped_model() {
  static const std::shared_ptr<const Model> model = Model::from_file(ATTEND_SHIPPED_MODEL);
  return model;
}

const Tokenizer& vocabulary() { return *shipped_model()->impl().tgt_tokenizer; }

std::string mark_of(const std::string& source) {
  std::vector<int> ids = vocabulary().encode(source);
  ids.push_back(vocabulary().eos_id());
  return final_mark(ids, vocabulary());
}

// `target`'s ids after end_with_mark, decoded.
std::string ended(const std::string& target, const std::string& mark, size_t max_ids = 255) {
  std::vector<int> ids = vocabulary().encode(target);
  end_with_mark(ids, mark, vocabulary(), max_ids);
  return vocabulary().decode(ids);
}

TEST(FinalMark, IsTheRunOfQuestionAndExclamationMarksThatEndsTheSource) {
  EXPECT_EQ(mark_of("Where is the dog?"), "?");
  EXPECT_EQ(mark_of("Look at that!"), "!");
  EXPECT_EQ(mark_of("Really?!"), "?!");
  EXPECT_EQ(mark_of("Where is it ?"), "?");  // a mark set off by a space is a piece "▁?"
  EXPECT_EQ(mark_of("A dog runs."), "");
  EXPECT_EQ(mark_of("Is it? No, a dog runs."), "");
  EXPECT_EQ(mark_of("He asked \"why?\""), "");  // what ends it is the quote
}

TEST(FinalMark, TakesThePlaceOfAFullStopOrIsAdded) {
  EXPECT_EQ(ended("Ein Hund rennt.", "?"), "Ein Hund rennt?");
  EXPECT_EQ(ended("Ein Hund rennt", "!"), "Ein Hund rennt!");
  EXPECT_EQ(ended("Ein Hund rennt.", "?!"), "Ein Hund rennt?!");
  EXPECT_EQ(ended("Un chien court ?", "!"), "Un chien court ?");  // the model's own mark stays
  EXPECT_EQ(ended("Ein Hund rennt.", ""), "Ein Hund rennt.");
  EXPECT_EQ(ended("", "?"), "");  // no translation stays none
  const size_t pieces = vocabulary().encode("Ein Hund rennt.").size();
  EXPECT_EQ(ended("Ein Hund rennt.", "?!", pieces), "Ein Hund rennt.");  // one piece too many
  EXPECT_EQ(ended("Ein Hund rennt.", "?!", pieces + 1), "Ein Hund rennt?!");
}

TEST(FinalMark, TheShippedModelKeepsTheSourcesMarkOnEveryPath) {
  // Without the rule the model ends these with a full stop.
  Translator translator(shipped_model());
  const Translation plain = translator.translate("The dog runs after the ball.");
  const Translation exclaimed = translator.translate("The dog runs after the ball!");
  ASSERT_EQ(plain.hypotheses[0].text.back(), '.');
  EXPECT_EQ(exclaimed.hypotheses[0].text, plain.hypotheses[0].text.substr(0, plain.hypotheses[0].text.size() - 1) + "!");
  EXPECT_EQ(exclaimed.hypotheses[0].pieces.back(), "!");

  TranslateOptions beam;
  beam.beam_size = 4;
  beam.nbest = 4;
  beam.capture_attention = true;
  const Translation asked = translator.translate("Where is the dog?", beam);
  for (const Hypothesis& h : asked.hypotheses) EXPECT_EQ(h.text.back(), '?') << h.text;
  ASSERT_TRUE(asked.attention.has_value());  // the attention is of the pieces shown
  EXPECT_EQ(asked.attention->target_pieces[asked.attention->target_pieces.size() - 2], "?");

  // Pass-through text, a document of several sentences and HTML keep it too.
  EXPECT_EQ(translator.translate("A man 😀 rides a bike!").hypotheses[0].text.back(), '!');
  const DocumentTranslation document = translate_document(translator, "Two dogs play. Look at that!");
  EXPECT_EQ(document.text.back(), '!') << document.text;
  EXPECT_EQ(document.text.find('!'), document.text.size() - 1) << document.text;
  const std::string html = translate_html(translator, "<p>A <b>red</b> car drives past!</p>").html;
  EXPECT_NE(html.find("<b>rotes</b>"), std::string::npos) << html;  // placed by the attention still
  EXPECT_NE(html.find("!</p>"), std::string::npos) << html;
}

}  // namespace
}  // namespace attend
