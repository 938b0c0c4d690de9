// The search loop's StepScorer over a device session (decode/device_step_scorer.h), and teacher
// forcing over one (decode/forced_scores.h), against a session that records what it is asked and
// answers from a fixed table: what crosses to the device per step (tokens, slots, banned ids,
// forced tokens), what comes back, beam forks, capture rows.
#include "decode/device_step_scorer.h"
#include "decode/forced_scores.h"

#include <gtest/gtest.h>

#include "attend/error.h"

namespace attend {
namespace {

class RecordingSession final : public DeviceSession {
 public:
  int rows = 0, slots = 0, max_steps = 0, candidates = 0;
  bool capture = false;
  std::vector<int> fed_tokens, fed_slots, fed_sentences;
  int fed_step = -1;
  std::vector<int> banned;
  int banned_per_row = 0;
  std::vector<std::vector<int>> copies;  // {from, to, steps}
  int copy_calls = 0;
  int captured_row = -1;
  std::vector<std::vector<int>> steps_fed;  // per step: {step, then (sentence, token fed, token scored) per row}

  void encode(const std::vector<int>&, const std::vector<int>&, const HeadMask&, float*, int) override {}
  void begin_decode(int r, int p, int t, int k, bool c) override {
    rows = r, slots = p, max_steps = t, candidates = k, capture = c;
  }
  void step(const StepInput& in, const HeadMask&) override {
    fed_tokens.assign(in.tokens, in.tokens + in.rows);
    fed_slots.assign(in.slots, in.slots + in.rows);
    fed_sentences.assign(in.sentences, in.sentences + in.rows);
    fed_step = in.step;
  }
  // Row r's candidates: tokens 10r + j with log-prob -(j + 1).
  void top_k(const std::vector<int>& b, int per_row, int k, int* tokens, float* log_probs) override {
    banned = b, banned_per_row = per_row;
    for (size_t r = 0; r < fed_tokens.size(); ++r) {
      for (int j = 0; j < k; ++j) {
        tokens[r * k + j] = static_cast<int>(10 * r) + j;
        log_probs[r * k + j] = -(j + 1.f);
      }
    }
  }
  // Row r's forced token t: log-prob -t / 10, recorded with what the row was fed.
  void token_log_probs(const int* tokens, float* log_probs) override {
    std::vector<int> fed{fed_step};
    for (size_t r = 0; r < fed_tokens.size(); ++r) {
      fed.insert(fed.end(), {fed_sentences[r], fed_tokens[r], tokens[r]});
      log_probs[r] = -tokens[r] / 10.f;
    }
    steps_fed.push_back(fed);
  }
  void copy_logits(float*) override {}
  // Cross rows [L·H = 2][S_max = 4]: 100·row + 10·map + key.
  void copy_captured_row(int row, float* self, float* cross) override {
    captured_row = row;
    EXPECT_EQ(self, nullptr);
    for (int m = 0; m < 2; ++m) {
      for (int j = 0; j < 4; ++j) cross[m * 4 + j] = 100.f * row + 10.f * m + j;
    }
  }
  void copy_cache_slots(const int* forks, int count, int steps) override {
    for (int i = 0; i < count; ++i) copies.push_back({forks[2 * i], forks[2 * i + 1], steps});
    ++copy_calls;
  }
};

ModelConfig two_maps() {
  ModelConfig c;
  c.decoder_layers = 1, c.num_heads = 2;
  return c;
}

TEST(DeviceStepScorer, SizesTheSessionFromTheShape) {
  RecordingSession session;
  const HeadMask mask;
  DeviceStepScorer scorer(session, two_maps(), mask, 10);
  const std::vector<int> offsets{0, 3, 7};
  scorer.prepare(DecodeShape{nullptr, &offsets, 10, 10, 21, true});
  EXPECT_EQ(session.rows, 10);
  EXPECT_EQ(session.slots, 10);
  EXPECT_EQ(session.max_steps, 21);
  EXPECT_EQ(session.candidates, 10);
  EXPECT_TRUE(session.capture);
  const float memory = 0.f;
  EXPECT_THROW(scorer.prepare(DecodeShape{&memory, &offsets, 1, 1, 1, false}), Error);  // host memory: not for a device
}

TEST(DeviceStepScorer, SendsRowsAndBannedIdsGetsTheBestTokensBack) {
  RecordingSession session;
  const HeadMask mask;
  DeviceStepScorer scorer(session, two_maps(), mask, 4);
  const std::vector<int> offsets{0, 3, 7};
  scorer.prepare(DecodeShape{nullptr, &offsets, 3, 3, 9, false});
  const int tokens[] = {5, 6, 7}, slots[] = {0, 1, 2}, sentences[] = {0, 0, 1};
  BannedTokens banned[3];
  banned[1].ids[0] = 42, banned[1].ids[1] = 43, banned[1].count = 2;
  TokenScore best[3 * 2];
  scorer.step(StepRows{tokens, slots, sentences, banned, 3, 4}, 2, best);
  EXPECT_EQ(session.fed_tokens, (std::vector<int>{5, 6, 7}));
  EXPECT_EQ(session.fed_slots, (std::vector<int>{0, 1, 2}));
  EXPECT_EQ(session.fed_sentences, (std::vector<int>{0, 0, 1}));
  EXPECT_EQ(session.fed_step, 4);
  ASSERT_EQ(session.banned_per_row, kMaxBannedTokens);
  ASSERT_EQ(session.banned.size(), 3u * kMaxBannedTokens);
  EXPECT_EQ(session.banned[0], -1);
  EXPECT_EQ(session.banned[kMaxBannedTokens], 42);
  EXPECT_EQ(session.banned[kMaxBannedTokens + 1], 43);
  EXPECT_EQ(session.banned[kMaxBannedTokens + 2], -1);
  EXPECT_EQ(best[2].token, 10);  // row 1's best
  EXPECT_EQ(best[3].token, 11);
  EXPECT_FLOAT_EQ(best[3].log_prob, -2.f);
  EXPECT_EQ(best[5].token, 21);
  EXPECT_THROW(scorer.step(StepRows{tokens, slots, sentences, banned, 3, 5}, 5, best), Error);  // more than max_k
}

TEST(DeviceStepScorer, ForksCopyTheCachesOfTheStepsSoFarInOneCall) {
  RecordingSession session;
  const HeadMask mask;
  DeviceStepScorer scorer(session, two_maps(), mask, 2);
  const SlotFork forks[] = {{0, 3}, {0, 4}, {2, 1}};
  scorer.fork_slots(forks, 3, 6);
  EXPECT_EQ(session.copies, (std::vector<std::vector<int>>{{0, 3, 6}, {0, 4, 6}, {2, 1, 6}}));
  EXPECT_EQ(session.copy_calls, 1);
}

TEST(DeviceStepScorer, CrossAttentionOfARowIsCutToItsSentence) {
  RecordingSession session;
  const HeadMask mask;
  DeviceStepScorer scorer(session, two_maps(), mask, 1);
  const std::vector<int> offsets{0, 4, 6};  // S_max 4; sentence 1 has 2 tokens
  scorer.prepare(DecodeShape{nullptr, &offsets, 2, 2, 9, true});
  const int tokens[] = {2, 2}, slots[] = {0, 1}, sentences[] = {0, 1};
  BannedTokens banned[2];
  TokenScore best[2];
  scorer.step(StepRows{tokens, slots, sentences, banned, 2, 0}, 1, best);
  float out[2 * 2];
  scorer.cross_attention(1, out);
  EXPECT_EQ(session.captured_row, 1);
  EXPECT_EQ(std::vector<float>(out, out + 4), (std::vector<float>{100, 101, 110, 111}));  // [L·H][S]
}

// Teacher forcing feeds bos then each target's tokens, row r in its sentence's slot, scores the
// next token (eos last) and drops a sentence once its eos is scored.
TEST(ForcedScoresOnADevice, FeedsTheTargetsAndSumsTheLogProbsOfTheNextTokens) {
  ModelConfig c = two_maps();
  c.bos_id = 2, c.eos_id = 3;
  RecordingSession session;
  const std::vector<double> sums = forced_log_probs(session, c, HeadMask{}, {{40, 50}, {60}});
  EXPECT_EQ(session.rows, 2);
  EXPECT_EQ(session.slots, 2);
  EXPECT_EQ(session.max_steps, 3);  // the longest target and its eos
  EXPECT_EQ(session.fed_slots, (std::vector<int>{0}));
  // per step: the step, then (sentence, token fed, token scored) per row
  EXPECT_EQ(session.steps_fed, (std::vector<std::vector<int>>{{0, 0, 2, 40, 1, 2, 60},
                                                              {1, 0, 40, 50, 1, 60, 3},  // sentence 1 scores its eos
                                                              {2, 0, 50, 3}}));          // and is gone
  ASSERT_EQ(sums.size(), 2u);
  EXPECT_NEAR(sums[0], -(4.0 + 5.0 + 0.3), 1e-5);
  EXPECT_NEAR(sums[1], -(6.0 + 0.3), 1e-5);
}

}  // namespace
}  // namespace attend
