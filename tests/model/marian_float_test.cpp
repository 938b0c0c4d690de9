// model/marian_float's vectorized functions (four outputs at once, one a lane) against the plain
// scalar rule each lane must follow: the same bits, on random inputs of many shapes.
#include "model/marian_float.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <random>
#include <vector>

namespace attend {
namespace {

// The scalar rule, one output at a time (docs/marian.md §8.3), as marian_float computed it before
// it computed four outputs at once: the reference the library must match bit for bit.
namespace reference {

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

}  // namespace reference

std::vector<float> random_floats(std::mt19937& rng, size_t n, float spread) {
  std::normal_distribution<float> normal(0.f, spread);
  std::vector<float> v(n);
  for (float& x : v) x = normal(rng);
  return v;
}

void expect_same_bits(const std::vector<float>& expected, const std::vector<float>& actual, const char* what) {
  ASSERT_EQ(expected.size(), actual.size());
  for (size_t i = 0; i < expected.size(); ++i) {
    uint32_t a, b;
    std::memcpy(&a, &expected[i], 4);
    std::memcpy(&b, &actual[i], 4);
    ASSERT_EQ(a, b) << what << " at " << i << ": " << expected[i] << " vs " << actual[i];
  }
}

TEST(MarianFloat, ExpPsMatchesTheScalarRule) {
  std::mt19937 rng(1);
  std::vector<float> x = random_floats(rng, 100000, 20.f);
  for (float edge : {0.f, -0.f, 88.3762626647949f, -88.3762626647949f, 100.f, -100.f, 1e-30f, -1e-30f, 0.5f, -0.5f})
    x.push_back(edge);
  std::vector<float> expected(x.size()), actual(x.size());
  for (size_t i = 0; i < x.size(); ++i) {
    expected[i] = reference::exp_ps(x[i]);
    actual[i] = marian::exp_ps(x[i]);
  }
  expect_same_bits(expected, actual, "exp_ps");
}

TEST(MarianFloat, SoftmaxMatchesTheScalarRule) {
  std::mt19937 rng(2);
  for (int n = 1; n <= 140; ++n) {
    for (float spread : {0.1f, 3.f, 30.f}) {
      const std::vector<float> x = random_floats(rng, n, spread);
      std::vector<float> expected = x, actual = x;
      reference::softmax(expected.data(), n);
      marian::softmax(actual.data(), n);
      SCOPED_TRACE(n);
      ASSERT_NO_FATAL_FAILURE(expect_same_bits(expected, actual, "softmax"));
    }
  }
}

TEST(MarianFloat, LayerNormMatchesTheScalarRule) {
  std::mt19937 rng(3);
  for (int n : {1, 2, 3, 4, 5, 7, 8, 13, 16, 31, 64, 70, 256, 511, 512}) {
    const std::vector<float> x = random_floats(rng, n, 4.f), gamma = random_floats(rng, n, 1.f),
                             beta = random_floats(rng, n, 1.f);
    std::vector<float> expected(n), actual(n);
    reference::layernorm(x.data(), gamma.data(), beta.data(), expected.data(), n, 1e-6f);
    marian::layernorm(x.data(), gamma.data(), beta.data(), actual.data(), n, 1e-6f);
    SCOPED_TRACE(n);
    ASSERT_NO_FATAL_FAILURE(expect_same_bits(expected, actual, "layernorm"));
  }
}

TEST(MarianFloat, SsruCellMatchesTheScalarRule) {
  std::mt19937 rng(4);
  for (int d = 1; d <= 70; ++d) {
    for (bool first : {true, false}) {
      const std::vector<float> gates = random_floats(rng, 2 * d, 5.f), previous = random_floats(rng, d, 2.f);
      std::vector<float> cell(d), out(d), ref_cell(d), ref_out(d);
      reference::ssru_cell(gates.data(), first ? nullptr : previous.data(), d, ref_cell.data(), ref_out.data());
      marian::ssru_cell(gates.data(), first ? nullptr : previous.data(), d, cell.data(), out.data());
      SCOPED_TRACE(d);
      ASSERT_NO_FATAL_FAILURE(expect_same_bits(ref_cell, cell, "ssru cell"));
      ASSERT_NO_FATAL_FAILURE(expect_same_bits(ref_out, out, "ssru out"));
    }
  }
}

// Queries, keys and values with row strides wider than the heads (as the fused QKV buffers are),
// some heads masked, with and without the captured probabilities.
void check_attention(std::mt19937& rng, int heads, int head_dim, int rows, int keys, bool queries_as_batch,
                     bool mask_one, bool capture) {
  const int d = heads * head_dim, ldq = d + 3, ldkv = 2 * d + 1, ldo = d + 2;
  const std::vector<float> q = random_floats(rng, static_cast<size_t>(rows) * ldq, 1.f);
  const std::vector<float> kv = random_floats(rng, static_cast<size_t>(keys) * ldkv + d, 1.f);
  const AttentionInput in{q.data(), ldq, kv.data(), kv.data() + d, ldkv, rows, keys};
  std::vector<uint8_t> masked(heads, 0);
  if (mask_one) masked[rng() % heads] = 1;
  const float scale = 1.f / std::sqrt(static_cast<float>(head_dim));
  struct Result {
    std::vector<float> scores, out, probs;
  };
  auto run = [&](auto attention) {
    Result r{std::vector<float>(static_cast<size_t>(rows) * keys), std::vector<float>(static_cast<size_t>(rows) * ldo, 7.f),
             std::vector<float>(static_cast<size_t>(heads) * rows * keys, -1.f)};
    const AttentionCapture cap{r.probs.data(), static_cast<size_t>(rows) * keys, static_cast<size_t>(keys)};
    attention(in, heads, head_dim, scale, queries_as_batch, mask_one ? masked.data() : nullptr, r.scores.data(),
              r.out.data(), ldo, capture ? &cap : nullptr);
    return r;
  };
  const Result expected = run(reference::multi_head_attention), actual = run(marian::multi_head_attention);
  SCOPED_TRACE(testing::Message() << "heads " << heads << " head_dim " << head_dim << " rows " << rows << " keys "
                                  << keys << " batch " << queries_as_batch << " masked " << mask_one << " capture "
                                  << capture);
  ASSERT_NO_FATAL_FAILURE(expect_same_bits(expected.out, actual.out, "attention output"));
  ASSERT_NO_FATAL_FAILURE(expect_same_bits(expected.probs, actual.probs, "attention probabilities"));
}

TEST(MarianFloat, AttentionMatchesTheScalarRule) {
  std::mt19937 rng(5);
  for (int head_dim : {8, 9, 12, 15, 16, 20, 31, 32, 36, 48, 63, 64}) {
    for (int keys : {1, 2, 3, 4, 5, 7, 8, 9, 12, 15, 16, 17, 23, 31, 32, 33, 47, 64, 69, 70}) {
      for (int rows : {1, 3, 4, 5, 8, 11}) {
        for (bool batch : {true, false})
          ASSERT_NO_FATAL_FAILURE(check_attention(rng, 2, head_dim, rows, keys, batch, false, false));
      }
    }
  }
  for (int i = 0; i < 200; ++i) {
    const int heads = 1 + rng() % 4, head_dim = 8 + rng() % 57, rows = 1 + rng() % 12, keys = 1 + rng() % 70;
    ASSERT_NO_FATAL_FAILURE(check_attention(rng, heads, head_dim, rows, keys, rng() % 2, rng() % 2, rng() % 2));
  }
}

}  // namespace
}  // namespace attend
