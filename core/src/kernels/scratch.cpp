#include "kernels/scratch.h"

#include <cstdlib>
#include <memory>
#include <new>

namespace attend::kernels {

namespace {

struct FreeDeleter {
  void operator()(float* p) const { std::free(p); }
};

struct Scratch {
  std::unique_ptr<float, FreeDeleter> data;
  std::size_t capacity = 0;
};

}  // namespace

float* scratch_floats(std::size_t count) {
  thread_local Scratch scratch;
  if (count > scratch.capacity) {
    // Grow geometrically and round up to whole cache lines, as aligned_alloc requires.
    std::size_t capacity = count > 2 * scratch.capacity ? count : 2 * scratch.capacity;
    capacity = (capacity + 15) / 16 * 16;
    void* p = std::aligned_alloc(64, capacity * sizeof(float));
    if (p == nullptr) throw std::bad_alloc();
    scratch.data.reset(static_cast<float*>(p));
    scratch.capacity = capacity;
  }
  return scratch.data.get();
}

}  // namespace attend::kernels
