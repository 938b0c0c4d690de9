#include "decode/log_probs.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>
#include <random>
#include <vector>

#include "kernels/kernels.h"

namespace attend {
namespace {

// The rule written plainly: banned logits to -inf, every token sorted (larger first, then lower
// index), the first `count` as x - lse, lse over the logits before the mask.
std::vector<TokenScore> plain_best(std::vector<float> logits, const BannedTokens& banned, int count) {
  const float largest = *std::max_element(logits.begin(), logits.end());
  double sum = 0;
  for (float x : logits) sum += std::exp(static_cast<double>(x - largest));
  const float lse = largest + static_cast<float>(std::log(sum));
  banned.mask(logits.data());
  std::vector<int> order(logits.size());
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(), [&](int a, int b) { return logits[a] > logits[b]; });
  std::vector<TokenScore> best;
  for (int j = 0; j < count; ++j) best.push_back(TokenScore{order[j], logits[order[j]] - lse});
  return best;
}

TEST(LogProbs, BestAllowedTokensAreThePlainRulesOnTiesBansAndEveryLength) {
  const kernels::KernelTable& k = kernels::best_kernels();
  std::mt19937 rng(7);
  for (int n : {1, 2, 15, 16, 17, 40, 100, 1000}) {
    for (int count : {1, 2, 10}) {
      if (count > n) continue;
      for (int trial = 0; trial < 20; ++trial) {
        std::vector<float> logits(n);
        // Few distinct values, so ties are everywhere; rising logits too (the window refills at every one).
        for (int i = 0; i < n; ++i) logits[i] = trial % 2 ? static_cast<float>(rng() % 7) : 0.01f * i;
        BannedTokens banned;
        for (int b = 0; b < static_cast<int>(rng() % 4); ++b) banned.ids[banned.count++] = static_cast<int>(rng() % n);
        std::vector<TokenScore> scratch(count + kRepeatGuardMaxN), got(count);
        std::vector<float> given = logits;
        best_allowed_tokens(k, given.data(), n, banned, count, scratch.data(), got.data());
        const std::vector<TokenScore> want = plain_best(logits, banned, count);
        for (int j = 0; j < count; ++j) {
          ASSERT_EQ(got[j].token, want[j].token) << "n " << n << " count " << count << " trial " << trial << " rank " << j;
          if (std::isinf(want[j].log_prob)) {
            EXPECT_EQ(got[j].log_prob, want[j].log_prob);
          } else {
            EXPECT_NEAR(got[j].log_prob, want[j].log_prob, 1e-5f);
          }
        }
      }
    }
  }
}

TEST(LogProbs, LogSumExpFindsTheLargestItself) {
  // The same bits as given the largest's position (any of equal values): the shift is its value.
  const kernels::KernelTable& k = kernels::best_kernels();
  std::mt19937 rng(11);
  for (int n : {1, 2, 15, 16, 17, 40, 1000, 8000}) {
    for (int trial = 0; trial < 10; ++trial) {
      std::vector<float> logits(n);
      for (int i = 0; i < n; ++i) logits[i] = trial % 2 ? static_cast<float>(rng() % 5) : 0.001f * static_cast<float>(rng() % 20000) - 10.f;
      const int largest = static_cast<int>(std::max_element(logits.begin(), logits.end()) - logits.begin());
      EXPECT_EQ(log_sum_exp(k, logits.data(), n), log_sum_exp(k, logits.data(), n, largest)) << "n " << n << " trial " << trial;
    }
  }
}

// Marian's shortlist: the output layer's log-softmax covers the shortlist's tokens only, so the
// allowed tokens' probabilities add up to 1 (docs/marian.md §6); the logits given are those of the
// shortlist's tokens alone (decode/shortlisted_output.h), ranked by token where equal.
TEST(LogProbs, ShortlistedTokensAreNormalisedOverTheShortlistAlone) {
  const kernels::KernelTable& k = kernels::best_kernels();
  const std::vector<int> tokens = {3, 9, 20, 41};
  std::vector<int> index_of(50, -1);
  for (int i = 0; i < 4; ++i) index_of[tokens[i]] = i;
  std::vector<float> logits = {0.3f, 0.9f, 0.9f, 0.1f};  // tokens 9 and 20 equal
  std::vector<TokenScore> best(4);
  best_shortlisted_tokens(k, logits.data(), tokens, index_of, BannedTokens{}, 4, best.data());
  double mass = 0;
  for (const TokenScore& t : best) mass += std::exp(static_cast<double>(t.log_prob));
  EXPECT_NEAR(mass, 1.0, 1e-6);
  EXPECT_EQ(best[0].token, 9);
  EXPECT_EQ(best[1].token, 20);
  EXPECT_EQ(best[2].token, 3);
  EXPECT_EQ(best[3].token, 41);
  EXPECT_FLOAT_EQ(best[2].logit, 0.3f);
}

// A banned token of the shortlist is never ranked above an allowed one; asked for more tokens than
// the shortlist has, the rest are the lowest tokens outside it, at -inf.
TEST(LogProbs, ShortlistedTokensPastTheShortlistAreMinusInfinity) {
  const kernels::KernelTable& k = kernels::best_kernels();
  const std::vector<int> tokens = {1, 4};
  std::vector<int> index_of(8, -1);
  index_of[1] = 0;
  index_of[4] = 1;
  std::vector<float> logits = {2.f, 1.f};
  BannedTokens banned;
  banned.add(1);
  banned.add(6);  // outside the shortlist: nothing to mask
  std::vector<TokenScore> best(4);
  best_shortlisted_tokens(k, logits.data(), tokens, index_of, banned, 4, best.data());
  EXPECT_EQ(best[0].token, 4);
  EXPECT_NEAR(best[0].log_prob, 1.f - (2.f + std::log1p(std::exp(-1.f))), 1e-6);  // lse before the ban
  EXPECT_EQ(best[1].token, 1);
  EXPECT_EQ(best[1].log_prob, -std::numeric_limits<float>::infinity());
  EXPECT_EQ(best[2].token, 0);
  EXPECT_EQ(best[3].token, 2);
  EXPECT_EQ(best[3].log_prob, -std::numeric_limits<float>::infinity());
}

}  // namespace
}  // namespace attend
