#include "cuda/cuda_check.h"

namespace attend::cuda {
namespace {

// "13.0" from CUDA's 1000·major + 10·minor.
std::string version_text(int version) {
  return std::to_string(version / 1000) + "." + std::to_string(version % 1000 / 10);
}

}  // namespace

Error cuda_error(cudaError_t status, const std::string& call, int driver_version, int runtime_version) {
  const std::string cause = std::string(" (") + cudaGetErrorName(status) + ": " + cudaGetErrorString(status) + ")";
  switch (status) {
    case cudaErrorInsufficientDriver:
      return Error(ErrorCode::device_unavailable,
                   "CUDA device unavailable: " +
                       (driver_version == 0 ? std::string("no NVIDIA driver is loaded")
                                            : "the NVIDIA driver supports CUDA " + version_text(driver_version)) +
                       ", and this build's CUDA runtime " + version_text(runtime_version) +
                       " needs a driver for CUDA " + version_text(runtime_version) + " or newer" + cause);
    case cudaErrorNoDevice:
      return Error(ErrorCode::device_unavailable, "CUDA device unavailable: no CUDA device is present" + cause);
    case cudaErrorStubLibrary:
      return Error(ErrorCode::device_unavailable,
                   "CUDA device unavailable: only the CUDA driver's stub library is installed, not the driver" + cause);
    case cudaErrorDevicesUnavailable:
    case cudaErrorInvalidDevice:
      return Error(ErrorCode::device_unavailable, "CUDA device unavailable: the device cannot be used" + cause);
    case cudaErrorMemoryAllocation:
      return Error(ErrorCode::out_of_memory, "out of device memory in " + call + cause);
    default:
      return Error(ErrorCode::device_unavailable, "CUDA failure in " + call + cause);
  }
}

Error cublas_error(cublasStatus_t status, const std::string& call) {
  const std::string cause = std::string(" (") + cublasGetStatusName(status) + ": " + cublasGetStatusString(status) + ")";
  if (status == CUBLAS_STATUS_ALLOC_FAILED) return Error(ErrorCode::out_of_memory, "out of device memory in " + call + cause);
  return Error(ErrorCode::device_unavailable, "cuBLAS failure in " + call + cause);
}

void check(cudaError_t status, const char* call) {
  if (status == cudaSuccess) return;
  int driver = 0, runtime = 0;
  cudaDriverGetVersion(&driver);
  cudaRuntimeGetVersion(&runtime);
  throw cuda_error(status, call, driver, runtime);
}

void check(cublasStatus_t status, const char* call) {
  if (status != CUBLAS_STATUS_SUCCESS) throw cublas_error(status, call);
}

DeviceProperties open_first_device() {
  int count = 0;
  check(cudaGetDeviceCount(&count), "cudaGetDeviceCount");
  if (count == 0) check(cudaErrorNoDevice, "cudaGetDeviceCount");
  DeviceProperties p;
  check(cudaSetDevice(p.index), "cudaSetDevice");
  cudaDeviceProp props{};
  check(cudaGetDeviceProperties(&props, p.index), "cudaGetDeviceProperties");
  p.name = props.name;
  p.major = props.major;
  p.minor = props.minor;
  check(cudaMemGetInfo(&p.free_bytes, &p.total_bytes), "cudaMemGetInfo");
  return p;
}

}  // namespace attend::cuda
