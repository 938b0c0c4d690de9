// One device allocation freed with its owner (an arena that device_plan.h lays out), and a
// stream owned the same way.
#pragma once

#include <cuda_runtime_api.h>

#include <cstddef>

namespace attend::cuda {

class DeviceArena {
 public:
  DeviceArena() = default;
  explicit DeviceArena(size_t bytes);  // throws out_of_memory naming the size
  ~DeviceArena();
  DeviceArena(DeviceArena&& other) noexcept;
  DeviceArena& operator=(DeviceArena&& other) noexcept;
  DeviceArena(const DeviceArena&) = delete;
  DeviceArena& operator=(const DeviceArena&) = delete;

  size_t bytes() const { return bytes_; }
  template <class T = void>
  T* at(size_t offset) const {
    return reinterpret_cast<T*>(static_cast<char*>(base_) + offset);
  }

 private:
  void* base_ = nullptr;
  size_t bytes_ = 0;
};

class Stream {
 public:
  Stream();
  ~Stream();
  Stream(const Stream&) = delete;
  Stream& operator=(const Stream&) = delete;
  cudaStream_t get() const { return stream_; }
  void synchronize() const;

 private:
  cudaStream_t stream_ = nullptr;
};

}  // namespace attend::cuda
