// The WebAssembly SIMD128 kernels against the scalar reference, over the same sweeps as the
// native GoogleTest suite (kernel_checks.h), as a plain program run under Node: prints one line
// per sweep and exits non-zero on any failure.
#include <cstdio>

#include "kernel_checks.h"
#include "kernels/kernels.h"

int main() {
  using namespace attend::kernels;
  const KernelTable* ref = kernels_for(Isa::scalar);
  const KernelTable* wasm = kernels_for(Isa::wasm_simd128);
  if (wasm == nullptr || &best_kernels() != wasm) {
    std::printf("FAIL: the wasm_simd128 table is missing or not the one chosen\n");
    return 1;
  }
  if (wasm->gemm_i8i8_nt == nullptr) {  // its sweep would pass without checking anything
    std::printf("FAIL: the wasm_simd128 table has no gemm_i8i8_nt\n");
    return 1;
  }
  if (wasm->gemm_u8s8_shifted_nt == nullptr || wasm->gemm_u8s8_shifted_nt == ref->gemm_u8s8_shifted_nt) {
    std::printf("FAIL: the wasm_simd128 table has no gemm_u8s8_shifted_nt of its own\n");
    return 1;
  }
  int failures = 0;
  for (const testing::NamedSweep& sweep : testing::all_sweeps()) {
    const std::string failure = sweep.run(*ref, *wasm, 4);
    std::printf("%s %s%s%s\n", failure.empty() ? "ok  " : "FAIL", sweep.name,
                failure.empty() ? "" : ": ", failure.c_str());
    failures += failure.empty() ? 0 : 1;
  }
  return failures == 0 ? 0 : 1;
}
