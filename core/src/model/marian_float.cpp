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

float exp_ps(float x) {
  // The steps of sse_mathfun's exp_ps, each rounded to float as its SSE instructions round.
  x = std::min(x, 88.3762626647949f);
  x = std::max(x, -88.3762626647949f);
  float fx = x * 1.44269504088896341f;  // log2(e)
  fx = fx + 0.5f;
  float t = static_cast<float>(static_cast<int32_t>(fx));  // cvttps: toward zero
  if (t > fx) t = t - 1.0f;                                  // floor
  fx = t;
  x = x - fx * 0.693359375f;
  x = x - fx * -2.12194440e-4f;
  const float z = x * x;
  float y = 1.9875691500E-4f;
  y = y * x + 1.3981999507E-3f;
  y = y * x + 8.3334519073E-3f;
  y = y * x + 4.1665795894E-2f;
  y = y * x + 1.6666665459E-1f;
  y = y * x + 5.0000001201E-1f;
  y = y * z + x;
  y = y + 1.0f;
  const int32_t n = static_cast<int32_t>(fx) + 0x7f;
  uint32_t bits = static_cast<uint32_t>(n) << 23;
  float pow2n;
  std::memcpy(&pow2n, &bits, sizeof pow2n);
  return y * pow2n;
}

void softmax(float* x, int n) {
  if (n <= 0) return;
  if (n % 4 == 0) {
    float lane_max[4] = {x[0], x[1], x[2], x[3]};
    for (int i = 4; i < n; i += 4)
      for (int l = 0; l < 4; ++l) lane_max[l] = std::max(lane_max[l], x[i + l]);
    const float max = std::max(std::max(lane_max[0], lane_max[1]), std::max(lane_max[2], lane_max[3]));
    float lane_sum[4] = {0.f, 0.f, 0.f, 0.f};
    for (int i = 0; i < n; i += 4) {
      for (int l = 0; l < 4; ++l) {
        const float e = exp_ps(x[i + l] - max);
        lane_sum[l] = lane_sum[l] + e;
        x[i + l] = e;
      }
    }
    float sum = 0.f;
    for (int l = 0; l < 4; ++l) sum = sum + lane_sum[l];
    for (int i = 0; i < n; ++i) x[i] = x[i] / sum;
  } else {
    float max = x[0];
    for (int i = 1; i < n; ++i) max = std::max(max, x[i]);
    float sum = 0.f;
    for (int i = 0; i < n; ++i) {
      const float e = std::exp(x[i] - max);
      sum = sum + e;
      x[i] = e;
    }
    for (int i = 0; i < n; ++i) x[i] = x[i] / sum;
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
  for (int i = 0; i < n; ++i) y[i] = gamma[i] * ((x[i] - mean) / sigma) + beta[i];
}

void ssru_cell(const float* gates, const float* previous, int d, float* cell, float* out) {
  const float* candidate = gates;
  const float* forget = gates + d;
  const bool vector = d % 4 == 0;
  for (int i = 0; i < d; ++i) {
    float g;
    if (vector) {
      const float e = exp_ps(forget[i]);
      g = e / (1.f + e);
    } else {
      const float f = forget[i];
      g = f > 0 ? 1.f / (1.f + std::exp(-f)) : std::exp(f) / (1.f + std::exp(f));
    }
    const float c = g * (previous ? previous[i] : 0.f) + (1.f - g) * candidate[i];
    cell[i] = c;
    out[i] = c > 0.f ? c : 0.f;
  }
}

void multi_head_attention(const AttentionInput& in, int heads, int head_dim, float scale, bool queries_as_batch,
                          const uint8_t* masked_heads, float* scores, float* out, int ldo,
                          const AttentionCapture* capture) {
  const int keys = in.keys, rows = in.rows;
  // Eigen's gebp (4-row lhs panels, 4-column rhs panels, as built for WebAssembly): Marian's
  // scores are C [keys × queries] = K_h · Q_hᵀ. A key row in a full 4-row panel, or a query
  // column outside the full 4-column panels, sums its products in order; a key row past the full
  // panels against a query in a full panel sums them in four accumulators (k mod 4), then
  // (c0 + c1) + (c2 + c3). Then the sum times the scale.
  const int full_key_rows = keys / 4 * 4;
  const int full_query_cols = queries_as_batch ? rows / 4 * 4 : 0;
  for (int h = 0; h < heads; ++h) {
    float* out_h = out + h * head_dim;
    const bool masked = masked_heads && masked_heads[h];
    if (masked && !capture) {
      for (int r = 0; r < rows; ++r) std::memset(out_h + static_cast<size_t>(r) * ldo, 0, head_dim * sizeof(float));
      continue;
    }
    for (int r = 0; r < rows; ++r) {
      const float* q = in.q + static_cast<size_t>(r) * in.ldq + h * head_dim;
      float* s = scores + static_cast<size_t>(r) * keys;
      for (int j = 0; j < keys; ++j) {
        const float* kv = in.k + static_cast<size_t>(j) * in.ldkv + h * head_dim;
        float dot;
        if (j >= full_key_rows && r < full_query_cols) {
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
      for (int r = 0; r < rows; ++r) std::memset(out_h + static_cast<size_t>(r) * ldo, 0, head_dim * sizeof(float));
      continue;
    }
    // C [head_dim × queries] = V_hᵀ · Pᵀ: head_dim (a multiple of 4 here) rows in full panels, so
    // every output sums over the keys in order.
    for (int r = 0; r < rows; ++r) {
      const float* p = scores + static_cast<size_t>(r) * keys;
      float* o = out_h + static_cast<size_t>(r) * ldo;
      const int full_rows = head_dim / 4 * 4;
      for (int c = 0; c < head_dim; ++c) {
        float acc = 0.f;
        if (c < full_rows || r >= full_query_cols) {
          for (int j = 0; j < keys; ++j) acc = in.v[static_cast<size_t>(j) * in.ldkv + h * head_dim + c] * p[j] + acc;
        } else {
          float a[4] = {0.f, 0.f, 0.f, 0.f};
          const int end4 = keys / 4 * 4;
          int j = 0;
          for (; j < end4; j += 4)
            for (int m = 0; m < 4; ++m) a[m] = in.v[static_cast<size_t>(j + m) * in.ldkv + h * head_dim + c] * p[j + m] + a[m];
          acc = (a[0] + a[1]) + (a[2] + a[3]);
          for (; j < keys; ++j) acc = in.v[static_cast<size_t>(j) * in.ldkv + h * head_dim + c] * p[j] + acc;
        }
        o[c] = acc;
      }
    }
  }
}

}  // namespace attend::marian
