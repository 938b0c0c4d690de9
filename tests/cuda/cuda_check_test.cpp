// CUDA runtime and cuBLAS failures as attend::Error (core/src/cuda/cuda_check.h): the causes a
// user can act on are named, with the code the boundaries report. The machine's own answer is
// device_choice_test's.
#include "cuda/cuda_check.h"

#include <gtest/gtest.h>

namespace attend::cuda {
namespace {

TEST(CudaCheck, NoDriverAtAll) {  // what our machines without a GPU answer
  const Error e = cuda_error(cudaErrorInsufficientDriver, "cudaGetDeviceCount", 0, 13000);
  EXPECT_EQ(e.code(), ErrorCode::device_unavailable);
  EXPECT_STREQ(e.what(),
               "CUDA device unavailable: no NVIDIA driver is loaded, and this build's CUDA runtime 13.0 needs a driver "
               "for CUDA 13.0 or newer (cudaErrorInsufficientDriver: CUDA driver version is insufficient for CUDA "
               "runtime version)");
}

TEST(CudaCheck, DriverTooOld) {
  const Error e = cuda_error(cudaErrorInsufficientDriver, "cudaGetDeviceCount", 12020, 13000);
  EXPECT_EQ(e.code(), ErrorCode::device_unavailable);
  EXPECT_NE(std::string(e.what()).find("the NVIDIA driver supports CUDA 12.2, and this build's CUDA runtime 13.0 "
                                       "needs a driver for CUDA 13.0 or newer"),
            std::string::npos)
      << e.what();
}

TEST(CudaCheck, NoDevice) {
  const Error e = cuda_error(cudaErrorNoDevice, "cudaGetDeviceCount", 13000, 13000);
  EXPECT_EQ(e.code(), ErrorCode::device_unavailable);
  EXPECT_EQ(std::string(e.what()).rfind("CUDA device unavailable: no CUDA device is present (cudaErrorNoDevice", 0), 0u)
      << e.what();
}

TEST(CudaCheck, OutOfDeviceMemory) {
  const Error e = cuda_error(cudaErrorMemoryAllocation, "cudaMalloc", 13000, 13000);
  EXPECT_EQ(e.code(), ErrorCode::out_of_memory);
  EXPECT_EQ(std::string(e.what()).rfind("out of device memory in cudaMalloc", 0), 0u) << e.what();
  EXPECT_EQ(cublas_error(CUBLAS_STATUS_ALLOC_FAILED, "cublasCreate").code(), ErrorCode::out_of_memory);
}

TEST(CudaCheck, OtherFailuresNameTheCall) {
  const Error e = cuda_error(cudaErrorIllegalAddress, "cudaStreamSynchronize", 13000, 13000);
  EXPECT_EQ(std::string(e.what()).rfind("CUDA failure in cudaStreamSynchronize (cudaErrorIllegalAddress", 0), 0u)
      << e.what();
  EXPECT_EQ(std::string(cublas_error(CUBLAS_STATUS_EXECUTION_FAILED, "cublasGemmEx").what())
                .rfind("cuBLAS failure in cublasGemmEx (CUBLAS_STATUS_EXECUTION_FAILED", 0),
            0u);
}

}  // namespace
}  // namespace attend::cuda
