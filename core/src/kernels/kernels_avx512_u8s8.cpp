// gemm_u8s8_shifted_nt for AVX-512 (u8s8_x86.h; compiled with -mavx512f/bw/vl
// -ffp-contract=off): intgemm's AVX512BW Multiply8Shift, vpmaddubsw + vpmaddwd by ones +
// vpaddd per 64 bytes. Not VNNI's vpdpbusd, which adds the four products of a byte quad into
// int32 without saturating the pairs: it would differ from intgemm whenever a pair saturates.
// Tiles of 4 rows × 4 columns (16 accumulators + 4 rows of ua + a row of b + the ones: 22 of
// the 32 registers), 1 row × 16 columns for a call of one row. Measured on the 2-core AMD EPYC
// (Zen 4) dev machine, GCC 12 -O3: 4 × 4 and 2 × 8 alike (m = 64, n = k = 512: 166 µs), 3 × 8 and
// 1 × 8 slower (224, 174); 1 × 16 at m = 1 (3.7 µs against 3.9 for 1 × 8, 4.6 for 1 × 4).
// On CPUs with AVX512_VNNI the table takes kernels_avx512_vnni_u8s8.cpp's instead (vpdpwssd).
#include <immintrin.h>

#include "kernels/isa_tables.h"
#include "kernels/u8s8_avx512.h"
#include "kernels/u8s8_x86.h"

namespace attend::kernels {

void gemm_u8s8_shifted_nt_avx512(const float* a, int lda, float qa, const int8_t* b, int ldb, float unquant,
                                 const float* bias, float* c, int ldc, int m, int n, int k) {
  u8s8::gemm<Avx512U8s8</*kVnni=*/false>>(a, lda, qa, b, ldb, unquant, bias, c, ldc, m, n, k);
}

}  // namespace attend::kernels
