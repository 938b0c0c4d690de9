// The kernel tables each ISA file defines; only dispatch.cpp and the tests look at them
// directly, everyone else goes through kernels.h.
#pragma once

#include "kernels/kernels.h"

namespace attend::kernels {

const KernelTable& scalar_kernels();  // kernels_ref.cpp, always compiled
#ifdef ATTEND_KERNELS_AVX2
const KernelTable& avx2_kernels();  // kernels_avx2.cpp
#endif
#ifdef ATTEND_KERNELS_AVX512
const KernelTable& avx512_kernels();  // kernels_avx512.cpp
#endif
#ifdef ATTEND_KERNELS_WASM
const KernelTable& wasm_kernels();  // kernels_wasm.cpp
#endif

}  // namespace attend::kernels
