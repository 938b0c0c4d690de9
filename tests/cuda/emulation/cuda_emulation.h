// Enough of CUDA's execution model, on CPU threads, to run core/src/cuda/device_kernels.cu
// compiled as C++ (ATTEND_CUDA_EMULATION): a grid's blocks one after another, each block's
// threads as fibers taking turns between synchronisation points, __syncthreads as a barrier of
// the block, __shfl_xor_sync as an exchange within a warp of 32, __shared__ memory one copy per
// block. With runtime_emulation.cpp
// (host memory for device memory, a scalar GemmEx, graphs as recorded launches) the whole
// backend runs too. It checks arithmetic, indexing, layouts and synchronisation against the CPU
// engine without a GPU; it says nothing of timing, memory limits, a GPU's own rounding or
// cuBLAS itself.
#pragma once

#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_runtime_api.h>  // dim3, uint3, cudaStream_t: types only, no runtime call

#include <cmath>
#include <cstddef>
#include <functional>

#undef __global__
#undef __device__
#undef __shared__
#define __global__
#define __device__
#define __shared__ static  // one block at a time: a static local is the block's
#define ATTEND_DYNAMIC_SHARED(type, name) type* name = static_cast<type*>(::attend::emulation::dynamic_shared())

extern thread_local uint3 threadIdx, blockIdx;
extern thread_local dim3 blockDim, gridDim;

void __syncthreads();
float __shfl_xor_sync(unsigned mask, float value, int lane_mask);
int __shfl_xor_sync(unsigned mask, int value, int lane_mask);
inline float rsqrtf(float x) { return 1.f / std::sqrt(x); }

namespace attend::emulation {

void* dynamic_shared();  // the launch's dynamic shared memory of the running block
// Runs body once per thread of every block of the grid.
void run_grid(dim3 grid, dim3 block, size_t shared_bytes, const std::function<void()>& body);
// Runs work now, or records it into the graph a stream is capturing (runtime_emulation.cpp).
void submit(std::function<void()> work);

}  // namespace attend::emulation

namespace attend::cuda {
namespace {

template <class... Params, class... Args>
void launch(void (*kernel)(Params...), dim3 grid, dim3 block, size_t shared, cudaStream_t, Args... args) {
  ::attend::emulation::submit([=] { ::attend::emulation::run_grid(grid, block, shared, [&] { kernel(args...); }); });
}

}  // namespace
}  // namespace attend::cuda
