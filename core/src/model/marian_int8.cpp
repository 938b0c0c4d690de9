#include "model/marian_int8.h"

#include <algorithm>
#include <cmath>

namespace attend {

float prepare_marian_rows(const int8_t* w, int rows, int in, const float* bias, float qa, float qb, float* prepared) {
  const float product = (127.0f / qa) * (127.0f / qb);
  const float u = (-1 * product) / 127.0f;  // wasm_intgemm_fallback.cpp int8PrepareBiasFallback
  for (int j = 0; j < rows; ++j) {
    int32_t sum = 0;
    for (int k = 0; k < in; ++k) sum += w[static_cast<size_t>(j) * in + k];
    const float shift = static_cast<float>(sum) * u;
    prepared[j] = bias ? shift + bias[j] : shift;
  }
  return 1.0f / (qa * qb);
}

float quantize_like_marian(const float* w, size_t count, int8_t* q) {
  float largest = 0.f;
  for (size_t i = 0; i < count; ++i) largest = std::max(largest, std::fabs(w[i]));
  const float qb = 127.0f / largest;
  for (size_t i = 0; i < count; ++i) {
    const float v = std::nearbyint(w[i] * qb);  // round half to even, as cvtps_epi32
    q[i] = static_cast<int8_t>(std::clamp(v, -127.f, 127.f));
  }
  return qb;
}

}  // namespace attend
