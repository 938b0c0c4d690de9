// line_confidence: the lowest confidence of a line's translated sentences.
#include "line_confidence.h"

#include <gtest/gtest.h>

namespace attend::cli {
namespace {

Translation sentence(float log_prob, int tokens, TranslationStatus status = TranslationStatus::translated) {
  Translation t;
  t.status = status;
  Hypothesis h;
  h.log_prob = log_prob;
  h.tokens = tokens;
  t.hypotheses.push_back(h);
  return t;
}

TEST(LineConfidence, IsTheLeastConfidentSentence) {
  const Translation sure = sentence(-1.f, 10), doubtful = sentence(-6.f, 4);
  LineOutcome line;
  line.sentences = {&sure, &doubtful, &sure};
  EXPECT_FLOAT_EQ(*line_confidence(line), -1.5f);
}

TEST(LineConfidence, SkipsSentencesTheModelDidNotTranslate) {
  const Translation sure = sentence(-1.f, 10), copied = sentence(0.f, 0, TranslationStatus::unreadable_script);
  LineOutcome line;
  line.sentences = {&copied, &sure};
  EXPECT_FLOAT_EQ(*line_confidence(line), -0.1f);
  line.sentences = {&copied};
  EXPECT_FALSE(line_confidence(line).has_value());
  line.sentences = {};  // blank, failed, or text without letters only
  EXPECT_FALSE(line_confidence(line).has_value());
}

}  // namespace
}  // namespace attend::cli
