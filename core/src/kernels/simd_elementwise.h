// Softmax, layernorm, activations and vector adds for any SIMD ISA `S`. Every kernel walks
// its row in kLanes-wide chunks with one partial chunk at the end (for_each_chunk), so the
// tail runs the same vector math as the body.
#pragma once

#include <algorithm>
#include <cmath>
#include <limits>

#include "kernels/simd_math.h"

namespace attend::kernels::simd {

// x[i] = exp(x[i] − max) / Σ_j exp(x[j] − max); three passes (max, exp and sum, scale).
// The tail's padding lanes read −∞, which is neutral for max and exps to 0 for the sum.
template <class S>
void softmax_f32(float* x, int n) {
  using V = typename S::V;
  if (n <= 0) return;
  const float minus_inf = -std::numeric_limits<float>::infinity();
  V vmax = S::set1(minus_inf);
  for_each_chunk<S>(n, [&](int i, int count) {
    vmax = S::max(vmax, load_n<S>(x + i, count, minus_inf));
  });
  const V max = S::set1(S::reduce_max(vmax));
  V vsum = S::zero();
  for_each_chunk<S>(n, [&](int i, int count) {
    const V e = exp_approx<S>(S::sub(load_n<S>(x + i, count, minus_inf), max));
    vsum = S::add(vsum, e);
    store_n<S>(x + i, e, count);
  });
  const V inv_sum = S::set1(1.0f / S::reduce_add(vsum));
  for_each_chunk<S>(n, [&](int i, int count) {
    store_n<S>(x + i, S::mul(load_n<S>(x + i, count), inv_sum), count);
  });
}

// Σ exp(x[i] − shift) in one pass; the tail's padding lanes read −∞, which exps to 0.
template <class S>
float sum_exp_f32(const float* x, int n, float shift) {
  using V = typename S::V;
  const float minus_inf = -std::numeric_limits<float>::infinity();
  const V s = S::set1(shift);
  V vsum = S::zero();
  for_each_chunk<S>(n, [&](int i, int count) {
    vsum = S::add(vsum, exp_approx<S>(S::sub(load_n<S>(x + i, count, minus_inf), s)));
  });
  return S::reduce_add(vsum);
}

// The first i with x[i] > t, or n: a vector compare per kLanes values, then the lanes of the one
// that holds it.
template <class S>
int first_above_f32(const float* x, int n, float t) {
  const typename S::V threshold = S::set1(t);
  int i = 0;
  while (i + S::kLanes <= n && !S::any_lt(threshold, S::load(x + i))) i += S::kLanes;
  while (i < n && !(x[i] > t)) ++i;
  return i;
}

// mean = Σx/n; var = Σ(x − mean)²/n; y = (x − mean)/√(var + eps)·gamma + beta.
// The statistics take the corrected two-pass form (Chan, Golub & LeVeque 1983): with
// m₀ = Σx/n and d = x − m₀, mean = m₀ + Σd/n and var = (Σd² − (Σd)²/n)/n, so neither a large
// mean nor the rounding of m₀ (a float sum of n values) leaks into the result. The tail of the
// second pass pads with m₀ itself, which adds d = 0.
template <class S>
void layernorm_f32(const float* x, const float* gamma, const float* beta, float* y, int n,
                   float eps) {
  using V = typename S::V;
  if (n <= 0) return;
  V vsum = S::zero();
  for_each_chunk<S>(n, [&](int i, int count) { vsum = S::add(vsum, load_n<S>(x + i, count)); });
  const float size = static_cast<float>(n);
  const float rough_mean = S::reduce_add(vsum) / size;
  const V vrough_mean = S::set1(rough_mean);
  V vdiffs = S::zero();
  V vsquares = S::zero();
  for_each_chunk<S>(n, [&](int i, int count) {
    const V d = S::sub(load_n<S>(x + i, count, rough_mean), vrough_mean);
    vdiffs = S::add(vdiffs, d);
    vsquares = S::fma(d, d, vsquares);
  });
  const float diffs = S::reduce_add(vdiffs);
  const float mean = rough_mean + diffs / size;
  const float var = std::max(0.0f, (S::reduce_add(vsquares) - diffs * diffs / size) / size);
  const V vmean = S::set1(mean);
  const V rstd = S::set1(1.0f / std::sqrt(var + eps));
  for_each_chunk<S>(n, [&](int i, int count) {
    const V normed = S::mul(S::sub(load_n<S>(x + i, count), vmean), rstd);
    store_n<S>(y + i, S::fma(normed, load_n<S>(gamma + i, count), load_n<S>(beta + i, count)),
               count);
  });
}

// x[i] = f(x[i]) in place.
template <class S, class F>
inline void map_inplace(float* x, int n, F&& f) {
  for_each_chunk<S>(n, [&](int i, int count) { store_n<S>(x + i, f(load_n<S>(x + i, count)), count); });
}

// max(x, 0)
template <class S>
void relu_f32(float* x, int n) {
  map_inplace<S>(x, n, [](typename S::V v) { return S::max(v, S::zero()); });
}

// gelu(x) = x·Φ(x), the exact (erf) form.
template <class S>
void gelu_f32(float* x, int n) {
  map_inplace<S>(x, n, [](typename S::V v) { return S::mul(v, normal_cdf<S>(v)); });
}

// swish(x) = x / (1 + exp(−x))
template <class S>
void swish_f32(float* x, int n) {
  map_inplace<S>(x, n, [](typename S::V v) {
    const typename S::V one = S::set1(1.0f);
    return S::div(v, S::add(one, exp_approx<S>(S::sub(S::zero(), v))));
  });
}

// y[i] = y[i]·alpha + x[i]·beta; add_f32 is the case alpha = beta = 1 without the multiplies.
template <class S, class F>
inline void combine_inplace(float* y, const float* x, int n, F&& f) {
  for_each_chunk<S>(n, [&](int i, int count) {
    store_n<S>(y + i, f(load_n<S>(y + i, count), load_n<S>(x + i, count)), count);
  });
}

template <class S>
void add_f32(float* y, const float* x, int n) {
  combine_inplace<S>(y, x, n, [](typename S::V yv, typename S::V xv) { return S::add(yv, xv); });
}

template <class S>
void scale_add_f32(float* y, float alpha, const float* x, float beta, int n) {
  const typename S::V va = S::set1(alpha);
  const typename S::V vb = S::set1(beta);
  combine_inplace<S>(y, x, n, [&](typename S::V yv, typename S::V xv) {
    return S::fma(xv, vb, S::mul(yv, va));
  });
}

}  // namespace attend::kernels::simd
