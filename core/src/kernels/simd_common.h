// Building blocks shared by the SIMD kernels of every ISA. Everything here is a template on
// the ISA's vector traits `S`, a struct in an anonymous namespace of its kernels_<isa>.cpp
// (AVX2's in avx2_traits.h, included by its two files), so each ISA file instantiates its own
// internal-linkage copy compiled with its own flags: no inline function is shared between
// translation units built for different CPUs.
//
// S provides: `V` (a vector of kLanes floats); the tile sizes kGemmRows, kGemmVectors,
// kDotRows, kDotColumns, kDotMaxRows (simd_gemm.h); zero, set1, load, store (unaligned),
// load_partial(p, count, fill) and store_partial(p, v, count) that touch only `count` floats,
// load_i8 / load_i8_partial (int8 widened to f32); add, sub, mul, div, min, max, abs,
// fma(a, b, c) = a·b + c, round (to nearest), pow2(n) = 2ⁿ for integral n,
// select_lt(a, b, t, f) = a < b ? t : f; any_lt(a, b) = some lane a < b (false for NaN);
// reduce_add, reduce_max (to a float);
// sum_lanes4(v[4]) (lanes 0..3 = the four vectors' sums); transpose(v[kLanes]).
#pragma once

#include <cstddef>
#include <cstdint>

// Full unrolling of the small fixed-size loops over a register tile; without it the
// accumulators would live in memory.
#define ATTEND_UNROLL _Pragma("GCC unroll 32")

namespace attend::kernels {

// Loads/stores `count` (1..kLanes) values; lanes past `count` read as `fill`.
template <class S>
inline typename S::V load_n(const float* p, int count, float fill = 0.0f) {
  return count == S::kLanes ? S::load(p) : S::load_partial(p, count, fill);
}

template <class S>
inline void store_n(float* p, typename S::V v, int count) {
  if (count == S::kLanes) {
    S::store(p, v);
  } else {
    S::store_partial(p, v, count);
  }
}

// Weights may be f32 or int8; both load as f32 vectors, int8 widened exactly.
template <class S>
inline typename S::V load_weights_n(const float* p, int count) {
  return load_n<S>(p, count);
}

template <class S>
inline typename S::V load_weights_n(const int8_t* p, int count) {
  return count == S::kLanes ? S::load_i8(p) : S::load_i8_partial(p, count);
}

// Calls f(offset, count) for every kLanes-wide chunk of [0, n), the last one partial. The
// full chunks see the constant count kLanes, so their loads compile to plain loads.
template <class S, class F>
inline void for_each_chunk(int n, F&& f) {
  int i = 0;
  for (; i + S::kLanes <= n; i += S::kLanes) f(i, S::kLanes);
  if (i < n) f(i, n - i);
}

}  // namespace attend::kernels
