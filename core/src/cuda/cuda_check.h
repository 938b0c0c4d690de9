// CUDA runtime and cuBLAS failures as attend::Error naming the cause: device_unavailable (no
// device, a driver too old for this build's runtime or none at all) or out_of_memory (device
// memory); anything else a device failure naming the call.
#pragma once

#include <cublas_api.h>
#include <cuda_runtime_api.h>

#include <cstddef>
#include <string>

#include "attend/error.h"

namespace attend::cuda {

// The error for `status` returned by `call`; driver_version / runtime_version as
// cudaDriverGetVersion / cudaRuntimeGetVersion report them (0: no driver).
Error cuda_error(cudaError_t status, const std::string& call, int driver_version, int runtime_version);
Error cublas_error(cublasStatus_t status, const std::string& call);

// Throws cuda_error / cublas_error unless the call succeeded.
void check(cudaError_t status, const char* call);
void check(cublasStatus_t status, const char* call);

struct DeviceProperties {
  int index = 0;
  std::string name;
  int major = 0, minor = 0;  // compute capability
  size_t free_bytes = 0, total_bytes = 0;
};

// Makes the first CUDA device current and describes it; throws device_unavailable when there is
// no usable one.
DeviceProperties open_first_device();

}  // namespace attend::cuda
