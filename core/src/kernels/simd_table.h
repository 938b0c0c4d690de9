// The kernel table of one SIMD ISA, built from the templates instantiated with its traits.
// constexpr, so each ISA file's table is constant-initialised: no code compiled for that ISA
// runs until dispatch has checked the CPU supports it.
#pragma once

#include "kernels/kernels.h"
#include "kernels/simd_elementwise.h"
#include "kernels/simd_gemm.h"

namespace attend::kernels::simd {

template <class S>
constexpr KernelTable make_table(Isa isa) {
  static_assert(kRowTile % S::kGemmRows == 0, "kernels.h: kRowTile must be a multiple of every tile height");
  return KernelTable{
      isa,
      gemm_f32_nt<S>,
      gemm_f32_nn<S>,
      gemm_i8w_nt<S>,
      S::kGemmVectors * S::kLanes,
      gemm_f32_nt_panels<S>,
      gemm_i8w_nt_panels<S>,
      nullptr,  // gemm_i8i8_nt: set by each table from its own file
      nullptr,  // gemm_u8s8_shifted_nt: likewise
      softmax_f32<S>,
      sum_exp_f32<S>,
      layernorm_f32<S>,
      relu_f32<S>,
      gelu_f32<S>,
      swish_f32<S>,
      add_f32<S>,
      scale_add_f32<S>,
      first_above_f32<S>,
  };
}

}  // namespace attend::kernels::simd
