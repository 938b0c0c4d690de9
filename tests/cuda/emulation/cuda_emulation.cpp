#include "cuda_emulation.h"

#include <condition_variable>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

thread_local uint3 threadIdx, blockIdx;
thread_local dim3 blockDim, gridDim;

namespace attend::emulation {
namespace {

// Every one of `count` threads waits until all have arrived; reusable.
class Barrier {
 public:
  explicit Barrier(unsigned count) : count_(count) {}
  void wait() {
    std::unique_lock<std::mutex> lock(mutex_);
    const unsigned generation = generation_;
    if (++arrived_ == count_) {
      arrived_ = 0;
      ++generation_;
      all_.notify_all();
    } else {
      all_.wait(lock, [&] { return generation != generation_; });
    }
  }

 private:
  std::mutex mutex_;
  std::condition_variable all_;
  unsigned count_, arrived_ = 0, generation_ = 0;
};

struct Warp {
  explicit Warp(unsigned threads) : barrier(threads) {}
  Barrier barrier;
  float floats[32];
  int ints[32];
};

struct Block {
  Block(unsigned threads, size_t shared_bytes) : barrier(threads), shared(shared_bytes) {
    for (unsigned first = 0; first < threads; first += 32) warps.push_back(std::make_unique<Warp>(std::min(32u, threads - first)));
  }
  Barrier barrier;
  std::vector<std::unique_ptr<Warp>> warps;
  std::vector<char> shared;
};

thread_local Block* current = nullptr;

template <class T>
T exchange(T value, int lane_mask, T (Warp::*slots)[32]) {
  Warp& warp = *current->warps[threadIdx.x / 32];
  const unsigned lane = threadIdx.x % 32;
  (warp.*slots)[lane] = value;
  warp.barrier.wait();
  const T other = (warp.*slots)[lane ^ lane_mask];
  warp.barrier.wait();
  return other;
}

}  // namespace

void* dynamic_shared() { return current->shared.data(); }

void run_grid(dim3 grid, dim3 block, size_t shared_bytes, const std::function<void()>& body) {
  const unsigned threads = block.x * block.y * block.z;
  for (unsigned z = 0; z < grid.z; ++z) {
    for (unsigned y = 0; y < grid.y; ++y) {
      for (unsigned x = 0; x < grid.x; ++x) {
        Block state(threads, shared_bytes);
        std::vector<std::thread> running;
        for (unsigned t = 0; t < threads; ++t) {
          running.emplace_back([&, t] {
            current = &state;
            gridDim = grid;
            blockDim = block;
            blockIdx = uint3{x, y, z};
            threadIdx = uint3{t % block.x, t / block.x % block.y, t / (block.x * block.y)};
            body();
          });
        }
        for (std::thread& thread : running) thread.join();
      }
    }
  }
}

}  // namespace attend::emulation

void __syncthreads() { attend::emulation::current->barrier.wait(); }

float __shfl_xor_sync(unsigned, float value, int lane_mask) {
  return attend::emulation::exchange(value, lane_mask, &attend::emulation::Warp::floats);
}

int __shfl_xor_sync(unsigned, int value, int lane_mask) {
  return attend::emulation::exchange(value, lane_mask, &attend::emulation::Warp::ints);
}
