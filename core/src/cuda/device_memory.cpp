#include "cuda/device_memory.h"

#include <utility>

#include "cuda/cuda_check.h"

namespace attend::cuda {

DeviceArena::DeviceArena(size_t bytes) : bytes_(bytes) {
  if (bytes == 0) return;
  const cudaError_t status = cudaMalloc(&base_, bytes);
  if (status == cudaErrorMemoryAllocation) {
    throw Error(ErrorCode::out_of_memory,
                "out of device memory: cudaMalloc of " + std::to_string((bytes + (1 << 20) - 1) >> 20) + " MiB failed");
  }
  check(status, "cudaMalloc");
}

DeviceArena::~DeviceArena() {
  if (base_) cudaFree(base_);
}

DeviceArena::DeviceArena(DeviceArena&& other) noexcept
    : base_(std::exchange(other.base_, nullptr)), bytes_(std::exchange(other.bytes_, 0)) {}

DeviceArena& DeviceArena::operator=(DeviceArena&& other) noexcept {
  if (this != &other) {
    if (base_) cudaFree(base_);
    base_ = std::exchange(other.base_, nullptr);
    bytes_ = std::exchange(other.bytes_, 0);
  }
  return *this;
}

Stream::Stream() { check(cudaStreamCreateWithFlags(&stream_, cudaStreamNonBlocking), "cudaStreamCreate"); }
Stream::~Stream() { cudaStreamDestroy(stream_); }
void Stream::synchronize() const { check(cudaStreamSynchronize(stream_), "cudaStreamSynchronize"); }

}  // namespace attend::cuda
