// The oracle itself, against values computed by hand (or by PyTorch, as noted).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <vector>

#include "kernels/kernels.h"

namespace attend::kernels::testing {
namespace {

const KernelTable& ref() { return *kernels_for(Isa::scalar); }

TEST(KernelsReferenceTest, GemmNtByHand) {
  // a = [[1, 2], [3, 4]], b = [[5, 6], [7, 8], [9, 10]] (nn.Linear layout), bias = [1, 0, −1]
  const float a[] = {1, 2, 3, 4};
  const float b[] = {5, 6, 7, 8, 9, 10};
  const float bias[] = {1, 0, -1};
  float c[6] = {};
  ref().gemm_f32_nt(a, 2, b, 2, bias, c, 3, 2, 3, 2, false);
  const float want[] = {18, 23, 28, 40, 53, 66};
  for (int i = 0; i < 6; ++i) EXPECT_FLOAT_EQ(c[i], want[i]) << i;
  ref().gemm_f32_nt(a, 2, b, 2, nullptr, c, 3, 2, 3, 2, true);  // c += a·bᵀ
  const float twice[] = {35, 46, 57, 79, 106, 133};
  for (int i = 0; i < 6; ++i) EXPECT_FLOAT_EQ(c[i], twice[i]) << i;
}

TEST(KernelsReferenceTest, GemmNnByHand) {
  // [[1, 2]] · [[3, 4], [5, 6]] = [[13, 16]]
  const float a[] = {1, 2};
  const float b[] = {3, 4, 5, 6};
  float c[2] = {};
  ref().gemm_f32_nn(a, 2, b, 2, c, 2, 1, 2, 2, false);
  EXPECT_FLOAT_EQ(c[0], 13);
  EXPECT_FLOAT_EQ(c[1], 16);
}

TEST(KernelsReferenceTest, GemmI8wScalesPerRow) {
  // w = diag(scale)·b: rows [2, −1]·0.5 and [127, −128]·0.01; x = [1, 3]
  const float a[] = {1, 3};
  const int8_t b[] = {2, -1, 127, -128};
  const float scale[] = {0.5f, 0.01f};
  const float bias[] = {0.25f, 0};
  float c[2] = {};
  ref().gemm_i8w_nt(a, 2, b, 2, scale, bias, c, 2, 1, 2, 2);
  EXPECT_FLOAT_EQ(c[0], -0.5f + 0.25f);
  EXPECT_FLOAT_EQ(c[1], (127 - 384) * 0.01f);
}

TEST(KernelsReferenceTest, GemmI8i8QuantizesEachRowByHand) {
  // Row 0: max 1, so qa = [127, −64 (−63.5 to even), 32 (31.75), 0]; against b = [1, 2, 3, 4]
  // that sums to 127 − 128 + 96 = 95. Row 1: zeros, so the bias alone.
  const float a[] = {1.0f, -0.5f, 0.25f, 0.0f, 0, 0, 0, 0};
  const int8_t b[] = {1, 2, 3, 4};
  const float scale[] = {0.5f};
  const float bias[] = {1.0f};
  float c[2] = {};
  ref().gemm_i8i8_nt(a, 4, b, 4, nullptr, nullptr, scale, bias, c, 1, 2, 1, 4);
  EXPECT_EQ(c[0], 95.0f * (1.0f / 127.0f) * 0.5f + 1.0f);
  EXPECT_EQ(c[1], 1.0f);
}

// Against the f32 sum with the int8 weights: each qa is within half a step (a_scale / 2) of
// a·127/max, so |c − exact| ≤ a_scale/2 · Σ_p |b_scale·b[j, p]| (+ float rounding).
TEST(KernelsReferenceTest, GemmI8i8WithinHalfAStepOfTheWeightOnlySum) {
  const int m = 3, n = 5, k = 64;
  std::vector<float> a(m * k), scale(n, 0.01f), exact(m * n), c(m * n);
  std::vector<int8_t> b(n * k);
  for (int i = 0; i < m * k; ++i) a[i] = std::sin(0.37f * i) * (1 + i % 3);
  for (int i = 0; i < n * k; ++i) b[i] = static_cast<int8_t>((i * 37) % 255 - 127);
  ref().gemm_i8w_nt(a.data(), k, b.data(), k, scale.data(), nullptr, exact.data(), n, m, n, k);
  ref().gemm_i8i8_nt(a.data(), k, b.data(), k, nullptr, nullptr, scale.data(), nullptr, c.data(), n, m, n, k);
  for (int i = 0; i < m; ++i) {
    float max_abs = 0;
    for (int p = 0; p < k; ++p) max_abs = std::max(max_abs, std::fabs(a[i * k + p]));
    for (int j = 0; j < n; ++j) {
      float weights = 0;
      for (int p = 0; p < k; ++p) weights += std::fabs(scale[j] * b[j * k + p]);
      const float bound = max_abs / 127 / 2 * weights * 1.001f;
      EXPECT_LE(std::fabs(c[i * n + j] - exact[i * n + j]), bound) << "row " << i << " column " << j;
      EXPECT_NE(c[i * n + j], exact[i * n + j]);  // it did quantize
    }
  }
}

// gemm_u8s8_shifted_nt from kernels.h's definition, written apart from the kernels' code: ua as
// given (worked out by hand below), pair sums in int64 clamped to int16, then the float epilogue
// as two separate roundings.
std::vector<float> shifted_by_definition(const std::vector<int>& ua, int m, const std::vector<int8_t>& b, int n, int k,
                                         float unquant, const std::vector<float>& bias) {
  std::vector<float> c(static_cast<std::size_t>(m) * n);
  for (int i = 0; i < m; ++i) {
    for (int j = 0; j < n; ++j) {
      int64_t sum = 0;
      for (int p = 0; p < k; p += 2) {
        int64_t pair = int64_t{ua[i * k + p]} * b[j * k + p];
        if (p + 1 < k) pair += int64_t{ua[i * k + p + 1]} * b[j * k + p + 1];
        sum += std::min<int64_t>(32767, std::max<int64_t>(-32768, pair));
      }
      volatile float scaled = static_cast<float>(sum) * unquant;  // rounded here, not fused
      c[i * n + j] = scaled + bias[j];
    }
  }
  return c;
}

TEST(KernelsReferenceTest, ShiftedInt8SaturatesPairsByHand) {
  // qa = 2: a·qa = [127, 127.5, 0.5, 1.5, -0.5, 2.5, 200, -200] rounds (ties to even) to
  // [127, 128, 0, 2, -0, 2, 200, -200], clamps to [-127, 127] and shifts by 127 to
  // ua = [254, 254, 127, 129, 127, 129, 254, 0].
  const int k = 8, n = 3;
  const float a[] = {63.5f, 63.75f, 0.25f, 0.75f, -0.25f, 1.25f, 100.0f, -100.0f};
  const std::vector<int> ua = {254, 254, 127, 129, 127, 129, 254, 0};
  const std::vector<int8_t> b = {127,  127,  1, 1, 1, 1, -127, 5,     // 64516 saturates to 32767
                                 -127, -127, 1, 1, 1, 1, -127, 5,     // -64516 to -32768
                                 127,  -127, 2, 0, 0, 2, 1,    -128};  // no pair saturates
  const std::vector<float> bias = {0.5f, -0.25f, 3.0f};
  const float unquant = 0.001f;
  std::vector<float> c(n);
  ref().gemm_u8s8_shifted_nt(a, k, 2.0f, b.data(), k, unquant, bias.data(), c.data(), n, 1, n, k);
  EXPECT_EQ(c, shifted_by_definition(ua, 1, b, n, k, unquant, bias));
  // Row 0: 32767 + 256 + 256 - 32258 = 1021; without the saturation it would be 32770.
  EXPECT_EQ(c[0], static_cast<float>(1021.0f * unquant) + 0.5f);
  EXPECT_NE(c[0], static_cast<float>(32770.0f * unquant) + 0.5f);
  // Row 1: -32768 + 256 + 256 - 32258 = -64514.
  EXPECT_EQ(c[1], static_cast<float>(-64514.0f * unquant) - 0.25f);
  // Row 2: 0 + 254 + 258 + 254 = 766.
  EXPECT_EQ(c[2], static_cast<float>(766.0f * unquant) + 3.0f);
}

TEST(KernelsReferenceTest, ShiftedInt8QuantizesAsCvtps2dqByHand) {
  // b = identity (k × k), unquant 1, bias 0: c = ua itself (a pair holds one product, ≤ 254).
  // qa = 4 (a power of two, so a·qa is exact). Ties go to even; what cvtps2dq cannot convert
  // (NaN, ±inf, |a·qa| ≥ 2^31, but -2^31 itself converts) becomes INT32_MIN, so -127, so 0.
  const float nan = std::numeric_limits<float>::quiet_NaN(), inf = std::numeric_limits<float>::infinity();
  const std::vector<float> a = {0.5f / 4,  1.5f / 4,        2.5f / 4,          -1.5f / 4,      -2.5f / 4,
                                126.5f / 4, -126.5f / 4,    127.5f / 4,        -127.5f / 4,   nan,
                                inf,        -inf,           2147483648.0f / 4, -2147483648.0f / 4,
                                2147483520.0f / 4,          3e9f,              -0.0f};
  const std::vector<int> ua = {127 + 0,   127 + 2,   127 + 2, 127 - 2, 127 - 2, 127 + 126, 127 - 126, 254, 0, 0,
                               0,         0,         0,       0,       254,     0,         127};
  const int k = static_cast<int>(a.size());  // 17: odd, the last product alone
  std::vector<int8_t> b(static_cast<std::size_t>(k) * k, 0);
  for (int j = 0; j < k; ++j) b[j * k + j] = 1;
  const std::vector<float> bias(k, 0.0f);
  std::vector<float> c(k);
  ref().gemm_u8s8_shifted_nt(a.data(), k, 4.0f, b.data(), k, 1.0f, bias.data(), c.data(), k, 1, k, k);
  EXPECT_EQ(c, shifted_by_definition(ua, 1, b, k, k, 1.0f, bias));
  for (int j = 0; j < k; ++j) EXPECT_EQ(c[j], static_cast<float>(ua[j])) << "a = " << a[j];
}

TEST(KernelsReferenceTest, ShiftedInt8RowsAndOddKByHand) {
  // Two rows, k = 5 (odd: the last product alone), qa = 1.
  // Row 0: a = [127, 127, 127, 127, 127] → ua = 254 everywhere; row 1: a = [-1, 0, 1, 2.5, 3.5]
  // → [-1, 0, 1, 2, 4] → ua = [126, 127, 128, 129, 131].
  const float a[] = {127, 127, 127, 127, 127, -1, 0, 1, 2.5f, 3.5f};
  const std::vector<int> ua = {254, 254, 254, 254, 254, 126, 127, 128, 129, 131};
  const std::vector<int8_t> b = {100, 100, -100, -100, 127,    // row 0: 32767 - 32768 + 32258
                                 -1,  2,   3,    -4,   5};     // no saturation anywhere
  const std::vector<float> bias = {1.0f, 2.0f};
  std::vector<float> c(4);
  ref().gemm_u8s8_shifted_nt(a, 5, 1.0f, b.data(), 5, 0.5f, bias.data(), c.data(), 2, 2, 2, 5);
  EXPECT_EQ(c, shifted_by_definition(ua, 2, b, 2, 5, 0.5f, bias));
  EXPECT_EQ(c[0], (32767 - 32768 + 32258) * 0.5f + 1.0f);
}

TEST(KernelsReferenceTest, QuadPanelLayoutByHand) {
  // b [2, 5] = [[1..5], [−1..−5]]: k rounds up to 8; per step of 4, column j's 4 bytes at j·4.
  const int8_t b[] = {1, 2, 3, 4, 5, -1, -2, -3, -4, -5};
  ASSERT_EQ(quad_panels_size(2, 5), static_cast<std::size_t>(kQuadColumns) * 8);
  std::vector<int8_t> quads(quad_panels_size(2, 5), 99);
  pack_quad_panels(b, 5, 2, 5, quads.data());
  const std::vector<int8_t> first(quads.begin(), quads.begin() + 8);
  EXPECT_EQ(first, (std::vector<int8_t>{1, 2, 3, 4, -1, -2, -3, -4}));
  const std::size_t second_step = 4 * kQuadColumns;
  const std::vector<int8_t> second(quads.begin() + second_step, quads.begin() + second_step + 8);
  EXPECT_EQ(second, (std::vector<int8_t>{5, 0, 0, 0, -5, 0, 0, 0}));
  EXPECT_EQ(std::count(quads.begin(), quads.end(), 0), static_cast<long>(quads.size()) - 10);
  std::vector<int32_t> sums(column_sums_size(2), 99);
  ASSERT_EQ(sums.size(), static_cast<std::size_t>(kQuadColumns));
  sum_columns(b, 5, 2, 5, sums.data());
  EXPECT_EQ(sums[0], 15);
  EXPECT_EQ(sums[1], -15);
  EXPECT_EQ(std::count(sums.begin(), sums.end(), 0), kQuadColumns - 2);
}

TEST(KernelsReferenceTest, PanelLayoutByHand) {
  // b [3, 2] = [[1, 2], [3, 4], [5, 6]] in panels of 2 rows: [[1, 3], [2, 4]] and [[5, 0], [6, 0]]
  const float b[] = {1, 2, 3, 4, 5, 6};
  ASSERT_EQ(panels_size(3, 2, 2), 8u);
  std::vector<float> panels(8, -1.0f);
  pack_panels(b, 2, 3, 2, 2, panels.data());
  EXPECT_EQ(panels, (std::vector<float>{1, 3, 2, 4, 5, 0, 6, 0}));
  const int8_t q[] = {1, -2, 3, -4, 5, -6, 7, -8, 9};  // [3, 2] with ld 3: the third column is skipped
  std::vector<int8_t> q_panels(panels_size(3, 2, 4), 99);
  ASSERT_EQ(q_panels.size(), 8u);
  pack_panels(q, 3, 3, 2, 4, q_panels.data());
  EXPECT_EQ(q_panels, (std::vector<int8_t>{1, -4, 7, 0, -2, 5, -8, 0}));
  EXPECT_EQ(panels_size(0, 5, 4), 0u);
  EXPECT_EQ(ref().panel_columns, 0);  // the reference reads no panels
}

TEST(KernelsReferenceTest, SumExpOfKnownVector) {
  // e^-2 + e^-1 + e^0 = 0.13533528 + 0.36787944 + 1; −∞ adds nothing
  const float x[] = {1, 2, 3, -std::numeric_limits<float>::infinity()};
  EXPECT_NEAR(ref().sum_exp_f32(x, 4, 3.0f), 1.50321472f, 1e-7);
}

TEST(KernelsReferenceTest, SoftmaxOfKnownVector) {
  // torch.softmax(torch.tensor([1., 2., 3.]), 0) = [0.09003057, 0.24472847, 0.66524096]
  float x[] = {1, 2, 3};
  ref().softmax_f32(x, 3);
  EXPECT_NEAR(x[0], 0.09003057f, 1e-7);
  EXPECT_NEAR(x[1], 0.24472847f, 1e-7);
  EXPECT_NEAR(x[2], 0.66524096f, 1e-7);
}

TEST(KernelsReferenceTest, SoftmaxIgnoresMaskedAndLargeValues) {
  const float inf = std::numeric_limits<float>::infinity();
  float x[] = {1000, -inf, 1000};
  ref().softmax_f32(x, 3);
  EXPECT_FLOAT_EQ(x[0], 0.5f);
  EXPECT_EQ(x[1], 0.0f);
  EXPECT_FLOAT_EQ(x[2], 0.5f);
}

TEST(KernelsReferenceTest, LayernormOfKnownVector) {
  // x = [1, 2, 3, 4]: mean 2.5, var 1.25; (x − 2.5)/√(1.25 + 1e-5)·2 + 1
  const float x[] = {1, 2, 3, 4};
  const float gamma[] = {2, 2, 2, 2};
  const float beta[] = {1, 1, 1, 1};
  float y[4];
  ref().layernorm_f32(x, gamma, beta, y, 4, 1e-5f);
  const double rstd = 1.0 / std::sqrt(1.25 + 1e-5);
  for (int i = 0; i < 4; ++i) EXPECT_NEAR(y[i], (x[i] - 2.5) * rstd * 2 + 1, 1e-6) << i;
  EXPECT_NEAR(y[0], -1.6832718, 1e-6);  // −1.5/√1.25001·2 + 1
}

TEST(KernelsReferenceTest, GeluOfKnownValues) {
  // torch.nn.functional.gelu (exact erf form) in float64.
  float x[] = {1.0f, -1.0f, 0.0f, 3.0f, -3.0f};
  ref().gelu_f32(x, 5);
  EXPECT_FLOAT_EQ(x[0], 0.8413447460685429f);
  EXPECT_FLOAT_EQ(x[1], -0.15865525393145707f);
  EXPECT_EQ(x[2], 0.0f);
  EXPECT_FLOAT_EQ(x[3], 2.99595030590511f);
  EXPECT_FLOAT_EQ(x[4], -0.004049694094890287f);
}

TEST(KernelsReferenceTest, SwishAndReluOfKnownValues) {
  float s[] = {1.0f, -2.0f, 0.0f};
  ref().swish_f32(s, 3);
  EXPECT_FLOAT_EQ(s[0], 0.7310585786300049f);   // 1·σ(1)
  EXPECT_FLOAT_EQ(s[1], -0.23840584404423515f);  // −2·σ(−2)
  EXPECT_EQ(s[2], 0.0f);
  float r[] = {-1.5f, 0.0f, 2.5f};
  ref().relu_f32(r, 3);
  EXPECT_EQ(r[0], 0.0f);
  EXPECT_EQ(r[1], 0.0f);
  EXPECT_EQ(r[2], 2.5f);
}

TEST(KernelsReferenceTest, FirstAboveSkipsEqualValuesAndNan) {
  const float x[] = {1, 5, 5, std::numeric_limits<float>::quiet_NaN(), 7};
  EXPECT_EQ(ref().first_above_f32(x, 5, 0.0f), 0);
  EXPECT_EQ(ref().first_above_f32(x, 5, 1.0f), 1);
  EXPECT_EQ(ref().first_above_f32(x, 5, 5.0f), 4);
  EXPECT_EQ(ref().first_above_f32(x, 5, 7.0f), 5);
}

TEST(KernelsReferenceTest, AddAndScaleAdd) {
  float y[] = {1, 2};
  const float x[] = {10, 20};
  ref().add_f32(y, x, 2);
  EXPECT_EQ(y[0], 11);
  EXPECT_EQ(y[1], 22);
  ref().scale_add_f32(y, 2.0f, x, 0.5f, 2);  // y·2 + x·½
  EXPECT_EQ(y[0], 27);
  EXPECT_EQ(y[1], 54);
}

}  // namespace
}  // namespace attend::kernels::testing
