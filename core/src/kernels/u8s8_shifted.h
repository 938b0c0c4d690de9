// The steps of gemm_u8s8_shifted_nt (kernels.h) one value at a time, as intgemm's shifted int8
// path computes them (Int8Shift::PrepareA = QuantizeU, then Multiply8Shift, then the
// UnquantizeAndAddBiasAndWrite callback): the scalar table's definition, and the SIMD tables'
// quantization tails and oracle where they want one.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>

namespace attend::kernels {

// x86's cvtps2dq under the default MXCSR: round to nearest, ties to even; NaN and every value
// outside [-2^31, 2^31) give the "integer indefinite" INT32_MIN. (A float below 2^31 is at most
// 2^31 - 128, an integer, so nearbyint of an in-range value stays in range.)
inline int32_t cvtps_epi32(float x) {
  if (!(x >= -2147483648.0f && x < 2147483648.0f)) return INT32_MIN;
  return static_cast<int32_t>(std::nearbyint(x));
}

// One activation as QuantizeU makes it: cvtps_epi32(fl(a·qa)), saturated to int8 (packs_epi32
// to int16 then packs_epi16 to int8: together, a clamp to [-128, 127]), -128 raised to -127,
// then + 127: an unsigned byte in [0, 254]. A huge positive value, +inf or NaN gives 0.
inline uint8_t quantize_shifted(float a, float qa) {
  const float x = a * qa;
  const int32_t q = std::clamp(cvtps_epi32(x), -127, 127);
  return static_cast<uint8_t>(q + 127);
}

// What pmaddubsw does with the exact sum of a pair of products: saturates it to int16.
inline int32_t saturate_int16(int32_t x) { return std::clamp(x, -32768, 32767); }

}  // namespace attend::kernels
