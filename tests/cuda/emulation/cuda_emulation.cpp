#include "cuda_emulation.h"

#include <ucontext.h>

#include <cstdio>
#include <cstdlib>
#include <vector>

thread_local uint3 threadIdx, blockIdx;
thread_local dim3 blockDim, gridDim;

namespace attend::emulation {
namespace {

// A block's threads are fibers on the calling thread, run in turn: each runs until its next
// synchronisation point (__syncthreads, or either half of a warp exchange) or its end, then the
// next one. Every thread of our kernels meets the same synchronisation points in the same order,
// so one round of the fibers is one step of the block.
constexpr size_t kStackBytes = size_t{64} << 10;

struct Fiber {
  ucontext_t context;
  std::vector<char> stack = std::vector<char>(kStackBytes);
  bool done = false;
};

struct Block {
  ucontext_t scheduler;
  std::vector<Fiber> fibers;
  std::vector<char> shared;
  const std::function<void()>* body = nullptr;
  unsigned running = 0;
  float floats[1024];  // the warp exchange's slots, one per thread
  int ints[1024];
};

Block* current = nullptr;

void fiber_main() {
  (*current->body)();
  current->fibers[current->running].done = true;
}  // returns to the scheduler (uc_link)

void yield() { swapcontext(&current->fibers[current->running].context, &current->scheduler); }

void run_block(Block& block, dim3 shape, const uint3& index) {
  const unsigned threads = shape.x * shape.y * shape.z;
  for (unsigned t = 0; t < threads; ++t) {
    Fiber& f = block.fibers[t];
    f.done = false;
    getcontext(&f.context);
    f.context.uc_stack.ss_sp = f.stack.data();
    f.context.uc_stack.ss_size = f.stack.size();
    f.context.uc_link = &block.scheduler;
    makecontext(&f.context, fiber_main, 0);
  }
  blockIdx = index;
  for (unsigned finished = 0; finished < threads;) {  // rounds
    finished = 0;
    for (unsigned t = 0; t < threads; ++t) {
      if (block.fibers[t].done) {
        ++finished;
        continue;
      }
      block.running = t;
      threadIdx = uint3{t % shape.x, t / shape.x % shape.y, t / (shape.x * shape.y)};
      swapcontext(&block.scheduler, &block.fibers[t].context);
    }
    unsigned done_now = 0;
    for (unsigned t = 0; t < threads; ++t) done_now += block.fibers[t].done;
    if (done_now != 0 && done_now != threads) {
      std::fprintf(stderr, "cuda emulation: threads of a block met different synchronisation points\n");
      std::abort();
    }
    finished = done_now;
  }
}

template <class T>
T exchange(T value, int lane_mask, T* slots) {
  const unsigned t = current->running, lane = t % 32;
  slots[t] = value;
  yield();  // every thread has written
  const T other = slots[t - lane + (lane ^ lane_mask)];
  yield();  // every thread has read
  return other;
}

}  // namespace

void* dynamic_shared() { return current->shared.data(); }

void run_grid(dim3 grid, dim3 block, size_t shared_bytes, const std::function<void()>& body) {
  Block state;
  state.fibers.resize(block.x * block.y * block.z);
  state.shared.resize(shared_bytes);
  state.body = &body;
  Block* outer = current;
  current = &state;
  gridDim = grid;
  blockDim = block;
  for (unsigned z = 0; z < grid.z; ++z) {
    for (unsigned y = 0; y < grid.y; ++y) {
      for (unsigned x = 0; x < grid.x; ++x) run_block(state, block, uint3{x, y, z});
    }
  }
  current = outer;
}

}  // namespace attend::emulation

void __syncthreads() { attend::emulation::yield(); }

float __shfl_xor_sync(unsigned, float value, int lane_mask) {
  return attend::emulation::exchange(value, lane_mask, attend::emulation::current->floats);
}

int __shfl_xor_sync(unsigned, int value, int lane_mask) {
  return attend::emulation::exchange(value, lane_mask, attend::emulation::current->ints);
}
