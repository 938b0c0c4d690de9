// Model::ensemble: one member is that model, two copies of a model are that model, two different
// members (the tiny fixtures, of different shapes) give the weighted mean of their log-probabilities
// computed here by hand from each one's logits, and members of different languages or vocabularies are refused.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdlib>
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
};

const std::shared_ptr<const Model>& en_de() {
  static const std::shared_ptr<const Model> model = Model::from_file(ATTEND_SHIPPED_MODEL);
  return model;
}

std::string tiny_path(const std::string& name) {
  const char* dir = std::getenv("ATTEND_TINY");
  return std::string(dir ? dir : "") + "/" + name + ".f32.safetensors";
}

void expect_same(const std::vector<Translation>& a, const std::vector<Translation>& b, bool exact_scores) {
  ASSERT_EQ(a.size(), b.size());
  for (size_t i = 0; i < a.size(); ++i) {
    ASSERT_EQ(a[i].hypotheses.size(), b[i].hypotheses.size()) << i;
    for (size_t h = 0; h < a[i].hypotheses.size(); ++h) {
      const Hypothesis& x = a[i].hypotheses[h];
      const Hypothesis& y = b[i].hypotheses[h];
      EXPECT_EQ(x.ids, y.ids) << "sentence " << i << " hypothesis " << h;
      EXPECT_EQ(x.text, y.text);
      if (exact_scores) {
        EXPECT_EQ(x.score, y.score);
        EXPECT_EQ(x.log_prob, y.log_prob);
      }
    }
  }
}

TranslateOptions beam(int size) {
  TranslateOptions o;
  o.beam_size = size;
  o.nbest = size;
  return o;
}

TEST(Ensemble, OfOneModelIsThatModelBitForBit) {
  const auto one = Model::ensemble({en_de()});
  Translator single(en_de()), ensemble(one);
  for (int size : {1, 5}) {
    expect_same(ensemble.translate_batch(kSentences, beam(size)), single.translate_batch(kSentences, beam(size)), true);
  }
  EXPECT_EQ(ensemble.score(kSentences[0], "Ein Hund läuft durch das Gras.").log_prob,
            single.score(kSentences[0], "Ein Hund läuft durch das Gras.").log_prob);
}

TEST(Ensemble, OfTwoCopiesGivesTheModelsTokens) {
  // 0.5·(x − lse) + 0.5·(x − lse) is x − lse exactly: the same tokens and the same log-probabilities.
  const auto two = Model::ensemble({en_de(), en_de()});
  Translator single(en_de()), ensemble(two);
  EXPECT_EQ(two->info().members, 2);
  for (int size : {1, 5}) {
    expect_same(ensemble.translate_batch(kSentences, beam(size), 2), single.translate_batch(kSentences, beam(size), 2),
                true);
  }
  EXPECT_EQ(ensemble.score(kSentences[1], "Zwei Kinder spielen im Schnee.").log_prob,
            single.score(kSentences[1], "Zwei Kinder spielen im Schnee.").log_prob);
  // 30 rows at the first steps: the means are combined in two blocks of rows (24 + 6).
  std::vector<std::string> six = kSentences;
  six.push_back("An old man is reading a newspaper on a park bench.");
  expect_same(ensemble.translate_batch(six, beam(5), 6), single.translate_batch(six, beam(5), 6), true);
}

// log p(t) of every position of a teacher-forced pass: [T + 1][V] in double.
std::vector<double> log_probs(Translator& t, const std::vector<int>& source, const std::vector<int>& target) {
  const std::vector<float> logits = t.logits(source, target);
  const size_t vocab = t.model().config().tgt_vocab_size;
  std::vector<double> out(logits.size());
  for (size_t row = 0; row < logits.size() / vocab; ++row) {
    double largest = -INFINITY, sum = 0;
    for (size_t v = 0; v < vocab; ++v) largest = std::max<double>(largest, logits[row * vocab + v]);
    for (size_t v = 0; v < vocab; ++v) sum += std::exp(logits[row * vocab + v] - largest);
    for (size_t v = 0; v < vocab; ++v) out[row * vocab + v] = logits[row * vocab + v] - largest - std::log(sum);
  }
  return out;
}

TEST(Ensemble, OfTwoModelsChoosesTheirWeightedMeanLogProbs) {
  const auto a = Model::from_file(tiny_path("tiny"));       // 2 heads of 8
  const auto b = Model::from_file(tiny_path("tiny-wide"));  // 4 heads of 8
  EnsembleOptions weights;
  weights.weights = {3.f, 1.f};  // normalised to 0.75, 0.25
  const auto both = Model::ensemble({a, b}, weights);
  Translator ta(a), tb(b), ensemble(both);
  TranslateOptions greedy;
  greedy.max_repeats = 0;  // no bans: the choice is the mean's best token
  greedy.max_length = 12;
  std::vector<std::vector<std::pair<int, float>>> steps(kSentences.size());
  greedy.on_step = [&](const StepEvent& e) {
    steps[e.sentence].emplace_back(e.token, e.log_prob);
    return true;
  };
  const std::vector<Translation> out = ensemble.translate_batch(kSentences, greedy);
  const size_t vocab = a->config().tgt_vocab_size;
  int checked = 0;
  for (size_t i = 0; i < kSentences.size(); ++i) {
    const Hypothesis& h = out[i].hypotheses[0];
    const std::vector<double> pa = log_probs(ta, out[i].source_ids, h.ids);
    const std::vector<double> pb = log_probs(tb, out[i].source_ids, h.ids);
    ASSERT_EQ(steps[i].size(), static_cast<size_t>(h.tokens));
    double sum = 0;
    for (size_t t = 0; t < steps[i].size(); ++t) {
      std::vector<double> mean(vocab);
      for (size_t v = 0; v < vocab; ++v) mean[v] = 0.75 * pa[t * vocab + v] + 0.25 * pb[t * vocab + v];
      size_t best = 0, second = 1;
      if (mean[second] > mean[best]) std::swap(best, second);
      for (size_t v = 2; v < vocab; ++v) {
        if (mean[v] > mean[best]) {
          second = best;
          best = v;
        } else if (mean[v] > mean[second]) {
          second = v;
        }
      }
      if (mean[best] - mean[second] > 1e-4) {  // a clear choice: it must be the ensemble's
        EXPECT_EQ(steps[i][t].first, static_cast<int>(best)) << "sentence " << i << " step " << t;
        ++checked;
      }
      EXPECT_NEAR(steps[i][t].second, mean[steps[i][t].first], 1e-4) << "sentence " << i << " step " << t;
      sum += mean[steps[i][t].first];
    }
    EXPECT_NEAR(h.log_prob, sum, 1e-3);
  }
  EXPECT_GT(checked, 20);
  // Scoring a given translation: the weighted mean of the members' log p.
  const std::string target = "Ein Hund läuft.";
  EXPECT_NEAR(ensemble.score(kSentences[0], target).log_prob,
              0.75 * ta.score(kSentences[0], target).log_prob + 0.25 * tb.score(kSentences[0], target).log_prob, 1e-3);
}

TEST(Ensemble, ShowsAndMasksTheChosenMembersAttention) {
  const auto a = Model::from_file(tiny_path("tiny"));       // 2 heads
  const auto b = Model::from_file(tiny_path("tiny-wide"));  // 4 heads
  EnsembleOptions view_b;
  view_b.attention_member = 1;
  Translator ensemble(Model::ensemble({a, b}, view_b));
  TranslateOptions o;
  o.capture_attention = true;
  o.max_length = 8;
  int event_heads = 0;
  o.on_step = [&](const StepEvent& e) {
    event_heads = e.cross_attention ? 4 : 0;
    return true;
  };
  const Translation t = ensemble.translate(kSentences[0], o);
  ASSERT_TRUE(t.attention);
  EXPECT_EQ(t.attention->heads, 4);
  EXPECT_EQ(event_heads, 4);
  // Head 3 exists in member 2 only: masked there, refused when member 1 is shown.
  o.masked_heads = {HeadRef{AttentionKind::cross, 0, 3}};
  const Translation masked = ensemble.translate(kSentences[0], o);
  ASSERT_TRUE(masked.attention);
  const AttentionMaps& m = *masked.attention;
  for (int q = 0; q < m.tgt_len * m.src_len; ++q) {  // layer 0, head 3: zeroed output, probabilities kept
    ASSERT_TRUE(std::isfinite(m.cross[static_cast<size_t>(3) * m.tgt_len * m.src_len + q]));
  }
  Translator view_a(Model::ensemble({a, b}));
  EXPECT_THROW(view_a.translate(kSentences[0], o), Error);
}

TEST(Ensemble, RefusesMembersOfDifferentVocabularies) {
  const auto en_fr = Model::from_file(ATTEND_SHIPPED_EN_FR);
  try {
    Model::ensemble({en_de(), en_fr});
    FAIL() << "en-de and en-fr decoded together";
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ErrorCode::invalid_argument);
    // The files name their languages (attend.languages), which tells the user more than their vocabularies.
    EXPECT_NE(std::string(e.what()).find("model 2 translates en-fr, model 1 en-de"), std::string::npos) << e.what();
  }
  const auto tiny = Model::from_file(tiny_path("tiny"));  // names no languages
  try {
    Model::ensemble({en_de(), tiny});
    FAIL() << "members of different vocabularies decoded together";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("vocabulary"), std::string::npos) << e.what();
  }
  EnsembleOptions bad;
  bad.weights = {1.f};
  EXPECT_THROW(Model::ensemble({en_de(), en_de()}, bad), Error);
  bad.weights = {1.f, -1.f};
  EXPECT_THROW(Model::ensemble({en_de(), en_de()}, bad), Error);
  EXPECT_THROW(Model::ensemble({}), Error);
}

}  // namespace
}  // namespace attend
