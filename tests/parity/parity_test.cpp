// The C++ core against the PyTorch reference (training/attend_ref) on random tiny models that
// cover every config option: teacher-forced logits, attention probabilities, greedy and beam
// token ids and scores with the repeat guard and without, head masking. Golden data: make_cases.py, run by the ctest fixture.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <fstream>
#include <nlohmann/json.hpp>

#include "attend/attend.h"
#include "kernels/kernels.h"
#include "pytorch_tolerance.h"

namespace attend {
namespace {

constexpr int kGoldenVersion = 2;

const nlohmann::json& golden() {
  static const nlohmann::json data = [] {
    const char* dir = std::getenv("ATTEND_PARITY_DIR");
    if (!dir) throw std::runtime_error("set ATTEND_PARITY_DIR (the ctest fixture does)");
    std::ifstream in(std::string(dir) + "/golden.json");
    if (!in) throw std::runtime_error(std::string("no golden.json in ") + dir + ": run /usr/bin/python3 tests/parity/make_cases.py " + dir);
    auto j = nlohmann::json::parse(in);
    if (j.at("version").get<int>() != kGoldenVersion) {
      throw std::runtime_error("golden.json has version " + j.at("version").dump() + ", this test reads " +
                               std::to_string(kGoldenVersion) + ": regenerate with /usr/bin/python3 tests/parity/make_cases.py " + dir);
    }
    return j;
  }();
  return data;
}

std::vector<std::string> variant_names() {
  std::vector<std::string> names;
  for (const auto& v : golden().at("variants")) names.push_back(v.at("name"));
  return names;
}

const nlohmann::json& variant(const std::string& name) {
  for (const auto& v : golden().at("variants")) {
    if (v.at("name") == name) return v;
  }
  throw std::runtime_error("no variant " + name);
}

// The searches of the golden file: with the repeat guard at the variant's max_repeats ("guarded")
// and without it ("unguarded").
constexpr const char* kSearches[] = {"guarded", "unguarded"};

TranslateOptions options_for(const nlohmann::json& v, int beam, const std::string& search = "guarded") {
  TranslateOptions o;
  o.max_repeats = search == "guarded" ? v.at("max_repeats").get<int>() : 0;
  o.beam_size = beam;
  o.nbest = beam == 1 ? 1 : v.at("nbest").get<int>();
  o.length_penalty = v.at("alpha").get<float>();
  o.max_length = v.at("max_length").get<int>();
  o.max_length_ratio = 0.f;  // the reference's default
  return o;
}

std::vector<std::vector<int>> sources(const nlohmann::json& v) {
  std::vector<std::vector<int>> out;
  for (const auto& c : v.at("cases")) out.push_back(c.at("src").get<std::vector<int>>());
  return out;
}

template <typename Close>
void expect_all_close(const std::vector<float>& got, const std::vector<float>& want, Close close, const std::string& what) {
  ASSERT_EQ(got.size(), want.size()) << what;
  int reported = 0;
  for (size_t i = 0; i < got.size() && reported < 5; ++i) {
    if (!close(got[i], want[i])) {
      ADD_FAILURE() << what << "[" << i << "]: got " << got[i] << ", PyTorch " << want[i];
      ++reported;
    }
  }
}

class Parity : public ::testing::TestWithParam<std::string> {
 protected:
  const nlohmann::json& v() const { return variant(GetParam()); }
  std::shared_ptr<const Model> model() const { return Model::from_file(v().at("model").get<std::string>()); }
};

TEST_P(Parity, TeacherForcedLogits) {
  Translator t(model());
  int i = 0;
  for (const auto& c : v().at("cases")) {
    auto got = t.logits(c.at("src").get<std::vector<int>>(), c.at("fed").get<std::vector<int>>());
    expect_all_close(got, c.at("logits").get<std::vector<float>>(), testing::logits_close,
                     GetParam() + " case " + std::to_string(i++) + " logits");
  }
}

// log p(fed + eos | src), from PyTorch's teacher-forced logits: one row per fed token, then eos's.
double reference_log_prob(const nlohmann::json& c, int eos, int vocab) {
  const auto fed = c.at("fed").get<std::vector<int>>();
  const auto logits = c.at("logits").get<std::vector<float>>();  // [fed + 1, V]
  double sum = 0;
  for (size_t t = 0; t <= fed.size(); ++t) {
    const float* row = logits.data() + t * vocab;
    double total = 0;
    const float top = *std::max_element(row, row + vocab);
    for (int i = 0; i < vocab; ++i) total += std::exp(static_cast<double>(row[i]) - top);
    sum += row[t < fed.size() ? fed[t] : eos] - top - std::log(total);
  }
  return sum;
}

TEST_P(Parity, TeacherForcedScoreOfTheTargetAndEosInBatches) {
  Translator t(model());
  const ModelConfig& config = t.model().config();
  std::vector<std::vector<int>> fed;
  for (const auto& c : v().at("cases")) fed.push_back(c.at("fed").get<std::vector<int>>());
  for (int batch : {1, 7, 32}) {
    const std::vector<TargetScore> got = t.score_ids(sources(v()), fed, batch);
    ASSERT_EQ(got.size(), fed.size());
    for (size_t i = 0; i < fed.size(); ++i) {
      EXPECT_EQ(got[i].tokens, static_cast<int>(fed[i].size()) + 1);
      // Where greedy search stopped at its length limit, eos is not its choice: the score covers a
      // token the search did not take.
      EXPECT_PRED2(testing::score_close, got[i].log_prob,
                   static_cast<float>(reference_log_prob(v().at("cases")[i], config.eos_id, config.tgt_vocab_size)))
          << GetParam() << " case " << i << " batch " << batch;
    }
  }
}

// The generated tokens (eos included when generated) and Σ log p a hypothesis reports, against
// its ids and the search's score (greedy: Σ log p; beam: Σ log p / ((5 + tokens) / 6)^alpha).
void expect_log_prob_and_tokens(const Hypothesis& h, float alpha, const std::string& what) {
  EXPECT_EQ(h.tokens, static_cast<int>(h.ids.size()) + (h.ended_with_eos ? 1 : 0)) << what;
  EXPECT_PRED2(testing::score_close, h.log_prob / std::pow((5.f + h.tokens) / 6.f, alpha), h.score) << what;
}

TEST_P(Parity, GreedyIdsAndScoresInBatches) {
  const auto src = sources(v());
  for (const std::string search : kSearches) {
    for (int batch : {1, 7, 32}) {
      auto got = Translator(model()).translate_ids(src, options_for(v(), 1, search), batch);
      for (size_t i = 0; i < src.size(); ++i) {
        const std::string what = GetParam() + " " + search + " case " + std::to_string(i) + " batch " + std::to_string(batch);
        const auto& want = v().at("cases")[i].at(search).at("greedy");
        EXPECT_EQ(got[i].hypotheses.at(0).ids, want.at("ids").get<std::vector<int>>()) << what;
        EXPECT_PRED2(testing::score_close, got[i].hypotheses[0].score, want.at("score").get<float>()) << what;
        expect_log_prob_and_tokens(got[i].hypotheses[0], 0.f, what);
      }
    }
  }
}

// Marian's search (SearchRules::marian, as Bergamot runs it) against training/attend_ref/marian_search.py,
// on the variants of Marian's architecture: output up to 2x the source's tokens, no repeat guard.
TEST_P(Parity, MarianSearchIdsAndScores) {
  int compared = 0;
  for (int beam : {1, v().value("marian_beam", 4)}) {
    TranslateOptions o;
    o.search_rules = SearchRules::marian;
    o.beam_size = beam;
    o.max_length_ratio = 2.f;
    o.max_repeats = 0;
    std::vector<std::vector<int>> src;
    std::vector<const nlohmann::json*> want;
    for (const auto& c : v().at("cases")) {
      if (!c.contains("marian")) continue;
      src.push_back(c.at("src").get<std::vector<int>>());
      want.push_back(&c.at("marian").at(beam == 1 ? "greedy" : "beam"));
    }
    const auto got = Translator(model()).translate_ids(src, o, 7);
    for (size_t i = 0; i < src.size(); ++i, ++compared) {
      const std::string what = GetParam() + " marian beam " + std::to_string(beam) + " case " + std::to_string(i);
      EXPECT_EQ(got[i].hypotheses.at(0).ids, want[i]->at("ids").get<std::vector<int>>()) << what;
      EXPECT_PRED2(testing::score_close, got[i].hypotheses[0].score, want[i]->at("score").get<float>()) << what;
    }
  }
  const bool marian_architecture = model()->config().decoder_start == DecoderStart::zeros;
  EXPECT_EQ(compared > 0, marian_architecture) << "make_cases.py writes Marian's search for Marian's architecture";
}

TEST_P(Parity, TheRepeatGuardChangesSomeOutputs) {
  // make_cases.py refuses to write a golden file where it changes none; here the core agrees.
  const auto src = sources(v());
  for (int beam : {1, v().at("beam_size").get<int>()}) {
    const auto guarded = Translator(model()).translate_ids(src, options_for(v(), beam, "guarded"));
    const auto unguarded = Translator(model()).translate_ids(src, options_for(v(), beam, "unguarded"));
    int changed = 0;
    for (size_t i = 0; i < src.size(); ++i) changed += guarded[i].hypotheses[0].ids != unguarded[i].hypotheses[0].ids;
    EXPECT_GT(changed, 0) << GetParam() << " beam " << beam;
  }
}

TEST_P(Parity, StepEventsNameTheSentenceInTheWholeBatch) {
  const auto src = sources(v());
  ASSERT_GT(src.size(), 2u) << "needs more sentences than one chunk holds";
  TranslateOptions o = options_for(v(), 1);
  std::vector<std::vector<int>> reported(src.size());  // tokens per sentence, in step order
  o.on_step = [&](const StepEvent& e) {
    EXPECT_GE(e.sentence, 0);
    EXPECT_LT(e.sentence, static_cast<int>(src.size()));
    if (e.sentence < 0 || e.sentence >= static_cast<int>(src.size())) return false;
    EXPECT_EQ(e.step, static_cast<int>(reported[e.sentence].size())) << "sentence " << e.sentence;
    reported[e.sentence].push_back(e.token);
    return true;
  };
  const auto m = model();
  const auto got = Translator(m).translate_ids(src, o, 2);  // chunks of 2
  for (size_t i = 0; i < src.size(); ++i) {
    std::vector<int> want = got[i].hypotheses.at(0).ids;
    if (got[i].hypotheses[0].ended_with_eos) want.push_back(m->config().eos_id);
    EXPECT_EQ(reported[i], want) << GetParam() << " sentence " << i;
  }
  // Several threads would call it at once, each numbering its own share: refused.
  try {
    translate_parallel(m, {"a", "b"}, o, 2, 2);
    ADD_FAILURE() << "translate_parallel accepted on_step with 2 threads";
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ErrorCode::invalid_argument) << e.what();
  }
}

TEST_P(Parity, BeamIdsAndScores) {
  const auto src = sources(v());
  for (const std::string search : kSearches) {
    for (int batch : {1, 5}) {
      const TranslateOptions o = options_for(v(), v().at("beam_size").get<int>(), search);
      auto got = Translator(model()).translate_ids(src, o, batch);
      for (size_t i = 0; i < src.size(); ++i) {
        const auto& want = v().at("cases")[i].at(search).at("beam");
        ASSERT_EQ(got[i].hypotheses.size(), want.size()) << GetParam() << " " << search << " case " << i;
        for (size_t h = 0; h < want.size(); ++h) {
          const std::string what = GetParam() + " " + search + " case " + std::to_string(i) + " hypothesis " +
                                   std::to_string(h) + " batch " + std::to_string(batch);
          EXPECT_EQ(got[i].hypotheses[h].ids, want[h].at("ids").get<std::vector<int>>()) << what;
          EXPECT_PRED2(testing::score_close, got[i].hypotheses[h].score, want[h].at("score").get<float>()) << what;
          expect_log_prob_and_tokens(got[i].hypotheses[h], o.length_penalty, what);
        }
      }
    }
  }
}

TEST_P(Parity, AttentionOfTheGreedyHypothesis) {
  Translator t(model());
  auto o = options_for(v(), 1);
  o.capture_attention = true;
  int i = 0;
  for (const auto& c : v().at("cases")) {
    const auto got = t.translate_ids({c.at("src").get<std::vector<int>>()}, o).at(0);
    ASSERT_TRUE(got.attention.has_value());
    const std::string what = GetParam() + " case " + std::to_string(i++);
    expect_all_close(got.attention->encoder, c.at("encoder").get<std::vector<float>>(), testing::probability_close, what + " encoder");
    expect_all_close(got.attention->decoder, c.at("decoder").get<std::vector<float>>(), testing::probability_close, what + " decoder");
    expect_all_close(got.attention->cross, c.at("cross").get<std::vector<float>>(), testing::probability_close, what + " cross");
  }
}

TEST_P(Parity, AttentionFollowsTheChosenBeam) {
  // The captured maps must be those of the returned hypothesis: compare with a
  // teacher-forced pass over its tokens (logits of that pass already match PyTorch).
  Translator t(model());
  auto o = options_for(v(), 4);
  o.capture_attention = true;
  for (const auto& c : v().at("cases")) {
    const auto got = t.translate_ids({c.at("src").get<std::vector<int>>()}, o).at(0);
    const Hypothesis& best = got.hypotheses.at(0);
    ASSERT_EQ(got.attention->tgt_len, static_cast<int>(best.ids.size() + (best.ended_with_eos ? 1 : 0)));
    ASSERT_EQ(got.attention->target_pieces.size(), static_cast<size_t>(got.attention->tgt_len));
  }
}

TEST_P(Parity, HeadMasking) {
  std::vector<HeadRef> masked;
  for (const auto& m : v().at("masked_heads")) {
    const std::string kind = m[0];
    masked.push_back(HeadRef{kind == "encoder" ? AttentionKind::encoder : kind == "decoder" ? AttentionKind::decoder : AttentionKind::cross,
                             m[1].get<int>(), m[2].get<int>()});
  }
  Translator t(model());
  for (const auto& c : v().at("cases")) {
    if (!c.contains("masked_logits")) continue;
    auto got = t.logits(c.at("src").get<std::vector<int>>(), c.at("fed").get<std::vector<int>>(), masked);
    expect_all_close(got, c.at("masked_logits").get<std::vector<float>>(), testing::logits_close, GetParam() + " masked");
    auto unmasked = t.logits(c.at("src").get<std::vector<int>>(), c.at("fed").get<std::vector<int>>());
    EXPECT_NE(got, unmasked) << "masking heads changed nothing";
  }
}

TEST_P(Parity, Int8StaysCloseToF32) {
  // int8 weights (per-row scales) are not bit-exact; their greedy choices must mostly agree.
  const auto src = sources(v());
  auto f32 = Translator(model()).translate_ids(src, options_for(v(), 1));
  auto i8 = Translator(Model::from_file(v().at("int8_model").get<std::string>())).translate_ids(src, options_for(v(), 1));
  int same = 0;
  for (size_t i = 0; i < src.size(); ++i) same += f32[i].hypotheses[0].ids == i8[i].hypotheses[0].ids;
  EXPECT_GE(same, static_cast<int>(src.size()) * 7 / 10) << "int8 and f32 greedy outputs agree on " << same << "/" << src.size();
}

// int8 activations (ModelOptions) on top of the int8 weights: the same greedy choices mostly,
// and, since each row is quantized alone, the same ids whatever the batch.
TEST_P(Parity, Int8ActivationsStayCloseToInt8WeightsInAnyBatch) {
  if (kernels::best_kernels().gemm_i8i8_nt == nullptr) GTEST_SKIP() << "no gemm_i8i8_nt on this CPU";
  const auto src = sources(v());
  const std::string path = v().at("int8_model").get<std::string>();
  auto weights_only = Translator(Model::from_file(path)).translate_ids(src, options_for(v(), 1));
  const auto model = Model::from_file(path, ModelOptions{Int8Activations::on});
  ASSERT_TRUE(model->info().int8_activations);
  auto one_by_one = Translator(model).translate_ids(src, options_for(v(), 1), 1);
  int same = 0;
  for (size_t i = 0; i < src.size(); ++i) same += weights_only[i].hypotheses[0].ids == one_by_one[i].hypotheses[0].ids;
  EXPECT_GE(same, static_cast<int>(src.size()) * 7 / 10) << "greedy outputs agree on " << same << "/" << src.size();
  for (int batch : {7, 32}) {
    auto batched = Translator(model).translate_ids(src, options_for(v(), 1), batch);
    for (size_t i = 0; i < src.size(); ++i) {
      EXPECT_EQ(batched[i].hypotheses[0].ids, one_by_one[i].hypotheses[0].ids) << "case " << i << " batch " << batch;
      EXPECT_EQ(batched[i].hypotheses[0].score, one_by_one[i].hypotheses[0].score) << "case " << i << " batch " << batch;
    }
  }
}

TEST(ParityOptions, Int8ActivationsNeedAnInt8File) {
  const std::string f32 = variant(variant_names().front()).at("model").get<std::string>();
  try {
    Model::from_file(f32, ModelOptions{Int8Activations::on});
    FAIL() << "an f32 file loaded with int8 activations";
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ErrorCode::invalid_argument);
    EXPECT_NE(std::string(e.what()).find("int8 model file"), std::string::npos) << e.what();
  }
}

INSTANTIATE_TEST_SUITE_P(Models, Parity, ::testing::ValuesIn(variant_names()),
                         [](const auto& info) { return info.param; });

}  // namespace
}  // namespace attend
