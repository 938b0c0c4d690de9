// How gemm_i8i8_nt quantizes a row of activations (kernels.h), shared by every table so that
// each computes the same integers: qa = a·inv rounded to nearest even, c = sum·scale·b_scale.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>

namespace attend::kernels {

struct RowQuantization {
  float inv;    // 127 / max|a|: multiplies a into [-127, 127]
  float scale;  // max|a| / 127: multiplies the integer sums back
};

inline RowQuantization row_quantization(float max_abs) {
  if (!(max_abs > 0.0f)) return {0.0f, 0.0f};  // a row of zeros: every qa and every output 0
  return {127.0f / max_abs, max_abs / 127.0f};
}

// qa for one value of a row quantized with `inv` (clamped first: NaN-free and in range).
inline int8_t quantize(float x, float inv) {
  return static_cast<int8_t>(std::nearbyint(std::fmax(-127.0f, std::fmin(127.0f, x * inv))));
}

// out[0..kq) = qa of row[0..k) (0 past k, for kq ≥ k); returns the row's a_scale.
inline float quantize_row(const float* row, int k, int kq, int8_t* out) {
  float max_abs = 0.0f;
  for (int p = 0; p < k; ++p) max_abs = std::max(max_abs, std::fabs(row[p]));
  const RowQuantization q = row_quantization(max_abs);
  for (int p = 0; p < kq; ++p) out[p] = p < k ? quantize(row[p], q.inv) : int8_t{0};
  return q.scale;
}

}  // namespace attend::kernels
