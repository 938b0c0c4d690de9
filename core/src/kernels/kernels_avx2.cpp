// AVX2 + FMA kernels (this file alone, with kernels_avx2_i8i8.cpp, is compiled with -mavx2
// -mfma): the traits in avx2_traits.h are the whole ISA-specific part; the kernels are the
// templates in simd_*.h.
#include "kernels/avx2_traits.h"
#include "kernels/isa_tables.h"
#include "kernels/simd_table.h"

namespace attend::kernels {

const KernelTable& avx2_kernels() {
  static constexpr KernelTable table = [] {
    KernelTable t = simd::make_table<Avx2>(Isa::avx2);
    t.gemm_i8i8_nt = gemm_i8i8_nt_avx2;
    t.gemm_u8s8_shifted_nt = gemm_u8s8_shifted_nt_avx2;
    return t;
  }();
  return table;
}

}  // namespace attend::kernels
