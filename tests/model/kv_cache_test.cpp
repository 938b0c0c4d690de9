#include "model/kv_cache.h"

#include <gtest/gtest.h>

namespace attend {
namespace {

constexpr int kLayers = 3, kWidth = 4;

float value(int layer, int slot, int position, int i) { return layer * 1000.f + slot * 100.f + position * 10.f + i; }

void write(KvCache& cache, int slot, int positions) {
  for (int l = 0; l < kLayers; ++l) {
    for (int p = 0; p < positions; ++p) {
      for (int i = 0; i < kWidth; ++i) cache.at(l, slot)[p * kWidth + i] = value(l, slot, p, i);
    }
  }
}

// Slot `slot` holds what write(…, written_as, positions) put there.
void expect_holds(const KvCache& cache, int slot, int written_as, int positions) {
  for (int l = 0; l < kLayers; ++l) {
    for (int p = 0; p < positions; ++p) {
      for (int i = 0; i < kWidth; ++i) {
        ASSERT_EQ(cache.at(l, slot)[p * kWidth + i], value(l, written_as, p, i)) << l << " " << p << " " << i;
      }
    }
  }
}

TEST(KvCache, SlotsStartEmptyAndGrowByWholeSteps) {
  KvCache cache;
  cache.reset(kLayers, kWidth, 2);
  EXPECT_EQ(cache.capacity(0), 0);
  cache.reserve(0, 1);
  EXPECT_EQ(cache.capacity(0), KvCache::kGrowth);
  cache.reserve(0, KvCache::kGrowth);
  EXPECT_EQ(cache.capacity(0), KvCache::kGrowth);
  cache.reserve(0, KvCache::kGrowth + 1);
  EXPECT_EQ(cache.capacity(0), 2 * KvCache::kGrowth);
  EXPECT_EQ(cache.capacity(1), 0);
}

TEST(KvCache, GrowingKeepsEveryLayersPositions) {
  KvCache cache;
  cache.reset(kLayers, kWidth, 1);
  cache.reserve(0, 5);
  write(cache, 0, 5);
  cache.reserve(0, 3 * KvCache::kGrowth + 2);
  expect_holds(cache, 0, 0, 5);
}

TEST(KvCache, CopyGivesTheTargetTheSourcesPositionsAndRoom) {
  KvCache cache;
  cache.reset(kLayers, kWidth, 3);
  cache.reserve(1, KvCache::kGrowth + 3);
  write(cache, 1, KvCache::kGrowth + 3);
  cache.copy(1, 2, KvCache::kGrowth + 3);
  EXPECT_GE(cache.capacity(2), KvCache::kGrowth + 3);
  expect_holds(cache, 2, 1, KvCache::kGrowth + 3);
  cache.release(1);
  EXPECT_EQ(cache.capacity(1), 0);
  expect_holds(cache, 2, 1, KvCache::kGrowth + 3);
  cache.reset(kLayers, kWidth, 3);
  EXPECT_EQ(cache.capacity(2), 0);
}

TEST(KvCache, ReleasedBlocksServeTheNextSlotsThatFitInThem) {
  KvCache cache;
  cache.reset(kLayers, kWidth, 3);
  cache.reserve(0, 2);
  const float* first = cache.at(0, 0);
  cache.release(0);
  cache.reserve(1, KvCache::kGrowth + 1);  // too large for the released block: a new one
  EXPECT_NE(cache.at(0, 1), first);
  cache.reserve(2, KvCache::kGrowth);
  EXPECT_EQ(cache.at(0, 2), first);
  write(cache, 2, KvCache::kGrowth);
  const float* second = cache.at(0, 1);
  cache.reset(kLayers, kWidth, 2);  // a new batch takes the blocks of the last one, the smallest that fits first
  cache.reserve(0, 1);
  EXPECT_EQ(cache.at(0, 0), first);
  cache.reserve(1, 1);
  EXPECT_EQ(cache.at(0, 1), second);
  EXPECT_EQ(cache.capacity(1), 2 * KvCache::kGrowth) << "the block's capacity: the slot need not grow while it fits";
  write(cache, 1, 2 * KvCache::kGrowth);
  cache.reserve(1, 2 * KvCache::kGrowth + 1);  // outgrown: a new block, the old one freed rather than kept
  expect_holds(cache, 1, 1, 2 * KvCache::kGrowth);
  cache.release(0);
  cache.reset(kLayers, kWidth, 1);
  cache.reserve(0, KvCache::kGrowth + 1);  // only the first block (too small) and the newest are kept
  EXPECT_EQ(cache.capacity(0), 3 * KvCache::kGrowth);
}

}  // namespace
}  // namespace attend
