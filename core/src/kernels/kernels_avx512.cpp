// AVX-512 kernels (this file alone is compiled with -mavx512f/bw/dq/vl -mfma): 16 floats per
// vector, 32 vector registers, masked loads/stores for the tails. Member meanings as in
// kernels_avx2.cpp.
#include <immintrin.h>

#include "kernels/isa_tables.h"
#include "kernels/simd_table.h"

namespace attend::kernels {

namespace {

struct Avx512 {
  using V = __m512;
  static constexpr int kLanes = 16;
  // Broadcast tile 12 × 32: 24 accumulators + 2 b vectors + 1 broadcast = 27 registers.
  static constexpr int kGemmRows = 12;
  static constexpr int kGemmVectors = 2;
  static constexpr int kDotColumns = 4;
  static constexpr int kDotRows = 4;
  static constexpr int kDotMaxRows = 4;

  static __mmask16 mask(int count) { return static_cast<__mmask16>((1u << count) - 1); }

  static V zero() { return _mm512_setzero_ps(); }
  static V set1(float x) { return _mm512_set1_ps(x); }
  static V load(const float* p) { return _mm512_loadu_ps(p); }
  static void store(float* p, V v) { _mm512_storeu_ps(p, v); }
  // Masked-off lanes are not read (no fault past the end).
  static V load_partial(const float* p, int count, float fill) {
    return _mm512_mask_loadu_ps(set1(fill), mask(count), p);
  }
  static void store_partial(float* p, V v, int count) { _mm512_mask_storeu_ps(p, mask(count), v); }

  static V widen_i8(__m128i bytes) { return _mm512_cvtepi32_ps(_mm512_cvtepi8_epi32(bytes)); }
  static V load_i8(const int8_t* p) {
    return widen_i8(_mm_loadu_si128(reinterpret_cast<const __m128i*>(p)));
  }
  static V load_i8_partial(const int8_t* p, int count) {
    return widen_i8(_mm_maskz_loadu_epi8(mask(count), p));
  }

  static V add(V a, V b) { return _mm512_add_ps(a, b); }
  static V sub(V a, V b) { return _mm512_sub_ps(a, b); }
  static V mul(V a, V b) { return _mm512_mul_ps(a, b); }
  static V div(V a, V b) { return _mm512_div_ps(a, b); }
  static V min(V a, V b) { return _mm512_min_ps(a, b); }
  static V max(V a, V b) { return _mm512_max_ps(a, b); }
  static V fma(V a, V b, V c) { return _mm512_fmadd_ps(a, b, c); }
  static V abs(V x) { return _mm512_abs_ps(x); }
  static V round(V x) {
    return _mm512_roundscale_ps(x, _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC);
  }
  static V pow2(V n) {
    const __m512i biased = _mm512_add_epi32(_mm512_cvtps_epi32(n), _mm512_set1_epi32(127));
    return _mm512_castsi512_ps(_mm512_slli_epi32(biased, 23));
  }
  static V select_lt(V a, V b, V if_true, V if_false) {
    return _mm512_mask_blend_ps(_mm512_cmp_ps_mask(a, b, _CMP_LT_OQ), if_false, if_true);
  }

  static bool any_lt(V a, V b) { return _mm512_cmp_ps_mask(a, b, _CMP_LT_OQ) != 0; }

  static float reduce_add(V v) { return _mm512_reduce_add_ps(v); }
  static float reduce_max(V v) { return _mm512_reduce_max_ps(v); }

  // Lanes 0..3 = the sums of the lanes of v[0..3], for 4 vectors at once: interleave-and-add
  // pairs, then pairs of pairs (each 128-bit lane now holds its part of all four sums), then
  // add the four 128-bit lanes: 8 shuffles and 5 adds instead of four full reductions.
  static V sum_lanes4(const V (&v)[4]) {
    const V p01 = _mm512_add_ps(_mm512_unpacklo_ps(v[0], v[1]), _mm512_unpackhi_ps(v[0], v[1]));
    const V p23 = _mm512_add_ps(_mm512_unpacklo_ps(v[2], v[3]), _mm512_unpackhi_ps(v[2], v[3]));
    const __m512d lo = _mm512_castps_pd(p01);
    const __m512d hi = _mm512_castps_pd(p23);
    const V q = _mm512_add_ps(_mm512_castpd_ps(_mm512_unpacklo_pd(lo, hi)),
                              _mm512_castpd_ps(_mm512_unpackhi_pd(lo, hi)));
    const V h = _mm512_add_ps(q, _mm512_shuffle_f32x4(q, q, _MM_SHUFFLE(2, 3, 0, 1)));
    return _mm512_add_ps(h, _mm512_shuffle_f32x4(h, h, _MM_SHUFFLE(1, 0, 3, 2)));
  }

  // In-register 16×16 transpose. After interleaving pairs of rows and pairs of pairs, u[4g+c]
  // holds in its 128-bit lane l the elements (rows 4g..4g+3, column 4l+c); two rounds of
  // 128-bit lane shuffles then gather lane l of u[c], u[4+c], u[8+c], u[12+c] into row 4l+c.
  static void transpose(V (&rows)[16]) {
    V t[16];
    V u[16];
    for (int i = 0; i < 16; i += 2) {
      t[i] = _mm512_unpacklo_ps(rows[i], rows[i + 1]);
      t[i + 1] = _mm512_unpackhi_ps(rows[i], rows[i + 1]);
    }
    for (int i = 0; i < 16; i += 4) {
      u[i] = _mm512_shuffle_ps(t[i], t[i + 2], _MM_SHUFFLE(1, 0, 1, 0));
      u[i + 1] = _mm512_shuffle_ps(t[i], t[i + 2], _MM_SHUFFLE(3, 2, 3, 2));
      u[i + 2] = _mm512_shuffle_ps(t[i + 1], t[i + 3], _MM_SHUFFLE(1, 0, 1, 0));
      u[i + 3] = _mm512_shuffle_ps(t[i + 1], t[i + 3], _MM_SHUFFLE(3, 2, 3, 2));
    }
    for (int c = 0; c < 4; ++c) {
      const V even01 = _mm512_shuffle_f32x4(u[c], u[4 + c], _MM_SHUFFLE(2, 0, 2, 0));
      const V odd01 = _mm512_shuffle_f32x4(u[c], u[4 + c], _MM_SHUFFLE(3, 1, 3, 1));
      const V even23 = _mm512_shuffle_f32x4(u[8 + c], u[12 + c], _MM_SHUFFLE(2, 0, 2, 0));
      const V odd23 = _mm512_shuffle_f32x4(u[8 + c], u[12 + c], _MM_SHUFFLE(3, 1, 3, 1));
      rows[c] = _mm512_shuffle_f32x4(even01, even23, _MM_SHUFFLE(2, 0, 2, 0));
      rows[8 + c] = _mm512_shuffle_f32x4(even01, even23, _MM_SHUFFLE(3, 1, 3, 1));
      rows[4 + c] = _mm512_shuffle_f32x4(odd01, odd23, _MM_SHUFFLE(2, 0, 2, 0));
      rows[12 + c] = _mm512_shuffle_f32x4(odd01, odd23, _MM_SHUFFLE(3, 1, 3, 1));
    }
  }
};

}  // namespace

// Built on first use, after dispatch has checked the CPU runs AVX-512.
const KernelTable& avx512_kernels() {
  static const KernelTable table = [] {
    KernelTable t = simd::make_table<Avx512>(Isa::avx512);
    // Without VNNI, the AVX2 kernel (every AVX-512 CPU runs AVX2).
    t.gemm_i8i8_nt = __builtin_cpu_supports("avx512vnni") ? gemm_i8i8_nt_avx512_vnni : gemm_i8i8_nt_avx2;
    t.gemm_u8s8_shifted_nt =
        __builtin_cpu_supports("avx512vnni") ? gemm_u8s8_shifted_nt_avx512_vnni : gemm_u8s8_shifted_nt_avx512;
    return t;
  }();
  return table;
}

}  // namespace attend::kernels
