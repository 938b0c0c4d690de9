// The backend's GEMMs through cuBLAS, accumulating in f32 whatever the compute type:
//   y [m, n] = x [m, k] · Wᵀ,  W [n, k] as nn.Linear stores it, all row-major.
// cuBLAS is column-major: row-major y is column-major yᵀ [n, m] = W · xᵀ, so W goes in
// transposed (op T on its column-major [k, n] view) and x as it is.
#pragma once

#include <cublas_v2.h>

#include "attend/model.h"
#include "cuda/device_memory.h"

namespace attend::cuda {

class Blas {
 public:
  explicit Blas(cudaStream_t stream);  // a handle on `stream` with its own workspace (graph capture needs one)
  ~Blas();
  Blas(const Blas&) = delete;
  Blas& operator=(const Blas&) = delete;

  // x, w in `type`; y f32. x_lo > 0: x has a low plane x_lo elements on (bf16, device_kernels.h's
  // Operand) and y = x·Wᵀ + x_lo-plane·Wᵀ, a second GEMM adding into the first's sums.
  void gemm_nt(ComputeType type, const void* x, size_t x_lo, int ldx, const void* w, int ldw, float* y, int ldy, int m,
               int n, int k) const;

 private:
  cublasHandle_t handle_ = nullptr;
  DeviceArena workspace_;
};

}  // namespace attend::cuda
