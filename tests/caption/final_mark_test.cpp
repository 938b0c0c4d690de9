// A source's final "?" or "!" kept in its translation (caption/final_mark.h): the pieces' rules on
// the shipped en-de vocabulary, and the shipped en-de model, which drops them, on every path.
#include "caption/final_mark.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "attend/document.h"
#include "attend/html.h"
#include "attend/translator.h"
#include "shipped_en_de.h"

namespace attend {
namespace {

std::string mark_of(const std::string& source) {
  const int eos = shipped_model()->impl().config.eos_id;
  std::vector<int> ids = source_vocabulary().encode(source);
  ids.push_back(eos);
  return final_mark(ids, eos, source_vocabulary());
}

// The texts of `hypotheses` after end_with_mark.
std::vector<std::string> ended(std::vector<Hypothesis> hypotheses, const std::string& mark, size_t max_ids = 255) {
  end_with_mark(hypotheses, mark, target_vocabulary(), max_ids);
  std::vector<std::string> texts;
  for (const Hypothesis& h : hypotheses) texts.push_back(target_vocabulary().decode(h.ids));
  return texts;
}

std::string ended(const std::string& text, const std::string& mark, size_t max_ids = 255) {
  return ended({hypothesis(text)}, mark, max_ids).at(0);
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
  EXPECT_EQ(ended({hypothesis("Ein Hund rennt.", false)}, "?")[0], "Ein Hund rennt.");  // cut off by the length limit
  const size_t pieces = target_vocabulary().encode("Ein Hund rennt.").size();
  EXPECT_EQ(ended("Ein Hund rennt.", "?!", pieces), "Ein Hund rennt.");  // one piece too many
  EXPECT_EQ(ended("Ein Hund rennt.", "?!", pieces + 1), "Ein Hund rennt?!");
}

TEST(FinalMark, MakesNoCopyOfAnotherHypothesis) {
  // "Ein Hund rennt" would become the best one's text: it keeps its own ending.
  EXPECT_EQ(ended({hypothesis("Ein Hund rennt."), hypothesis("Ein Hund rennt"), hypothesis("Ein Hund läuft.")}, "!"),
            (std::vector<std::string>{"Ein Hund rennt!", "Ein Hund rennt", "Ein Hund läuft!"}));
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
  const Translation stated = translator.translate("Where is the dog.", beam);
  const Translation asked = translator.translate("Where is the dog?", beam);
  ASSERT_EQ(asked.hypotheses.size(), 4u);
  for (size_t k = 0; k < 4; ++k) {
    EXPECT_EQ(stated.hypotheses[k].text.back(), '.') << stated.hypotheses[k].text;
    EXPECT_EQ(asked.hypotheses[k].text.back(), '?') << asked.hypotheses[k].text;
  }
  // The attention is of the ids shown: teacher-forced on them, eos included.
  ASSERT_TRUE(asked.attention.has_value());
  EXPECT_EQ(static_cast<size_t>(asked.attention->tgt_len), asked.hypotheses[0].ids.size() + 1);
  EXPECT_EQ(asked.attention->target_pieces[asked.attention->tgt_len - 2], "?");

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
