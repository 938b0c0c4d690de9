// core/src/cuda/device_kernels.cu compiled as C++ for the CPU emulation (cuda_emulation.h).
#include "cuda/device_kernels.cu"
