#include "cuda/cublas_gemm.h"

#include "cuda/cuda_check.h"
#include "cuda/device_plan.h"

namespace attend::cuda {
namespace {

constexpr size_t kWorkspaceBytes = size_t{4} << 20;

cudaDataType data_type(ComputeType type) {
  switch (type) {
    case ComputeType::f32: return CUDA_R_32F;
    case ComputeType::f16: return CUDA_R_16F;
    case ComputeType::bf16: return CUDA_R_16BF;
  }
  return CUDA_R_32F;
}

}  // namespace

Blas::Blas(cudaStream_t stream) : workspace_(kWorkspaceBytes) {
  check(cublasCreate(&handle_), "cublasCreate");
  check(cublasSetStream(handle_, stream), "cublasSetStream");
  check(cublasSetWorkspace(handle_, workspace_.at(0), workspace_.bytes()), "cublasSetWorkspace");
  // The default math: f32 GEMMs stay f32 (no TF32: the parity bar is the CPU's f32 within 1e-3),
  // f16 and bf16 ones use the tensor cores.
  check(cublasSetMathMode(handle_, CUBLAS_DEFAULT_MATH), "cublasSetMathMode");
}

Blas::~Blas() { cublasDestroy(handle_); }

void Blas::gemm_nt(ComputeType type, const void* x, size_t x_lo, int ldx, const void* w, int ldw, float* y, int ldy,
                   int m, int n, int k) const {
  if (m == 0) return;
  const float one = 1.f, zero = 0.f;
  const cudaDataType in = data_type(type);
  auto gemm = [&](const void* plane, const float* beta) {
    check(cublasGemmEx(handle_, CUBLAS_OP_T, CUBLAS_OP_N, n, m, k, &one, w, in, ldw, plane, in, ldx, beta, y,
                       CUDA_R_32F, ldy, CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT),
          "cublasGemmEx");
  };
  gemm(x, &zero);
  if (x_lo) gemm(static_cast<const char*>(x) + x_lo * element_bytes(type), &one);
}

}  // namespace attend::cuda
