// The AVX2 + FMA vector traits (simd_common.h describes them): 8 floats per vector, 16 vector
// registers. In an anonymous namespace, so each file that includes it (kernels_avx2.cpp,
// kernels_avx2_i8i8.cpp; both compiled with -mavx2 -mfma) has its own internal-linkage copy.
#pragma once

#include <immintrin.h>

#include <cstdint>
#include <cstring>

namespace attend::kernels {

namespace {

struct Avx2 {
  using V = __m256;
  static constexpr int kLanes = 8;
  // Broadcast tile 6 × 16: 12 accumulators + 2 b vectors + 1 broadcast = 15 registers.
  static constexpr int kGemmRows = 6;
  static constexpr int kGemmVectors = 2;
  // Dot tiles: up to kDotRows rows of a × 4 rows of b (8 accumulators + 2 a + 1 b). Four rows
  // of b at a time stream faster from L2 than eight or sixteen, and their four sums reduce
  // together (sum_lanes4).
  static constexpr int kDotColumns = 4;
  static constexpr int kDotRows = 2;
  static constexpr int kDotMaxRows = 4;  // below this m, packing costs more than it saves

  static V zero() { return _mm256_setzero_ps(); }
  static V set1(float x) { return _mm256_set1_ps(x); }
  static V load(const float* p) { return _mm256_loadu_ps(p); }
  static void store(float* p, V v) { _mm256_storeu_ps(p, v); }

  // Lanes < count on: a window into -1 × 8 followed by 0 × 8.
  static __m256i mask(int count) {
    alignas(32) static const int32_t ones_then_zeros[16] = {-1, -1, -1, -1, -1, -1, -1, -1,
                                                            0,  0,  0,  0,  0,  0,  0,  0};
    return _mm256_loadu_si256(reinterpret_cast<const __m256i*>(ones_then_zeros + 8 - count));
  }
  // maskload does not touch memory of the masked-off lanes, so reading past the end is safe.
  static V load_partial(const float* p, int count, float fill) {
    const __m256i m = mask(count);
    return _mm256_blendv_ps(set1(fill), _mm256_maskload_ps(p, m), _mm256_castsi256_ps(m));
  }
  static void store_partial(float* p, V v, int count) { _mm256_maskstore_ps(p, mask(count), v); }

  static V widen_i8(__m128i bytes) { return _mm256_cvtepi32_ps(_mm256_cvtepi8_epi32(bytes)); }
  static V load_i8(const int8_t* p) {
    return widen_i8(_mm_loadl_epi64(reinterpret_cast<const __m128i*>(p)));
  }
  static V load_i8_partial(const int8_t* p, int count) {
    int64_t bytes = 0;
    std::memcpy(&bytes, p, static_cast<std::size_t>(count));
    return widen_i8(_mm_cvtsi64_si128(bytes));
  }

  static V add(V a, V b) { return _mm256_add_ps(a, b); }
  static V sub(V a, V b) { return _mm256_sub_ps(a, b); }
  static V mul(V a, V b) { return _mm256_mul_ps(a, b); }
  static V div(V a, V b) { return _mm256_div_ps(a, b); }
  static V min(V a, V b) { return _mm256_min_ps(a, b); }
  static V max(V a, V b) { return _mm256_max_ps(a, b); }
  static V fma(V a, V b, V c) { return _mm256_fmadd_ps(a, b, c); }  // a·b + c
  static V abs(V x) { return _mm256_andnot_ps(_mm256_set1_ps(-0.0f), x); }
  static V round(V x) { return _mm256_round_ps(x, _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC); }
  // 2ⁿ for integral n in [−126, 127]: n + 127 placed in the exponent field.
  static V pow2(V n) {
    const __m256i biased = _mm256_add_epi32(_mm256_cvtps_epi32(n), _mm256_set1_epi32(127));
    return _mm256_castsi256_ps(_mm256_slli_epi32(biased, 23));
  }
  // a < b ? if_true : if_false, lane-wise
  static V select_lt(V a, V b, V if_true, V if_false) {
    return _mm256_blendv_ps(if_false, if_true, _mm256_cmp_ps(a, b, _CMP_LT_OQ));
  }

  static bool any_lt(V a, V b) { return _mm256_movemask_ps(_mm256_cmp_ps(a, b, _CMP_LT_OQ)) != 0; }

  static float reduce_add(V v) {
    __m128 x = _mm_add_ps(_mm256_castps256_ps128(v), _mm256_extractf128_ps(v, 1));
    x = _mm_add_ps(x, _mm_movehl_ps(x, x));
    return _mm_cvtss_f32(_mm_add_ss(x, _mm_movehdup_ps(x)));
  }
  static float reduce_max(V v) {
    __m128 x = _mm_max_ps(_mm256_castps256_ps128(v), _mm256_extractf128_ps(v, 1));
    x = _mm_max_ps(x, _mm_movehl_ps(x, x));
    return _mm_cvtss_f32(_mm_max_ss(x, _mm_movehdup_ps(x)));
  }

  // Lanes 0..3 = the sums of the lanes of v[0..3]: interleave-and-add pairs, then pairs of
  // pairs, then add the two 128-bit halves.
  static V sum_lanes4(const V (&v)[4]) {
    const V p01 = _mm256_add_ps(_mm256_unpacklo_ps(v[0], v[1]), _mm256_unpackhi_ps(v[0], v[1]));
    const V p23 = _mm256_add_ps(_mm256_unpacklo_ps(v[2], v[3]), _mm256_unpackhi_ps(v[2], v[3]));
    const __m256d lo = _mm256_castps_pd(p01);
    const __m256d hi = _mm256_castps_pd(p23);
    const V q = _mm256_add_ps(_mm256_castpd_ps(_mm256_unpacklo_pd(lo, hi)),
                              _mm256_castpd_ps(_mm256_unpackhi_pd(lo, hi)));
    return _mm256_add_ps(q, _mm256_permute2f128_ps(q, q, 0x01));
  }

  // In-register 8×8 transpose: rows[i][j] ↔ rows[j][i]. Pairs of rows are interleaved,
  // then pairs of pairs, then the 128-bit halves swapped across.
  static void transpose(V (&rows)[8]) {
    V t[8];
    V s[8];
    for (int i = 0; i < 8; i += 2) {
      t[i] = _mm256_unpacklo_ps(rows[i], rows[i + 1]);
      t[i + 1] = _mm256_unpackhi_ps(rows[i], rows[i + 1]);
    }
    for (int i = 0; i < 8; i += 4) {
      s[i] = _mm256_shuffle_ps(t[i], t[i + 2], _MM_SHUFFLE(1, 0, 1, 0));
      s[i + 1] = _mm256_shuffle_ps(t[i], t[i + 2], _MM_SHUFFLE(3, 2, 3, 2));
      s[i + 2] = _mm256_shuffle_ps(t[i + 1], t[i + 3], _MM_SHUFFLE(1, 0, 1, 0));
      s[i + 3] = _mm256_shuffle_ps(t[i + 1], t[i + 3], _MM_SHUFFLE(3, 2, 3, 2));
    }
    for (int i = 0; i < 4; ++i) {
      rows[i] = _mm256_permute2f128_ps(s[i], s[i + 4], 0x20);
      rows[i + 4] = _mm256_permute2f128_ps(s[i], s[i + 4], 0x31);
    }
  }
};

}  // namespace

}  // namespace attend::kernels
