// MBR selection against hand-computed sentence BLEU sums (native/eval/mbr.h).
#include <gtest/gtest.h>

#include <cmath>

#include "attend/error.h"
#include "mbr.h"
#include "metrics.h"

namespace attend::eval {
namespace {

TEST(MbrSelect, TheMajorityWins) {
  EXPECT_EQ(mbr_select({"a dog is running .", "a dog runs .", "a dog runs ."}), 1u);
}

TEST(MbrSelect, ConsensusBeatsADuplicatedOutlier) {
  // "x y z w" appears twice: 100 + 100 + 3 · 0 = 200. "a b c d" agrees with its two neighbours
  // (p = 3/4, 2/3, 1/2 and a smoothed 1/2 for the missing 4-gram: (75·66.7·50·50)^(1/4) = 59.46
  // each): 100 + 2 · 59.46 = 218.9.
  const std::vector<std::string> pool = {"x y z w", "a b c d", "a b c e", "x y z w", "a b c f"};
  EXPECT_NEAR(sentence_bleu("a b c d", "a b c e").score, std::pow(75.0 * 200.0 / 3.0 * 50.0 * 50.0, 0.25), 1e-9);
  EXPECT_EQ(mbr_select(pool), 1u);
}

TEST(MbrSelect, TiesGoToTheEarliestAndEmptyTextLoses) {
  EXPECT_EQ(mbr_select({"a cat", "a dog"}), 0u);
  EXPECT_EQ(mbr_select({"", "a dog"}), 1u);
  EXPECT_EQ(mbr_select({""}), 0u);
}

TEST(MbrSelect, BadInputThrowsTypedErrors) {
  try {
    mbr_select({});
    FAIL() << "no error";
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ErrorCode::invalid_argument);
  }
  try {
    mbr_select({"fine", "bad \xff"});
    FAIL() << "no error";
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ErrorCode::invalid_input);
    EXPECT_NE(std::string(e.what()).find("line 2"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace attend::eval
