// gemm_u8s8_shifted_nt for AVX-512 with VNNI (u8s8_x86.h, u8s8_avx512.h; compiled with
// -mavx512f/bw/vl/vnni -ffp-contract=off): kernels_avx512_u8s8.cpp's kernel with vpmaddwd by ones
// and vpaddd fused into one vpdpwssd by ones (two instructions per 64 multiply-adds, not three).
// The same integers, so the same bits; the avx512 table takes it where the CPU has AVX512_VNNI.
// Measured on the 2-core AMD EPYC (Zen 4) dev machine (attend_gemm_rates --u8s8): 1.05–1.09× the
// AVX512BW kernel at the ssru-ende student's shapes (k = 128, m = 1…64), 1.02–1.06× at d_model 256 /
// d_ff 1536; vpmaddubsw, which both keep, holds the same multiply ports, so no more than that.
#include <immintrin.h>

#include "kernels/isa_tables.h"
#include "kernels/u8s8_avx512.h"
#include "kernels/u8s8_x86.h"

namespace attend::kernels {

void gemm_u8s8_shifted_nt_avx512_vnni(const float* a, int lda, float qa, const int8_t* b, int ldb, float unquant,
                                      const float* bias, float* c, int ldc, int m, int n, int k) {
  u8s8::gemm<Avx512U8s8</*kVnni=*/true>>(a, lda, qa, b, ldb, unquant, bias, c, ldc, m, n, k);
}

}  // namespace attend::kernels
