// Hypothesis::log_prob, tokens and attend::confidence on the shipped en-de model: the log-probability
// a search reports for its output is what teacher forcing gives that output (Translator::score_ids),
// at beam 1 and 5, with the repeat guard on (it bans tokens without renormalizing the others).
#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

#include "attend/translator.h"

namespace attend {
namespace {

const std::vector<std::string> kSentences = {"A dog runs in the park.", "Two children are playing in the snow near a red house.",
                                             "A WOMAN IS WALKING HER DOG."};

TEST(Confidence, LogProbIsTheTeacherForcedScoreOfTheOutput) {
  const auto model = Model::from_file(ATTEND_SHIPPED_MODEL);
  Translator translator(model);
  std::vector<std::vector<int>> sources;
  for (const std::string& s : kSentences) sources.push_back(translator.source_ids(s));
  for (int beam : {1, 5}) {
    TranslateOptions o;
    o.beam_size = beam;
    const auto translations = translator.translate_ids(sources, o);
    std::vector<std::vector<int>> outputs;
    for (const Translation& t : translations) outputs.push_back(t.hypotheses.at(0).ids);
    const std::vector<TargetScore> forced = translator.score_ids(sources, outputs);
    for (size_t i = 0; i < sources.size(); ++i) {
      const Hypothesis& h = translations[i].hypotheses[0];
      const std::string what = "beam " + std::to_string(beam) + ": " + kSentences[i];
      EXPECT_EQ(h.tokens, static_cast<int>(h.ids.size()) + (h.ended_with_eos ? 1 : 0)) << what;
      EXPECT_FLOAT_EQ(confidence(h), h.log_prob / h.tokens) << what;
      EXPECT_LT(h.log_prob, 0.f) << what;
      if (!h.ended_with_eos) continue;  // teacher forcing would score an eos the search did not take
      EXPECT_EQ(forced[i].tokens, h.tokens) << what;
      EXPECT_NEAR(forced[i].log_prob, h.log_prob, 1e-3f * h.tokens) << what;
    }
  }
}

TEST(Confidence, IsZeroWithoutTokens) { EXPECT_EQ(confidence(Hypothesis{}), 0.f); }

}  // namespace
}  // namespace attend
