// Chooses the kernel table once per process. Natively: the best ISA the CPU (and the OS, which
// must save the wide registers; __builtin_cpu_supports checks XCR0 too) supports among those
// compiled in. Under Emscripten: the SIMD128 table, chosen at compile time.
//
// ATTEND_ISA=scalar|avx2|avx512 in the environment forces a lower ISA for the whole process
// (for benches and for reproducing an ISA-specific result); a name that is unknown or not
// runnable here is ignored and the best ISA is used.
#include <cstdlib>
#include <cstring>

#include "kernels/isa_tables.h"

namespace attend::kernels {

namespace {

constexpr Isa kAllIsas[] = {Isa::scalar, Isa::avx2, Isa::avx512, Isa::wasm_simd128};

bool cpu_supports(Isa isa) {
#if defined(__x86_64__) || defined(__i386__)
  __builtin_cpu_init();
  switch (isa) {
    case Isa::avx2:
      return __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma");
    case Isa::avx512:
      return __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw") &&
             __builtin_cpu_supports("avx512dq") && __builtin_cpu_supports("avx512vl") &&
             __builtin_cpu_supports("fma");
    default:
      break;
  }
#endif
  return isa == Isa::scalar || isa == Isa::wasm_simd128;
}

const KernelTable* compiled_table(Isa isa) {
  switch (isa) {
    case Isa::scalar:
      return &scalar_kernels();
#ifdef ATTEND_KERNELS_AVX2
    case Isa::avx2:
      return &avx2_kernels();
#endif
#ifdef ATTEND_KERNELS_AVX512
    case Isa::avx512:
      return &avx512_kernels();
#endif
#ifdef ATTEND_KERNELS_WASM
    case Isa::wasm_simd128:
      return &wasm_kernels();
#endif
    default:
      return nullptr;
  }
}

const KernelTable& choose_kernels() {
  const std::vector<Isa> isas = available_isas();
  Isa chosen = isas.back();
  if (const char* forced = std::getenv("ATTEND_ISA")) {
    for (Isa isa : isas) {
      if (std::strcmp(forced, isa_name(isa)) == 0) chosen = isa;
    }
  }
  return *kernels_for(chosen);
}

}  // namespace

const char* isa_name(Isa isa) {
  switch (isa) {
    case Isa::scalar: return "scalar";
    case Isa::avx2: return "avx2";
    case Isa::avx512: return "avx512";
    case Isa::wasm_simd128: return "wasm_simd128";
  }
  return "unknown";
}

const KernelTable* kernels_for(Isa isa) {
  // Ask the CPU first: building an ISA's table runs code compiled for that ISA.
  return cpu_supports(isa) ? compiled_table(isa) : nullptr;
}

std::vector<Isa> available_isas() {
  std::vector<Isa> isas;
  for (Isa isa : kAllIsas) {
    if (kernels_for(isa) != nullptr) isas.push_back(isa);
  }
  return isas;
}

const KernelTable& best_kernels() {
  static const KernelTable& table = choose_kernels();
  return table;
}

}  // namespace attend::kernels
