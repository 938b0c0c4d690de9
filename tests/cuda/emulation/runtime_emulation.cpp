// The CUDA runtime and cuBLAS calls of core/src/cuda/, on the CPU, for the emulated backend
// (cuda_emulation.h): device memory is host memory, streams run their work at once, a graph is
// the list of launches recorded while a stream captured, GemmEx is a scalar loop accumulating
// in f32. One emulated device with 16 GiB free.
#include <cublas_api.h>
#include <cuda_runtime_api.h>

#include <cstdlib>
#include <cstring>
#include <vector>

#include "cuda_emulation.h"

namespace attend::emulation {
namespace {

using Work = std::vector<std::function<void()>>;
Work* capturing = nullptr;  // the graph being recorded, if any (one stream captures at a time here)

float load(const void* p, cudaDataType type, size_t i) {
  switch (type) {
    case CUDA_R_16F: return __half2float(static_cast<const __half*>(p)[i]);
    case CUDA_R_16BF: return __bfloat162float(static_cast<const __nv_bfloat16*>(p)[i]);
    default: return static_cast<const float*>(p)[i];
  }
}

void store(void* p, cudaDataType type, size_t i, float v) {
  switch (type) {
    case CUDA_R_16F: static_cast<__half*>(p)[i] = __float2half_rn(v); break;
    case CUDA_R_16BF: static_cast<__nv_bfloat16*>(p)[i] = __float2bfloat16_rn(v); break;
    default: static_cast<float*>(p)[i] = v;
  }
}

}  // namespace

void submit(std::function<void()> work) {
  if (capturing) {
    capturing->push_back(std::move(work));
  } else {
    work();
  }
}

}  // namespace attend::emulation

using attend::emulation::capturing;
using attend::emulation::Work;

extern "C" {

cudaError_t cudaMalloc(void** p, size_t bytes) {
  *p = std::aligned_alloc(256, (bytes + 255) / 256 * 256);
  return *p ? cudaSuccess : cudaErrorMemoryAllocation;
}
cudaError_t cudaFree(void* p) {
  std::free(p);
  return cudaSuccess;
}
cudaError_t cudaMemcpy(void* dst, const void* src, size_t bytes, cudaMemcpyKind) {
  std::memcpy(dst, src, bytes);
  return cudaSuccess;
}
cudaError_t cudaMemcpyAsync(void* dst, const void* src, size_t bytes, cudaMemcpyKind, cudaStream_t) {
  std::memcpy(dst, src, bytes);
  return cudaSuccess;
}
cudaError_t cudaMemsetAsync(void* p, int value, size_t bytes, cudaStream_t) {
  std::memset(p, value, bytes);
  return cudaSuccess;
}
cudaError_t cudaMemGetInfo(size_t* free_bytes, size_t* total) {
  *free_bytes = *total = size_t{16} << 30;
  return cudaSuccess;
}
cudaError_t cudaStreamCreateWithFlags(cudaStream_t* stream, unsigned) {
  *stream = reinterpret_cast<cudaStream_t>(new char);
  return cudaSuccess;
}
cudaError_t cudaStreamDestroy(cudaStream_t stream) {
  delete reinterpret_cast<char*>(stream);
  return cudaSuccess;
}
cudaError_t cudaStreamSynchronize(cudaStream_t) { return cudaSuccess; }
cudaError_t cudaGetDeviceCount(int* count) {
  *count = 1;
  return cudaSuccess;
}
cudaError_t cudaSetDevice(int) { return cudaSuccess; }
cudaError_t cudaGetDeviceProperties(cudaDeviceProp* props, int) {
  *props = cudaDeviceProp{};
  std::strcpy(props->name, "CPU emulation");
  props->major = 9;
  return cudaSuccess;
}
cudaError_t cudaDriverGetVersion(int* version) {
  *version = 13000;
  return cudaSuccess;
}
cudaError_t cudaRuntimeGetVersion(int* version) {
  *version = 13000;
  return cudaSuccess;
}
const char* cudaGetErrorName(cudaError_t) { return "cudaErrorEmulated"; }
const char* cudaGetErrorString(cudaError_t) { return "an error of the CPU emulation"; }
cudaError_t cudaGetLastError() { return cudaSuccess; }

cudaError_t cudaStreamBeginCapture(cudaStream_t, cudaStreamCaptureMode) {
  if (capturing) return cudaErrorStreamCaptureUnsupported;
  capturing = new Work;
  return cudaSuccess;
}
cudaError_t cudaStreamEndCapture(cudaStream_t, cudaGraph_t* graph) {
  *graph = reinterpret_cast<cudaGraph_t>(capturing);
  capturing = nullptr;
  return cudaSuccess;
}
cudaError_t cudaGraphInstantiate(cudaGraphExec_t* exec, cudaGraph_t graph, unsigned long long) {
  *exec = reinterpret_cast<cudaGraphExec_t>(new Work(*reinterpret_cast<Work*>(graph)));
  return cudaSuccess;
}
cudaError_t cudaGraphDestroy(cudaGraph_t graph) {
  delete reinterpret_cast<Work*>(graph);
  return cudaSuccess;
}
cudaError_t cudaGraphExecDestroy(cudaGraphExec_t exec) {
  delete reinterpret_cast<Work*>(exec);
  return cudaSuccess;
}
cudaError_t cudaGraphLaunch(cudaGraphExec_t exec, cudaStream_t) {
  for (const auto& work : *reinterpret_cast<Work*>(exec)) work();
  return cudaSuccess;
}

cublasStatus_t cublasCreate_v2(cublasHandle_t* handle) {
  *handle = reinterpret_cast<cublasHandle_t>(new char);
  return CUBLAS_STATUS_SUCCESS;
}
cublasStatus_t cublasDestroy_v2(cublasHandle_t handle) {
  delete reinterpret_cast<char*>(handle);
  return CUBLAS_STATUS_SUCCESS;
}
cublasStatus_t cublasSetStream_v2(cublasHandle_t, cudaStream_t) { return CUBLAS_STATUS_SUCCESS; }
cublasStatus_t cublasSetWorkspace_v2(cublasHandle_t, void*, size_t) { return CUBLAS_STATUS_SUCCESS; }
cublasStatus_t cublasSetMathMode(cublasHandle_t, cublasMath_t) { return CUBLAS_STATUS_SUCCESS; }
const char* cublasGetStatusName(cublasStatus_t) { return "CUBLAS_STATUS_EMULATED"; }
const char* cublasGetStatusString(cublasStatus_t) { return "an error of the CPU emulation"; }

// Column-major C [m, n] = α·op(A)·op(B) + β·C, as cuBLAS defines it (op T: A stored [k, m]).
cublasStatus_t cublasGemmEx(cublasHandle_t, cublasOperation_t transa, cublasOperation_t transb, int m, int n, int k,
                            const void* alpha, const void* A, cudaDataType Atype, int lda, const void* B,
                            cudaDataType Btype, int ldb, const void* beta, void* C, cudaDataType Ctype, int ldc,
                            cublasComputeType_t, cublasGemmAlgo_t) {
  const float a = *static_cast<const float*>(alpha), b = *static_cast<const float*>(beta);
  attend::emulation::submit([=] {
    for (int j = 0; j < n; ++j) {
      for (int i = 0; i < m; ++i) {
        float sum = 0.f;
        for (int p = 0; p < k; ++p) {
          const size_t ai = transa == CUBLAS_OP_N ? i + static_cast<size_t>(p) * lda : p + static_cast<size_t>(i) * lda;
          const size_t bi = transb == CUBLAS_OP_N ? p + static_cast<size_t>(j) * ldb : j + static_cast<size_t>(p) * ldb;
          sum += attend::emulation::load(A, Atype, ai) * attend::emulation::load(B, Btype, bi);
        }
        const size_t ci = i + static_cast<size_t>(j) * ldc;
        attend::emulation::store(C, Ctype, ci, a * sum + (b != 0.f ? b * attend::emulation::load(C, Ctype, ci) : 0.f));
      }
    }
  });
  return CUBLAS_STATUS_SUCCESS;
}

}  // extern "C"
