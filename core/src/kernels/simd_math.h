// Vectorised transcendental functions for softmax and the activations, accurate to a few
// ulp (tests compare them with the double-precision reference).
#pragma once

#include "kernels/simd_common.h"

namespace attend::kernels {

// exp(x) = 2ⁿ·eʳ with n = round(x·log₂e) and r = x − n·ln2 (ln2 split in two so the
// reduction is exact), |r| ≤ ln2/2; eʳ ≈ 1 + r + r²·P(r), P Cephes' expf minimax polynomial
// (relative error ≈ 1e-7). Inputs below −87.3, where eˣ is no longer a normal float, give 0
// (so exp(−∞) = 0 for masked scores); inputs above 88 saturate at e⁸⁸.
template <class S>
inline typename S::V exp_approx(typename S::V x) {
  using V = typename S::V;
  const V lowest = S::set1(-87.3f);
  const V clamped = S::min(S::max(x, lowest), S::set1(88.0f));
  const V n = S::round(S::mul(clamped, S::set1(1.44269504088896341f)));
  V r = S::fma(n, S::set1(-0.693359375f), clamped);
  r = S::fma(n, S::set1(2.12194440e-4f), r);
  V p = S::set1(1.9875691500e-4f);
  p = S::fma(p, r, S::set1(1.3981999507e-3f));
  p = S::fma(p, r, S::set1(8.3334519073e-3f));
  p = S::fma(p, r, S::set1(4.1665795894e-2f));
  p = S::fma(p, r, S::set1(1.6666665459e-1f));
  p = S::fma(p, r, S::set1(5.0000001201e-1f));
  const V er = S::add(S::fma(p, S::mul(r, r), r), S::set1(1.0f));
  return S::select_lt(x, lowest, S::zero(), S::mul(er, S::pow2(n)));
}

// Φ(x) = ½·erfc(−x/√2), the standard normal CDF, with full relative precision in the
// negative tail (where ½(1 + erf) would cancel). For z ≥ 0, Numerical Recipes' Chebyshev fit
//   erfc(z) ≈ t·exp(−z² − 1.26551223 + t·(1.00002368 + … + t·0.17087277)), t = 1/(1 + z/2),
// has relative error < 1.2e-7; erfc(−z) = 2 − erfc(z) gives Φ(x) = 1 − ½erfc(x/√2) for x ≥ 0.
template <class S>
inline typename S::V normal_cdf(typename S::V x) {
  using V = typename S::V;
  const V z = S::mul(S::abs(x), S::set1(0.70710678118654752f));
  const V t = S::div(S::set1(1.0f), S::fma(z, S::set1(0.5f), S::set1(1.0f)));
  V p = S::set1(0.17087277f);
  p = S::fma(p, t, S::set1(-0.82215223f));
  p = S::fma(p, t, S::set1(1.48851587f));
  p = S::fma(p, t, S::set1(-1.13520398f));
  p = S::fma(p, t, S::set1(0.27886807f));
  p = S::fma(p, t, S::set1(-0.18628806f));
  p = S::fma(p, t, S::set1(0.09678418f));
  p = S::fma(p, t, S::set1(0.37409196f));
  p = S::fma(p, t, S::set1(1.00002368f));
  p = S::fma(p, t, S::set1(-1.26551223f));
  const V half_erfc = S::mul(S::mul(S::set1(0.5f), t), exp_approx<S>(S::sub(p, S::mul(z, z))));
  return S::select_lt(x, S::zero(), half_erfc, S::sub(S::set1(1.0f), half_erfc));
}

}  // namespace attend::kernels
