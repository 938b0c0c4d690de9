// When the CUDA backend runs a decoder step as a CUDA Graph (core/src/cuda/graph_policy.h).
#include "cuda/graph_policy.h"

#include <gtest/gtest.h>

namespace attend::cuda {
namespace {

TEST(GraphPolicy, CapturesARowCountTheSecondTimeThenReplays) {
  GraphPolicy p;
  EXPECT_EQ(p.decide(32), GraphAction::eager);
  EXPECT_EQ(p.decide(32), GraphAction::capture);
  EXPECT_EQ(p.decide(32), GraphAction::replay);
  EXPECT_EQ(p.decide(31), GraphAction::eager);  // a sentence ended: a new count
  EXPECT_EQ(p.decide(31), GraphAction::capture);
  EXPECT_EQ(p.decide(32), GraphAction::replay);  // still kept
  EXPECT_EQ(p.evicted(), -1);
}

TEST(GraphPolicy, ResetForgetsEveryGraph) {
  GraphPolicy p;
  p.decide(8), p.decide(8);
  p.reset();
  EXPECT_EQ(p.decide(8), GraphAction::eager);
  EXPECT_EQ(p.decide(8), GraphAction::capture);
}

TEST(GraphPolicy, KeepsAtMostMaxGraphsDroppingTheLeastRecentlyUsed) {
  GraphPolicy p;
  for (int rows = 1; rows <= GraphPolicy::kMaxGraphs; ++rows) {
    EXPECT_EQ(p.decide(rows), GraphAction::eager);
    EXPECT_EQ(p.decide(rows), GraphAction::capture);
    EXPECT_EQ(p.evicted(), -1);
  }
  EXPECT_EQ(p.decide(1), GraphAction::replay);  // 2 is now the least recently used
  EXPECT_EQ(p.decide(100), GraphAction::eager);
  EXPECT_EQ(p.decide(100), GraphAction::capture);
  EXPECT_EQ(p.evicted(), 2);
  EXPECT_EQ(p.decide(1), GraphAction::replay);
  EXPECT_EQ(p.evicted(), -1);
  EXPECT_EQ(p.decide(2), GraphAction::capture);  // seen before: captured again at once
  EXPECT_EQ(p.evicted(), 3);
}

TEST(GraphPolicy, DisabledRunsEveryStepEagerly) {
  GraphPolicy p(false);
  for (int i = 0; i < 3; ++i) EXPECT_EQ(p.decide(4), GraphAction::eager);
  EXPECT_EQ(p.evicted(), -1);
}

}  // namespace
}  // namespace attend::cuda
