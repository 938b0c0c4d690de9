// The kernel tables each ISA file defines; only dispatch.cpp and the tests look at them
// directly, everyone else goes through kernels.h.
#pragma once

#include "kernels/kernels.h"

namespace attend::kernels {

const KernelTable& scalar_kernels();  // kernels_ref.cpp, always compiled
#ifdef ATTEND_KERNELS_AVX2
const KernelTable& avx2_kernels();  // kernels_avx2.cpp
// Its gemm_i8i8_nt (kernels_avx2_i8i8.cpp), also the avx512 table's on CPUs without VNNI.
void gemm_i8i8_nt_avx2(const float* a, int lda, const int8_t* b, int ldb, const int8_t* quads,
                       const int32_t* column_sums, const float* b_scale, const float* bias, float* c,
                       int ldc, int m, int n, int k);
// Its gemm_u8s8_shifted_nt (kernels_avx2_u8s8.cpp).
void gemm_u8s8_shifted_nt_avx2(const float* a, int lda, float qa, const int8_t* b, int ldb, float unquant,
                               const float* bias, float* c, int ldc, int m, int n, int k);
#endif
#ifdef ATTEND_KERNELS_AVX512
const KernelTable& avx512_kernels();  // kernels_avx512.cpp
// The avx512 table's gemm_i8i8_nt on CPUs that also have AVX-512 VNNI (kernels_avx512_vnni.cpp).
void gemm_i8i8_nt_avx512_vnni(const float* a, int lda, const int8_t* b, int ldb, const int8_t* quads,
                              const int32_t* column_sums, const float* b_scale, const float* bias,
                              float* c, int ldc, int m, int n, int k);
// Its gemm_u8s8_shifted_nt, AVX512BW (kernels_avx512_u8s8.cpp).
void gemm_u8s8_shifted_nt_avx512(const float* a, int lda, float qa, const int8_t* b, int ldb, float unquant,
                                 const float* bias, float* c, int ldc, int m, int n, int k);
// The same on CPUs that also have AVX-512 VNNI (kernels_avx512_vnni_u8s8.cpp): the same bits.
void gemm_u8s8_shifted_nt_avx512_vnni(const float* a, int lda, float qa, const int8_t* b, int ldb, float unquant,
                                      const float* bias, float* c, int ldc, int m, int n, int k);
#endif
#ifdef ATTEND_KERNELS_WASM
const KernelTable& wasm_kernels();  // kernels_wasm.cpp
// Its gemm_i8i8_nt (kernels_wasm_i8i8.cpp).
void gemm_i8i8_nt_wasm(const float* a, int lda, const int8_t* b, int ldb, const int8_t* quads,
                       const int32_t* column_sums, const float* b_scale, const float* bias, float* c,
                       int ldc, int m, int n, int k);
// Its gemm_u8s8_shifted_nt (kernels_wasm_u8s8.cpp).
void gemm_u8s8_shifted_nt_wasm(const float* a, int lda, float qa, const int8_t* b, int ldb, float unquant,
                               const float* bias, float* c, int ldc, int m, int n, int k);
// The products and epilogue of gemm_u8s8_shifted_nt with relaxed SIMD (wasm/relaxed/u8s8_relaxed.c,
// a module of its own called through the table): ua [m, 16·steps] quantized rows (bytes, zeros
// past k), b rows 16·steps bytes each (k a multiple of 16).
using RelaxedU8s8 = void (*)(const uint8_t* ua, int steps, const int8_t* b, int ldb, float unquant, const float* bias,
                             float* c, int ldc, int m, int n);
// gemm_u8s8_shifted_nt_wasm calls `kernel` from now on where k is a multiple of 16, if it gives
// the kernel's own bits on a sweep of shapes with saturating pairs (the instruction it relies on
// may compute otherwise on other CPUs); else nothing changes. Returns whether it took it.
bool use_relaxed_u8s8(RelaxedU8s8 kernel);
#endif

}  // namespace attend::kernels
