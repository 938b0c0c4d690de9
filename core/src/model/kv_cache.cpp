#include "model/kv_cache.h"

#include <cstring>
#include <utility>

namespace attend {

void KvCache::reset(int layers, int width, int slots) {
  if (layers != layers_ || width != width_) free_.clear();
  layers_ = layers;
  width_ = width;
  for (Slot& s : slots_) keep(std::move(s.data), s.capacity);
  slots_.clear();
  slots_.resize(slots);
}

KvCache::Block KvCache::take(int& capacity) {
  for (size_t size_class = capacity / kGrowth - 1; size_class < free_.size(); ++size_class) {
    if (free_[size_class].empty()) continue;
    Block block = std::move(free_[size_class].back());
    free_[size_class].pop_back();
    capacity = static_cast<int>(size_class + 1) * kGrowth;
    return block;
  }
  return Block(new float[static_cast<size_t>(layers_) * capacity * width_]);
}

void KvCache::keep(Block block, int capacity) {
  if (!block) return;
  const size_t size_class = capacity / kGrowth - 1;
  if (free_.size() <= size_class) free_.resize(size_class + 1);
  free_[size_class].push_back(std::move(block));
}

void KvCache::reserve(int slot, int positions) {
  Slot& s = slots_[slot];
  if (positions <= s.capacity) return;
  int capacity = (positions + kGrowth - 1) / kGrowth * kGrowth;
  const size_t row = static_cast<size_t>(width_);
  Block grown = take(capacity);
  for (int l = 0; l < layers_ && s.capacity > 0; ++l) {  // [L][old capacity][2D] -> [L][capacity][2D]
    std::memcpy(grown.get() + static_cast<size_t>(l) * capacity * row, s.data.get() + static_cast<size_t>(l) * s.capacity * row, s.capacity * row * sizeof(float));
  }
  s.data = std::move(grown);  // the outgrown block is freed
  s.capacity = capacity;
}

void KvCache::copy(int from, int to, int positions) {
  reserve(to, positions);
  for (int l = 0; l < layers_; ++l) {
    std::memcpy(at(l, to), at(l, from), static_cast<size_t>(positions) * width_ * sizeof(float));
  }
}

void KvCache::release(int slot) {
  keep(std::move(slots_[slot].data), slots_[slot].capacity);
  slots_[slot].capacity = 0;
}

}  // namespace attend
