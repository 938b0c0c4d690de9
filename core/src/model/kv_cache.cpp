#include "model/kv_cache.h"

#include <cstring>

namespace attend {

void KvCache::reset(int layers, int width, int slots) {
  layers_ = layers;
  width_ = width;
  slots_.clear();
  slots_.resize(slots);
}

void KvCache::reserve(int slot, int positions) {
  Slot& s = slots_[slot];
  if (positions <= s.capacity) return;
  const int capacity = (positions + kGrowth - 1) / kGrowth * kGrowth;
  const size_t row = static_cast<size_t>(width_);
  std::unique_ptr<float[]> grown(new float[static_cast<size_t>(layers_) * capacity * row]);
  for (int l = 0; l < layers_ && s.capacity > 0; ++l) {  // [L][old capacity][2D] -> [L][capacity][2D]
    std::memcpy(grown.get() + static_cast<size_t>(l) * capacity * row, s.data.get() + static_cast<size_t>(l) * s.capacity * row, s.capacity * row * sizeof(float));
  }
  s.data = std::move(grown);
  s.capacity = capacity;
}

void KvCache::copy(int from, int to, int positions) {
  reserve(to, positions);
  for (int l = 0; l < layers_; ++l) {
    std::memcpy(at(l, to), at(l, from), static_cast<size_t>(positions) * width_ * sizeof(float));
  }
}

void KvCache::release(int slot) {
  slots_[slot].data.reset();
  slots_[slot].capacity = 0;
}

}  // namespace attend
