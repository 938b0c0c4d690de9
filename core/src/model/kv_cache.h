// The decoder's self-attention keys and values, one block of memory per cache slot (hypothesis),
// [L][capacity][2D] (per position K then V), grown as positions come and released when the
// slot's hypothesis is gone: memory follows the hypotheses alive and the steps they reached,
// not the number of slots times the longest allowed output. Released blocks are kept for the next
// slot that needs one (the smallest that is large enough: a new batch's slots take the last
// batch's blocks and need not grow while they fit), so forking and dropping hypotheses, and the
// batches after the first, seldom allocate or touch fresh pages. A block a slot outgrows is freed:
// kept, the blocks of every size a batch passed through would double its memory.
#pragma once

#include <cstddef>
#include <memory>
#include <vector>

namespace attend {

class KvCache {
 public:
  // Positions are added this many at a time: a slot is copied when it grows, ~1/16 as often as
  // it is written.
  static constexpr int kGrowth = 16;

  // `slots` empty slots of `layers` layers of `width` (2D) floats per position. Blocks released
  // earlier are kept when the layers and width are the same.
  void reset(int layers, int width, int slots);
  // Room for positions [0, positions) in `slot`, keeping the ones it holds.
  void reserve(int slot, int positions);
  // The slot's keys and values of one layer, [capacity][width].
  float* at(int layer, int slot) const {
    return slots_[slot].data.get() + static_cast<size_t>(layer) * slots_[slot].capacity * width_;
  }
  int capacity(int slot) const { return slots_[slot].capacity; }
  // Positions [0, positions) of `from` into `to` (reserved as needed).
  void copy(int from, int to, int positions);
  void release(int slot);

 private:
  using Block = std::unique_ptr<float[]>;  // [L][capacity][width]
  struct Slot {
    Block data;  // uninitialised beyond what was written
    int capacity = 0;
  };
  // A block for at least `capacity` positions: the smallest released one that is large enough, else a
  // new one; `capacity` becomes the block's.
  Block take(int& capacity);
  // Keeps a block of `capacity` positions for take().
  void keep(Block block, int capacity);

  int layers_ = 0, width_ = 0;
  std::vector<Slot> slots_;
  std::vector<std::vector<Block>> free_;  // [capacity / kGrowth - 1] released blocks of that capacity
};

}  // namespace attend
