#include "model/marian_float.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>

namespace attend::marian {

namespace {

uint32_t bits_of(float x) {
  uint32_t b;
  std::memcpy(&b, &x, sizeof b);
  return b;
}

// sin and cos of |x| ≲ π/4 in double, rounded once (the kernels musl's sinf and cosf share with
// FreeBSD's: Taylor-like polynomials with minimax coefficients).
float sin_kernel(double x) {
  constexpr double s1 = -0x15555554cbac77.0p-55, s2 = 0x111110896efbb2.0p-59, s3 = -0x1a00f9e2cae774.0p-65,
                   s4 = 0x16cd878c3b46a7.0p-71;
  const double z = x * x, w = z * z, r = s3 + z * s4, s = z * x;
  return static_cast<float>((x + s * (s1 + z * s2)) + s * w * r);
}

float cos_kernel(double x) {
  constexpr double c0 = -0x1ffffffd0c5e81.0p-54, c1 = 0x155553e1053a42.0p-57, c2 = -0x16c087e80f1e27.0p-62,
                   c3 = 0x199342e0ee5069.0p-68;
  const double z = x * x, w = z * z, r = c2 + z * c3;
  return static_cast<float>(((1.0 + z * c0) + w * c1) + (w * z) * r);
}

// x = n·π/2 + y with |y| ≲ π/4, in double (π/2 in two parts), for |x| < 2^28·π/2; returns n.
int reduce_half_pi(float x, double* y) {
  constexpr double to_int = 1.5 / 2.220446049250313e-16, quarter_pi = 0x1.921fb6p-1,
                   two_over_pi = 6.36619772367581382433e-01, half_pi_1 = 1.57079631090164184570e+00,
                   half_pi_1t = 1.58932547735281966916e-08;
  double fn = static_cast<double>(x) * two_over_pi + to_int - to_int;
  int n = static_cast<int32_t>(fn);
  *y = x - fn * half_pi_1 - fn * half_pi_1t;
  if (*y < -quarter_pi) {
    --n, fn -= 1;
    *y = x - fn * half_pi_1 - fn * half_pi_1t;
  } else if (*y > quarter_pi) {
    ++n, fn += 1;
    *y = x - fn * half_pi_1 - fn * half_pi_1t;
  }
  return n;
}

constexpr double kHalfPi = 1.57079632679489661923;

// sinf and cosf as musl computes them (Emscripten's libc, Bergamot's): glibc's differ in the last
// bit on about 1.4% of Marian's position angles, which moves some int8 activations by a step.
// Checked against Emscripten's sinf and cosf on a million arguments.
float sinf_as_musl(float x) {
  const uint32_t ix = bits_of(x) & 0x7fffffff;
  const bool negative = bits_of(x) >> 31;
  if (ix <= 0x3f490fda) return ix < 0x39800000 ? x : sin_kernel(x);  // |x| ≲ π/4
  if (ix <= 0x407b53d1) {                                             // |x| ≲ 5π/4
    if (ix <= 0x4016cbe3) return negative ? -cos_kernel(x + kHalfPi) : cos_kernel(x - kHalfPi);
    return sin_kernel(negative ? -(x + 2 * kHalfPi) : -(x - 2 * kHalfPi));
  }
  if (ix <= 0x40e231d5) {  // |x| ≲ 9π/4
    if (ix <= 0x40afeddf) return negative ? cos_kernel(x + 3 * kHalfPi) : -cos_kernel(x - 3 * kHalfPi);
    return sin_kernel(negative ? x + 4 * kHalfPi : x - 4 * kHalfPi);
  }
  if (ix >= 0x7f800000 || ix >= 0x4dc90fdb) return std::sin(x);  // not finite, or beyond the reduction
  double y;
  switch (reduce_half_pi(x, &y) & 3) {
    case 0: return sin_kernel(y);
    case 1: return cos_kernel(y);
    case 2: return sin_kernel(-y);
    default: return -cos_kernel(y);
  }
}

float cosf_as_musl(float x) {
  const uint32_t ix = bits_of(x) & 0x7fffffff;
  const bool negative = bits_of(x) >> 31;
  if (ix <= 0x3f490fda) return ix < 0x39800000 ? 1.0f : cos_kernel(x);
  if (ix <= 0x407b53d1) {
    if (ix > 0x4016cbe3) return -cos_kernel(negative ? x + 2 * kHalfPi : x - 2 * kHalfPi);
    return negative ? sin_kernel(x + kHalfPi) : sin_kernel(kHalfPi - x);
  }
  if (ix <= 0x40e231d5) {
    if (ix > 0x40afeddf) return cos_kernel(negative ? x + 4 * kHalfPi : x - 4 * kHalfPi);
    return negative ? sin_kernel(-x - 3 * kHalfPi) : sin_kernel(x - 3 * kHalfPi);
  }
  if (ix >= 0x7f800000 || ix >= 0x4dc90fdb) return std::cos(x);
  double y;
  switch (reduce_half_pi(x, &y) & 3) {
    case 0: return cos_kernel(y);
    case 1: return sin_kernel(-y);
    case 2: return -cos_kernel(y);
    default: return sin_kernel(y);
  }
}

}  // namespace

std::vector<float> sinusoid_table(int max_positions, int d) {
  std::vector<float> table(static_cast<size_t>(max_positions) * d, 0.f);
  const float timescales = static_cast<float>(d) / 2;
  const float increment = std::log(10000.f) / (timescales - 1.f);
  for (int p = 0; p < max_positions; ++p) {
    float* row = table.data() + static_cast<size_t>(p) * d;
    for (int i = 0; i < timescales; ++i) {
      const float v = static_cast<float>(p) * std::exp(static_cast<float>(i) * -increment);
      row[i] = sinf_as_musl(v);
      row[static_cast<int>(timescales) + i] = cosf_as_musl(v);
    }
  }
  return table;
}

namespace {

// Four independent outputs at once, each lane computing exactly what the scalar rule computes for
// its output: the same operations in the same order, each rounded to float (no contraction: this
// file is compiled with -ffp-contract=off). GCC/Clang vector types: SSE2 natively, SIMD128 in
// WebAssembly's SIMD build, four scalar lanes elsewhere.
typedef float f32x4 __attribute__((vector_size(16)));
typedef int32_t i32x4 __attribute__((vector_size(16)));

f32x4 splat(float x) { return f32x4{x, x, x, x}; }

f32x4 load(const float* p) {
  f32x4 v;
  std::memcpy(&v, p, sizeof v);
  return v;
}

void store(float* p, f32x4 v) { std::memcpy(p, &v, sizeof v); }

// mask ? a : b, lane by lane (mask lanes all ones or all zeros, as comparisons make them).
f32x4 select(i32x4 mask, f32x4 a, f32x4 b) {
  return reinterpret_cast<f32x4>((reinterpret_cast<i32x4>(a) & mask) | (reinterpret_cast<i32x4>(b) & ~mask));
}

// std::max(a, b) lane by lane: (a < b) ? b : a.
f32x4 max_lanes(f32x4 a, f32x4 b) { return select(a < b, b, a); }

// Rows a, b, c, d of a 4×4 block become its columns.
void transpose(f32x4& a, f32x4& b, f32x4& c, f32x4& d) {
  const f32x4 ab_lo = __builtin_shufflevector(a, b, 0, 4, 1, 5), ab_hi = __builtin_shufflevector(a, b, 2, 6, 3, 7);
  const f32x4 cd_lo = __builtin_shufflevector(c, d, 0, 4, 1, 5), cd_hi = __builtin_shufflevector(c, d, 2, 6, 3, 7);
  a = __builtin_shufflevector(ab_lo, cd_lo, 0, 1, 4, 5);
  b = __builtin_shufflevector(ab_lo, cd_lo, 2, 3, 6, 7);
  c = __builtin_shufflevector(ab_hi, cd_hi, 0, 1, 4, 5);
  d = __builtin_shufflevector(ab_hi, cd_hi, 2, 3, 6, 7);
}

// sse_mathfun's exp_ps, four lanes (it is a four-lane algorithm): the steps of the scalar rule in
// docs/marian.md §8.3, each rounded to float as its SSE instructions round.
f32x4 exp_lanes(f32x4 x) {
  const f32x4 hi = splat(88.3762626647949f), lo = splat(-88.3762626647949f), one = splat(1.0f);
  x = select(hi < x, hi, x);  // std::min(x, hi)
  x = select(x < lo, lo, x);  // std::max(x, lo)
  f32x4 fx = x * splat(1.44269504088896341f);  // log2(e)
  fx = fx + splat(0.5f);
  f32x4 t = __builtin_convertvector(__builtin_convertvector(fx, i32x4), f32x4);  // cvttps: toward zero
  t = select(t > fx, t - one, t);                                                  // floor
  fx = t;
  x = x - fx * splat(0.693359375f);
  x = x - fx * splat(-2.12194440e-4f);
  const f32x4 z = x * x;
  f32x4 y = splat(1.9875691500E-4f);
  y = y * x + splat(1.3981999507E-3f);
  y = y * x + splat(8.3334519073E-3f);
  y = y * x + splat(4.1665795894E-2f);
  y = y * x + splat(1.6666665459E-1f);
  y = y * x + splat(5.0000001201E-1f);
  y = y * z + x;
  y = y + one;
  const i32x4 n = __builtin_convertvector(fx, i32x4) + 0x7f;
  return y * reinterpret_cast<f32x4>(n << 23);
}

// x[i] /= sum for i in [0, n).
void divide(float* x, int n, float sum) {
  const f32x4 s = splat(sum);
  int i = 0;
  for (; i + 4 <= n; i += 4) store(x + i, load(x + i) / s);
  for (; i < n; ++i) x[i] = x[i] / sum;
}

// Dot products of 4·G key rows (k, row stride ldk) with q, each over p = 0..head_dim−1 in order:
// dot = k[p]·q[p] + dot. Lane l of acc[g] is key 4g + l. Four products of a key are made at once
// (lanes p..p+3), then transposed so that each add takes one p for four keys.
template <int G>
void ordered_dots(const float* k, size_t ldk, const float* q, int head_dim, f32x4* acc) {
  for (int g = 0; g < G; ++g) acc[g] = splat(0.f);
  int p = 0;
  for (; p + 4 <= head_dim; p += 4) {
    const f32x4 qv = load(q + p);
    for (int g = 0; g < G; ++g) {
      const float* kg = k + 4 * g * ldk + p;
      f32x4 a = load(kg) * qv, b = load(kg + ldk) * qv, c = load(kg + 2 * ldk) * qv, d = load(kg + 3 * ldk) * qv;
      transpose(a, b, c, d);  // a: the products at p of keys 0..3; b at p + 1; ...
      acc[g] = a + acc[g];
      acc[g] = b + acc[g];
      acc[g] = c + acc[g];
      acc[g] = d + acc[g];
    }
  }
  for (; p < head_dim; ++p) {
    for (int g = 0; g < G; ++g) {
      const float* kg = k + 4 * g * ldk + p;
      acc[g] = f32x4{kg[0], kg[ldk], kg[2 * ldk], kg[3 * ldk]} * splat(q[p]) + acc[g];
    }
  }
}

// o[c] for 4·G columns c from column 0 of v (row stride ldv): Σ_j v[j][c]·w[j], over the keys j in
// order (acc = v[j][c]·w[j] + acc). Lane l of vector g is column 4g + l.
template <int G>
void ordered_weighted_sums(const float* v, size_t ldv, const float* w, int keys, float* o) {
  f32x4 acc[G];
  for (int g = 0; g < G; ++g) acc[g] = splat(0.f);
  for (int j = 0; j < keys; ++j) {
    const f32x4 wj = splat(w[j]);
    const float* vj = v + j * ldv;
    for (int g = 0; g < G; ++g) acc[g] = load(vj + 4 * g) * wj + acc[g];
  }
  for (int g = 0; g < G; ++g) store(o + 4 * g, acc[g]);
}

}  // namespace

float exp_ps(float x) { return exp_lanes(splat(x))[0]; }

void softmax(float* x, int n) {
  if (n <= 0) return;
  if (n % 4 == 0) {
    // Softmax<float32x4>: lane l holds x[i + l] for i = 0, 4, 8, ...
    f32x4 lane_max = load(x);
    for (int i = 4; i < n; i += 4) lane_max = max_lanes(lane_max, load(x + i));
    const float max = std::max(std::max(lane_max[0], lane_max[1]), std::max(lane_max[2], lane_max[3]));
    const f32x4 m = splat(max);
    f32x4 lane_sum = splat(0.f);
    for (int i = 0; i < n; i += 4) {
      const f32x4 e = exp_lanes(load(x + i) - m);
      lane_sum = lane_sum + e;
      store(x + i, e);
    }
    float sum = 0.f;
    for (int l = 0; l < 4; ++l) sum = sum + lane_sum[l];
    divide(x, n, sum);
  } else {
    float max = x[0];
    for (int i = 1; i < n; ++i) max = std::max(max, x[i]);
    float sum = 0.f;
    for (int i = 0; i < n; ++i) {
      const float e = std::exp(x[i] - max);
      sum = sum + e;
      x[i] = e;
    }
    divide(x, n, sum);
  }
}

void layernorm(const float* x, const float* gamma, const float* beta, float* y, int n, float eps) {
  if (n <= 0) return;
  const float cols = static_cast<float>(n);
  float sum = 0.f;
  for (int i = 0; i < n; ++i) sum = sum + x[i];
  const float mean = sum / cols;
  float squares = 0.f;
  for (int i = 0; i < n; ++i) {
    const float e = x[i] - mean;
    squares = squares + e * e;
  }
  const float sigma = std::sqrt(squares / cols + eps);
  // The sums above are sequential; the last pass is elementwise.
  const f32x4 m = splat(mean), s = splat(sigma);
  int i = 0;
  for (; i + 4 <= n; i += 4) store(y + i, load(gamma + i) * ((load(x + i) - m) / s) + load(beta + i));
  for (; i < n; ++i) y[i] = gamma[i] * ((x[i] - mean) / sigma) + beta[i];
}

void ssru_cell(const float* gates, const float* previous, int d, float* cell, float* out) {
  const float* candidate = gates;
  const float* forget = gates + d;
  if (d % 4 == 0) {  // HighwayForward's float32x4 path: g = e / (1 + e), e = exp_ps(f)
    const f32x4 zero = splat(0.f), one = splat(1.f);
    for (int i = 0; i < d; i += 4) {
      const f32x4 e = exp_lanes(load(forget + i));
      const f32x4 g = e / (one + e);
      const f32x4 c = g * (previous ? load(previous + i) : zero) + (one - g) * load(candidate + i);
      store(cell + i, c);
      store(out + i, select(c > zero, c, zero));
    }
    return;
  }
  for (int i = 0; i < d; ++i) {  // Ops<float>::sigmoid
    const float f = forget[i];
    const float g = f > 0 ? 1.f / (1.f + std::exp(-f)) : std::exp(f) / (1.f + std::exp(f));
    const float c = g * (previous ? previous[i] : 0.f) + (1.f - g) * candidate[i];
    cell[i] = c;
    out[i] = c > 0.f ? c : 0.f;
  }
}

void multi_head_attention(const AttentionInput& in, int heads, int head_dim, float scale, bool queries_as_batch,
                          const uint8_t* masked_heads, float* scores, float* out, int ldo,
                          const AttentionCapture* capture) {
  const int keys = in.keys, rows = in.rows;
  const size_t ldkv = static_cast<size_t>(in.ldkv);
  // Eigen's gebp (4-row lhs panels, 4-column rhs panels, as built for WebAssembly): Marian's
  // scores are C [keys × queries] = K_h · Q_hᵀ. A key row in a full 4-row panel, or a query
  // column outside the full 4-column panels, sums its products in order; a key row past the full
  // panels against a query in a full panel sums them in four accumulators (k mod 4), then
  // (c0 + c1) + (c2 + c3). Then the sum times the scale. The keys of the full panels are computed
  // four or eight at a time, one key a lane, each lane in the scalar order.
  const int full_key_rows = keys / 4 * 4;
  const int full_query_cols = queries_as_batch ? rows / 4 * 4 : 0;
  const f32x4 scale4 = splat(scale);
  for (int h = 0; h < heads; ++h) {
    float* out_h = out + h * head_dim;
    const float* k_h = in.k + h * head_dim;
    const float* v_h = in.v + h * head_dim;
    // A masked head gives zeros (its probabilities still captured when asked for).
    const bool masked = masked_heads && masked_heads[h];
    const auto zero_output = [&] {
      for (int r = 0; r < rows; ++r) std::memset(out_h + static_cast<size_t>(r) * ldo, 0, head_dim * sizeof(float));
    };
    if (masked && !capture) {
      zero_output();
      continue;
    }
    for (int r = 0; r < rows; ++r) {
      const float* q = in.q + static_cast<size_t>(r) * in.ldq + h * head_dim;
      float* s = scores + static_cast<size_t>(r) * keys;
      int j = 0;
      for (; j + 8 <= full_key_rows; j += 8) {
        f32x4 dots[2];
        ordered_dots<2>(k_h + j * ldkv, ldkv, q, head_dim, dots);
        store(s + j, dots[0] * scale4);
        store(s + j + 4, dots[1] * scale4);
      }
      for (; j < full_key_rows; j += 4) {
        f32x4 dots[1];
        ordered_dots<1>(k_h + j * ldkv, ldkv, q, head_dim, dots);
        store(s + j, dots[0] * scale4);
      }
      for (; j < keys; ++j) {  // past the full panels: up to three keys
        const float* kv = k_h + j * ldkv;
        float dot;
        if (r < full_query_cols) {
          float c[4] = {0.f, 0.f, 0.f, 0.f};
          const int end4 = head_dim / 4 * 4;
          int p = 0;
          for (; p < end4; p += 4)
            for (int m = 0; m < 4; ++m) c[m] = kv[p + m] * q[p + m] + c[m];
          dot = (c[0] + c[1]) + (c[2] + c[3]);
          for (; p < head_dim; ++p) dot = kv[p] * q[p] + dot;
        } else {
          dot = 0.f;
          for (int p = 0; p < head_dim; ++p) dot = kv[p] * q[p] + dot;
        }
        s[j] = dot * scale;
      }
      softmax(s, keys);
      if (capture) std::memcpy(capture->probs + h * capture->head_stride + r * capture->row_stride, s, keys * sizeof(float));
    }
    if (masked) {
      zero_output();
      continue;
    }
    // C [head_dim × queries] = V_hᵀ · Pᵀ: the rows of full 4-row panels (and every row of a query
    // outside the full 4-column panels) sum over the keys in order, computed 16 or 4 columns at a
    // time; the rest, past the full panels, in four accumulators (j mod 4), then (a0 + a1) + (a2 + a3).
    const int full_rows = head_dim / 4 * 4;
    for (int r = 0; r < rows; ++r) {
      const float* p = scores + static_cast<size_t>(r) * keys;
      float* o = out_h + static_cast<size_t>(r) * ldo;
      int c = 0;
      for (; c + 16 <= full_rows; c += 16) ordered_weighted_sums<4>(v_h + c, ldkv, p, keys, o + c);
      for (; c < full_rows; c += 4) ordered_weighted_sums<1>(v_h + c, ldkv, p, keys, o + c);
      for (; c < head_dim; ++c) {
        float acc = 0.f;
        if (r >= full_query_cols) {
          for (int j = 0; j < keys; ++j) acc = v_h[j * ldkv + c] * p[j] + acc;
        } else {
          float a[4] = {0.f, 0.f, 0.f, 0.f};
          const int end4 = keys / 4 * 4;
          int j = 0;
          for (; j < end4; j += 4)
            for (int m = 0; m < 4; ++m) a[m] = v_h[(j + m) * ldkv + c] * p[j + m] + a[m];
          acc = (a[0] + a[1]) + (a[2] + a[3]);
          for (; j < keys; ++j) acc = v_h[j * ldkv + c] * p[j] + acc;
        }
        o[c] = acc;
      }
    }
  }
}

}  // namespace attend::marian
