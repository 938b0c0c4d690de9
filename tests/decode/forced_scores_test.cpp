// forced_log_probs' bookkeeping (decode/forced_scores.h) over a stand-in decoder step: each
// sentence's tokens summed until its eos, and a sentence `keep` stops leaves the batch there.
#include "decode/forced_scores.h"

#include <gtest/gtest.h>

#include <vector>

namespace attend {
namespace {

// A step that gives every row log p -1 and records how many rows it was asked for.
ForcedStep counting_step(std::vector<int>& rows_per_step) {
  return [&rows_per_step](const StepInput& in, const int*, float* log_probs) {
    rows_per_step.push_back(in.rows);
    for (int r = 0; r < in.rows; ++r) log_probs[r] = -1.f;
  };
}

TEST(ForcedScores, SumsEveryTokenThenEos) {
  ModelConfig c;
  std::vector<int> rows;
  const std::vector<double> sums = forced_log_probs(c, {{5, 6, 7}, {5}}, counting_step(rows));
  EXPECT_EQ(sums, (std::vector<double>{-4.0, -2.0}));
  EXPECT_EQ(rows, (std::vector<int>{2, 2, 1, 1}));
}

TEST(ForcedScores, KeepStopsASentenceWithItsSumSoFar) {
  ModelConfig c;
  std::vector<int> rows;
  std::vector<std::pair<int, double>> asked;
  const KeepScoring keep = [&](int sentence, double sum) {
    asked.emplace_back(sentence, sum);
    return sentence != 1 || sum > -2.5;  // sentence 1 stops after its third token
  };
  const std::vector<double> sums = forced_log_probs(c, {{5, 6, 7, 8, 9}, {5, 6, 7, 8, 9}}, counting_step(rows), keep);
  EXPECT_EQ(sums, (std::vector<double>{-6.0, -3.0}));
  EXPECT_EQ(rows, (std::vector<int>{2, 2, 2, 1, 1, 1}));
  // Asked after every token but the last (eos): the sum so far, in row order.
  const std::vector<std::pair<int, double>> expected{{0, -1.0}, {1, -1.0}, {0, -2.0}, {1, -2.0}, {0, -3.0},
                                                     {1, -3.0}, {0, -4.0}, {0, -5.0}};
  EXPECT_EQ(asked, expected);
}

}  // namespace
}  // namespace attend
