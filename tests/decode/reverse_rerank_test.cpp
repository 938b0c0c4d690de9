// TranslateOptions::reverse_model on the shipped en-de (forward) and de-en (reverse) models: each
// hypothesis' reverse score is de-en's score of the source given its text, its score is the
// search's plus the weighted, length-normalised reverse score, the beam's hypotheses come back
// ordered by it, weight 0 keeps the search's order, and the attention follows the new best.
#include <gtest/gtest.h>

#include <cmath>
#include <optional>
#include <string>
#include <vector>

#include "attend/error.h"
#include "attend/translator.h"

namespace attend {
namespace {

const std::vector<std::string> kSentences = {
    "A dog runs through the grass.",
    "Two children are playing in the snow near a red house.",
    "A man in a blue shirt is riding a bike down the street.",
    "Three women sit on a bench and talk while a little girl eats ice cream.",
    "A group of people is standing in front of a building.",
    "An older man with glasses looks at the camera.",
    "People are walking.",
    "A young boy in a striped shirt jumps into a swimming pool on a hot summer day.",
    "Woman and man walking across wooden rope bridge with a caution sign beside it.",  // these two from
    "Two men setting up a blue ice fishing hut on an iced over lake",  // Multi30k val: the shipped de-en changes their best
};

const std::shared_ptr<const Model>& en_de() {
  static const std::shared_ptr<const Model> model = Model::from_file(ATTEND_SHIPPED_MODEL);
  return model;
}

const std::shared_ptr<const Model>& de_en() {
  static const std::shared_ptr<const Model> model = Model::from_file(ATTEND_SHIPPED_REVERSE);
  return model;
}

TranslateOptions beam(int size, int nbest) {
  TranslateOptions o;
  o.beam_size = size;
  o.nbest = nbest;
  return o;
}

TranslateOptions reranked(int size, int nbest, float weight) {
  TranslateOptions o = beam(size, nbest);
  o.reverse_model = de_en();
  o.reverse_weight = weight;
  return o;
}

float lp(int length, float alpha) { return std::pow((5.f + static_cast<float>(length)) / 6.f, alpha); }

TEST(ReverseRerank, ScoresEveryHypothesisAsTheReverseModelScoresItsText) {
  Translator forward(en_de()), reverse(de_en());
  const std::vector<Translation> plain = forward.translate_batch(kSentences, beam(5, 5));
  const std::vector<Translation> out = forward.translate_batch(kSentences, reranked(5, 5, 0.3f));
  for (size_t i = 0; i < kSentences.size(); ++i) {
    ASSERT_EQ(out[i].hypotheses.size(), plain[i].hypotheses.size()) << i;
    for (const Hypothesis& h : out[i].hypotheses) {
      if (h.text.empty()) {  // the beam can end a hypothesis at once; nothing there to read back
        EXPECT_FALSE(h.reverse.has_value());
        EXPECT_EQ(h.score, -INFINITY);
        continue;
      }
      ASSERT_TRUE(h.reverse.has_value()) << h.text;
      const TargetScore expected = reverse.score(h.text, kSentences[i]);
      EXPECT_NEAR(h.reverse->log_prob, expected.log_prob, 1e-3f) << h.text;
      EXPECT_EQ(h.reverse->tokens, expected.tokens) << h.text;
      // The search's own score of this text, found among the plain beam's hypotheses.
      const Hypothesis* searched = nullptr;
      for (const Hypothesis& p : plain[i].hypotheses) {
        if (p.ids == h.ids) searched = &p;
      }
      ASSERT_NE(searched, nullptr) << "not a hypothesis of the beam: " << h.text;
      EXPECT_FLOAT_EQ(h.score, searched->score + 0.3f * h.reverse->log_prob / lp(h.reverse->tokens, 1.f));
    }
    for (size_t k = 1; k < out[i].hypotheses.size(); ++k) {
      EXPECT_GE(out[i].hypotheses[k - 1].score, out[i].hypotheses[k].score) << "sentence " << i;
    }
  }
}

TEST(ReverseRerank, WeightZeroKeepsTheSearchsOrderAndTheDefaultChangesTwoBests) {
  Translator forward(en_de());
  const std::vector<Translation> plain = forward.translate_batch(kSentences, beam(5, 5));
  const std::vector<Translation> zero = forward.translate_batch(kSentences, reranked(5, 5, 0.f));
  const std::vector<Translation> weighed = forward.translate_batch(kSentences, reranked(5, 5, 0.3f));
  int changed = 0;
  for (size_t i = 0; i < kSentences.size(); ++i) {
    for (size_t h = 0; h < plain[i].hypotheses.size(); ++h) {
      const Hypothesis& z = zero[i].hypotheses[h];
      EXPECT_EQ(z.ids, plain[i].hypotheses[h].ids) << i << " " << h;
      if (z.reverse) {
        EXPECT_EQ(z.score, plain[i].hypotheses[h].score);
      }
    }
    changed += weighed[i].hypotheses[0].ids != plain[i].hypotheses[0].ids;
  }
  EXPECT_EQ(changed, 2) << "the two val sentences' best should change, and no other's";
}

TEST(ReverseRerank, KeepsNbestOfTheWholeBeamAndTheAttentionOfTheNewBest) {
  Translator forward(en_de());
  const std::vector<Translation> all = forward.translate_batch(kSentences, reranked(5, 5, 0.3f));
  // Below the beam size, the hypotheses after the search's nbest stop being scored once they cannot
  // be kept: the same ones come back, in the same order.
  for (int nbest = 1; nbest < 5; ++nbest) {
    const std::vector<Translation> some = forward.translate_batch(kSentences, reranked(5, nbest, 0.3f));
    for (size_t i = 0; i < kSentences.size(); ++i) {
      ASSERT_EQ(some[i].hypotheses.size(), static_cast<size_t>(nbest)) << i;
      for (int h = 0; h < nbest; ++h) {
        EXPECT_EQ(some[i].hypotheses[h].ids, all[i].hypotheses[h].ids) << "nbest " << nbest << " sentence " << i << " " << h;
        EXPECT_NEAR(some[i].hypotheses[h].score, all[i].hypotheses[h].score, 1e-5f);
      }
    }
  }
  TranslateOptions o = reranked(5, 2, 0.3f);
  o.capture_attention = true;
  const std::vector<Translation> two = forward.translate_batch(kSentences, o);
  for (size_t i = 0; i < kSentences.size(); ++i) {
    ASSERT_EQ(two[i].hypotheses.size(), 2u);
    EXPECT_EQ(two[i].hypotheses[0].ids, all[i].hypotheses[0].ids);
    EXPECT_EQ(two[i].hypotheses[1].ids, all[i].hypotheses[1].ids);
    ASSERT_TRUE(two[i].attention.has_value());
    std::vector<std::string> shown = two[i].attention->target_pieces;
    if (two[i].hypotheses[0].ended_with_eos) shown.pop_back();
    EXPECT_EQ(shown, two[i].hypotheses[0].pieces) << "the maps are not of the reranked best";
  }
}

TEST(ReverseRerank, AnEnsembleIsRerankedToo) {
  Translator single(en_de()), ensemble(Model::ensemble({en_de(), en_de()}));
  const std::vector<Translation> a = single.translate_batch(kSentences, reranked(4, 4, 0.5f));
  const std::vector<Translation> b = ensemble.translate_batch(kSentences, reranked(4, 4, 0.5f));
  for (size_t i = 0; i < kSentences.size(); ++i) {
    for (size_t h = 0; h < a[i].hypotheses.size(); ++h) {
      EXPECT_EQ(a[i].hypotheses[h].ids, b[i].hypotheses[h].ids) << i << " " << h;
      EXPECT_EQ(a[i].hypotheses[h].score, b[i].hypotheses[h].score);
    }
  }
}

TEST(ReverseRerank, RefusesGreedySearchAndABadWeight) {
  Translator forward(en_de());
  auto code_of = [&](const TranslateOptions& o) -> std::optional<ErrorCode> {
    try {
      forward.translate(kSentences[0], o);
    } catch (const Error& e) {
      return e.code();
    }
    return std::nullopt;
  };
  EXPECT_EQ(code_of(reranked(1, 1, 0.3f)), ErrorCode::invalid_argument);
  EXPECT_EQ(code_of(reranked(5, 1, -1.f)), ErrorCode::invalid_argument);
  EXPECT_EQ(code_of(reranked(5, 1, NAN)), ErrorCode::invalid_argument);
}

}  // namespace
}  // namespace attend
