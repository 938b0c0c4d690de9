// How close a SIMD kernel must come to the scalar reference: the one place these numbers
// live. A value passes when |got − want| ≤ abs + rel·scale, where scale is |want| for the
// elementwise kernels and, for the GEMMs, the magnitude Σ_p |a·b| (+ |bias| + |c|) of the sum
// (so cancellation in a dot product is not mistaken for an error).
#pragma once

namespace attend::kernels::testing {

struct Tolerance {
  float abs;
  float rel;
};

// f32 sums of up to a few thousand products in a different order (lanes, FMA): a few ulp of
// the magnitude per √k, with margin.
inline constexpr Tolerance kGemmF32{1e-6f, 1e-5f};
// int8 weights are exact small integers in f32, so the same rounding as kGemmF32.
inline constexpr Tolerance kGemmI8W{1e-6f, 1e-5f};
// Probabilities: exp to ~1e-7 relative, sums in a different order; PyTorch parity is tested
// at 1e-5 one level up, so the kernel must be well inside it.
inline constexpr Tolerance kSoftmax{1e-9f, 2e-6f};
// Outputs of order 1 after normalisation.
inline constexpr Tolerance kLayernorm{1e-6f, 1e-5f};
// gelu/swish against the double-precision reference: 1e-6 relative; the absolute part only
// matters in gelu's far negative tail, where values are below 1e-7 anyway.
inline constexpr Tolerance kActivation{1e-7f, 1e-6f};
// add/scale_add: at most one rounding apart (FMA vs multiply-then-add).
inline constexpr Tolerance kArithmetic{1e-7f, 2e-7f};

}  // namespace attend::kernels::testing
