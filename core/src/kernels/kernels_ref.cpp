// The scalar reference: plain loops, one per formula, kept for good as the oracle that every
// SIMD table is tested against. It is also the table of last resort on CPUs without SIMD.
// Sums and transcendental functions are computed in double and rounded once, so the oracle is
// as close to the exact result as a float can be and the tests' tolerances measure the SIMD
// kernels' error alone.
#include <algorithm>
#include <cmath>
#include <limits>

#include "kernels/int8_rows.h"
#include "kernels/isa_tables.h"
#include "kernels/scratch.h"
#include "kernels/u8s8_shifted.h"

namespace attend::kernels {

namespace {

// c[i, j] = Σ_p a[i, p]·b[j, p] (+ bias[j]) (+ c[i, j])
void gemm_f32_nt(const float* a, int lda, const float* b, int ldb, const float* bias, float* c,
                 int ldc, int m, int n, int k, bool accumulate) {
  for (int i = 0; i < m; ++i) {
    for (int j = 0; j < n; ++j) {
      double sum = 0.0;
      for (int p = 0; p < k; ++p) sum += double{a[i * lda + p]} * b[j * ldb + p];
      if (bias != nullptr) sum += bias[j];
      if (accumulate) sum += c[i * ldc + j];
      c[i * ldc + j] = static_cast<float>(sum);
    }
  }
}

// c[i, j] = Σ_p a[i, p]·b[p, j] (+ c[i, j])
void gemm_f32_nn(const float* a, int lda, const float* b, int ldb, float* c, int ldc, int m,
                 int n, int k, bool accumulate) {
  for (int i = 0; i < m; ++i) {
    for (int j = 0; j < n; ++j) {
      double sum = 0.0;
      for (int p = 0; p < k; ++p) sum += double{a[i * lda + p]} * b[p * ldb + j];
      if (accumulate) sum += c[i * ldc + j];
      c[i * ldc + j] = static_cast<float>(sum);
    }
  }
}

// c[i, j] = (Σ_p a[i, p]·b[j, p])·b_scale[j] (+ bias[j]): the scale is applied once per
// output, after the integer-valued weights have been summed against the activations.
void gemm_i8w_nt(const float* a, int lda, const int8_t* b, int ldb, const float* b_scale,
                 const float* bias, float* c, int ldc, int m, int n, int k) {
  for (int i = 0; i < m; ++i) {
    for (int j = 0; j < n; ++j) {
      double sum = 0.0;
      for (int p = 0; p < k; ++p) sum += double{a[i * lda + p]} * b[j * ldb + p];
      sum *= b_scale[j];
      if (bias != nullptr) sum += bias[j];
      c[i * ldc + j] = static_cast<float>(sum);
    }
  }
}

// The reference reads no panels (panel_columns 0): the same sums from b.
void gemm_f32_nt_panels(const float* a, int lda, const float* b, int ldb, const float*, const float* bias,
                        float* c, int ldc, int m, int n, int k, bool accumulate) {
  gemm_f32_nt(a, lda, b, ldb, bias, c, ldc, m, n, k, accumulate);
}

void gemm_i8w_nt_panels(const float* a, int lda, const int8_t* b, int ldb, const int8_t*, const float* b_scale,
                        const float* bias, float* c, int ldc, int m, int n, int k) {
  gemm_i8w_nt(a, lda, b, ldb, b_scale, bias, c, ldc, m, n, k);
}

// Each row of a quantized (int8_rows.h), summed exactly against b in integers, then scaled
// in float in the order every table uses: sum·a_scale·b_scale (+ bias). Reads b, not the quads.
void gemm_i8i8_nt(const float* a, int lda, const int8_t* b, int ldb, const int8_t*, const int32_t*,
                  const float* b_scale, const float* bias, float* c, int ldc, int m, int n, int k) {
  if (m <= 0 || n <= 0) return;
  int8_t* qa = reinterpret_cast<int8_t*>(scratch_floats((static_cast<size_t>(k) + 3) / 4));  // one row
  for (int i = 0; i < m; ++i) {
    const float a_scale = quantize_row(a + static_cast<size_t>(i) * lda, k, k, qa);
    for (int j = 0; j < n; ++j) {
      int32_t sum = 0;
      for (int p = 0; p < k; ++p) sum += int32_t{qa[p]} * b[static_cast<size_t>(j) * ldb + p];
      float value = static_cast<float>(sum) * a_scale * b_scale[j];
      if (bias != nullptr) value += bias[j];
      c[static_cast<size_t>(i) * ldc + j] = value;
    }
  }
}

// intgemm's shifted int8 GEMM, step by step as kernels.h defines it (u8s8_shifted.h): each row
// of a quantized to bytes ua in [0, 254], each pair of products summed and saturated to int16,
// the pairs summed in int32, then one float multiply and one float add (this file is compiled
// with -ffp-contract=off: never fused).
void gemm_u8s8_shifted_nt(const float* a, int lda, float qa, const int8_t* b, int ldb, float unquant,
                          const float* bias, float* c, int ldc, int m, int n, int k) {
  if (m <= 0 || n <= 0) return;
  uint8_t* ua = reinterpret_cast<uint8_t*>(scratch_floats((static_cast<size_t>(k) + 3) / 4));  // one row
  for (int i = 0; i < m; ++i) {
    for (int p = 0; p < k; ++p) ua[p] = quantize_shifted(a[static_cast<size_t>(i) * lda + p], qa);
    for (int j = 0; j < n; ++j) {
      const int8_t* row = b + static_cast<size_t>(j) * ldb;
      int32_t sum = 0;
      for (int p = 0; p < k; p += 2) {
        int32_t pair = int32_t{ua[p]} * row[p];
        if (p + 1 < k) pair += int32_t{ua[p + 1]} * row[p + 1];
        sum += saturate_int16(pair);
      }
      const float scaled = static_cast<float>(sum) * unquant;
      c[static_cast<size_t>(i) * ldc + j] = scaled + bias[j];
    }
  }
}

// x[i] = exp(x[i] − max) / Σ_j exp(x[j] − max); subtracting the max keeps exp ≤ 1.
void softmax_f32(float* x, int n) {
  if (n <= 0) return;
  float max = -std::numeric_limits<float>::infinity();
  for (int i = 0; i < n; ++i) max = std::max(max, x[i]);
  double sum = 0.0;
  for (int i = 0; i < n; ++i) sum += std::exp(double{x[i]} - max);
  for (int i = 0; i < n; ++i) x[i] = static_cast<float>(std::exp(double{x[i]} - max) / sum);
}

// Σ exp(x[i] − shift)
float sum_exp_f32(const float* x, int n, float shift) {
  double sum = 0.0;
  for (int i = 0; i < n; ++i) sum += std::exp(double{x[i]} - shift);
  return static_cast<float>(sum);
}

// mean = Σx/n; var = Σ(x − mean)²/n (two passes, so a large mean does not cancel the
// variance away); y = (x − mean)/√(var + eps)·gamma + beta.
void layernorm_f32(const float* x, const float* gamma, const float* beta, float* y, int n,
                   float eps) {
  if (n <= 0) return;
  double sum = 0.0;
  for (int i = 0; i < n; ++i) sum += x[i];
  const double mean = sum / n;
  double squares = 0.0;
  for (int i = 0; i < n; ++i) squares += (x[i] - mean) * (x[i] - mean);
  const double rstd = 1.0 / std::sqrt(squares / n + eps);
  for (int i = 0; i < n; ++i) y[i] = static_cast<float>((x[i] - mean) * rstd * gamma[i] + beta[i]);
}

// max(x, 0)
void relu_f32(float* x, int n) {
  for (int i = 0; i < n; ++i) x[i] = x[i] > 0.0f ? x[i] : 0.0f;
}

// gelu(x) = x·Φ(x) = ½·x·erfc(−x/√2); erfc rather than 1 + erf keeps full relative precision
// for negative x, where 1 + erf cancels.
void gelu_f32(float* x, int n) {
  for (int i = 0; i < n; ++i) {
    const double v = x[i];
    x[i] = static_cast<float>(0.5 * v * std::erfc(-v * 0.70710678118654752440));
  }
}

// swish(x) = x·sigmoid(x) = x / (1 + exp(−x))
void swish_f32(float* x, int n) {
  for (int i = 0; i < n; ++i) {
    const double v = x[i];
    x[i] = static_cast<float>(v / (1.0 + std::exp(-v)));
  }
}

// y[i] += x[i]
void add_f32(float* y, const float* x, int n) {
  for (int i = 0; i < n; ++i) y[i] += x[i];
}

// y[i] = y[i]·alpha + x[i]·beta
void scale_add_f32(float* y, float alpha, const float* x, float beta, int n) {
  for (int i = 0; i < n; ++i) y[i] = y[i] * alpha + x[i] * beta;
}

// The first i with x[i] > t, or n
int first_above_f32(const float* x, int n, float t) {
  int i = 0;
  while (i < n && !(x[i] > t)) ++i;
  return i;
}

}  // namespace

const KernelTable& scalar_kernels() {
  static const KernelTable table{
      Isa::scalar,        gemm_f32_nt, gemm_f32_nn,   gemm_i8w_nt, /*panel_columns=*/0,
      gemm_f32_nt_panels, gemm_i8w_nt_panels,         gemm_i8i8_nt, gemm_u8s8_shifted_nt,
      softmax_f32,        sum_exp_f32,
      layernorm_f32,      relu_f32,    gelu_f32,      swish_f32,   add_f32,
      scale_add_f32,      first_above_f32,
  };
  return table;
}

}  // namespace attend::kernels
