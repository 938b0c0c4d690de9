// The CUDA backend's kernels (core/src/cuda/device_kernels.cu) run under the CPU emulation of
// tests/cuda/emulation against the CPU engine's scalar kernels, attention and top-k: what they
// compute, not how fast or with a GPU's rounding (docs/cuda.md). "Device" memory is host memory.
#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <random>
#include <vector>

#include "cuda/device_kernels.h"
#include "decode/log_probs.h"
#include "model/attention.h"

namespace attend::cuda {
namespace {

const kernels::KernelTable& scalar() { return *kernels::kernels_for(kernels::Isa::scalar); }

std::vector<float> random_values(size_t n, unsigned seed, float scale = 1.f) {
  std::mt19937 generator(seed);
  std::uniform_real_distribution<float> uniform(-scale, scale);
  std::vector<float> v(n);
  for (float& x : v) x = uniform(generator);
  return v;
}

void expect_close(const std::vector<float>& got, const std::vector<float>& want, float tolerance) {
  ASSERT_EQ(got.size(), want.size());
  for (size_t i = 0; i < want.size(); ++i) {
    ASSERT_NEAR(got[i], want[i], tolerance * std::max(1.f, std::abs(want[i]))) << "at " << i;
  }
}

// Two sentences of 5 and 3 tokens back to back, as the encoder packs them: each token's queries
// attend over its own sentence's keys; head 1 masked; sentence 1's probabilities captured.
TEST(EmulatedKernels, AttentionAsTheCpuComputesIt) {
  const int heads = 4, hd = 8, d = heads * hd, n = 8;
  const std::vector<int> offsets{0, 5, 8};
  const std::vector<float> qkv = random_values(static_cast<size_t>(n) * 3 * d, 1, 2.f);  // [N, 3D]
  const std::vector<int> key_start{0, 0, 0, 0, 0, 5, 5, 5}, key_count{5, 5, 5, 5, 5, 3, 3, 3};
  const uint8_t masked[] = {0, 1, 0, 0};
  const float scale = 1.f / std::sqrt(static_cast<float>(hd));
  std::vector<float> out(static_cast<size_t>(n) * d, -1.f), capture(heads * 3 * 3, -1.f);
  AttentionArgs a;
  a.q = qkv.data(), a.ldq = 3 * d, a.k = qkv.data() + d, a.v = qkv.data() + 2 * d, a.ldkv = 3 * d;
  a.key_start = key_start.data(), a.key_count = key_count.data();
  a.queries = n, a.heads = heads, a.head_dim = hd, a.max_keys = 5, a.scale = scale, a.masked_heads = masked;
  a.out = Operand{out.data()}, a.ldo = d;
  a.capture = capture.data(), a.capture_first = 5, a.capture_rows = 3, a.capture_row_stride = 3,
  a.capture_head_stride = 9;
  attention(ComputeType::f32, a, nullptr);

  std::vector<float> scaled = qkv, want(out.size()), want_capture(capture.size()), scores(25);
  scale_rows(scaled.data(), 3 * d, n, d, scale);  // the CPU scales the queries first
  for (int s = 0; s < 2; ++s) {
    const int len = offsets[s + 1] - offsets[s];
    const float* block = scaled.data() + static_cast<size_t>(offsets[s]) * 3 * d;
    const AttentionInput input{block, 3 * d, block + d, block + 2 * d, 3 * d, len, len};
    const AttentionCapture cap{want_capture.data(), 9, 3};
    multi_head_attention(scalar(), input, heads, hd, masked, scores.data(), want.data() + offsets[s] * d, d,
                         s == 1 ? &cap : nullptr);
  }
  expect_close(out, want, 1e-5f);
  expect_close(capture, want_capture, 1e-6f);
  EXPECT_EQ(out[hd], 0.f);  // head 1 of token 0: masked
}

// f32 Q, K, V whatever the compute type; the output in the compute type (the next GEMM's input),
// in bf16 with what rounding cut off in a second plane.
TEST(EmulatedKernels, AttentionWritesTheComputeType) {
  const int heads = 2, hd = 16, d = heads * hd, n = 4;
  const std::vector<float> qkv = random_values(static_cast<size_t>(n) * 3 * d, 2);
  const std::vector<int> key_start(n, 0), key_count(n, n);
  std::vector<float> out(static_cast<size_t>(n) * d);
  std::vector<__half> half_out(out.size());
  AttentionArgs a;
  a.q = qkv.data(), a.ldq = 3 * d, a.k = qkv.data() + d, a.v = qkv.data() + 2 * d, a.ldkv = 3 * d;
  a.key_start = key_start.data(), a.key_count = key_count.data();
  a.queries = n, a.heads = heads, a.head_dim = hd, a.max_keys = n, a.scale = 0.25f;
  a.out = Operand{out.data()}, a.ldo = d;
  attention(ComputeType::f32, a, nullptr);
  a.out = Operand{half_out.data()};
  attention(ComputeType::f16, a, nullptr);
  for (size_t i = 0; i < out.size(); ++i) ASSERT_EQ(__half2float(half_out[i]), __half2float(__float2half_rn(out[i])));
  std::vector<__nv_bfloat16> planes(2 * out.size());  // [2][N, D]
  a.out = Operand{planes.data(), out.size()};
  attention(ComputeType::bf16, a, nullptr);
  for (size_t i = 0; i < out.size(); ++i) {
    const float hi = __bfloat162float(planes[i]), lo = __bfloat162float(planes[out.size() + i]);
    ASSERT_EQ(hi, __bfloat162float(__float2bfloat16_rn(out[i])));
    ASSERT_EQ(lo, __bfloat162float(__float2bfloat16_rn(out[i] - hi)));
    ASSERT_NEAR(hi + lo, out[i], std::abs(out[i]) * 0x1p-16f) << i;  // 16 bits, not bf16's 8
  }
}

TEST(EmulatedKernels, LayernormOfTheSumAsTheCpus) {
  const int rows = 3, d = 40;
  const std::vector<float> x = random_values(rows * d, 3, 3.f), add = random_values(rows * d, 4);
  const std::vector<float> gamma = random_values(d, 5), beta = random_values(d, 6);
  std::vector<float> y = x, y_t(x.size());  // in place, as the post-norm residual does
  layernorm(ComputeType::f32, y.data(), add.data(), y.data(), Operand{y_t.data()}, gamma.data(), beta.data(), rows, d,
            1e-5f, nullptr);
  std::vector<float> sum(x.size()), want(x.size());
  for (size_t i = 0; i < x.size(); ++i) sum[i] = x[i] + add[i];
  for (int r = 0; r < rows; ++r) scalar().layernorm_f32(sum.data() + r * d, gamma.data(), beta.data(), want.data() + r * d, d, 1e-5f);
  expect_close(y, want, 1e-5f);
  EXPECT_EQ(y_t, y);  // the compute type's copy, here f32
}

TEST(EmulatedKernels, BiasAndActivationsAsTheCpus) {
  const int rows = 2, n = 300;
  const std::vector<float> x = random_values(rows * n, 7, 4.f), bias = random_values(n, 8);
  const std::vector<float> scale = random_values(n, 14);  // an int8 file's scales, applied after the GEMM
  for (Activation act : {Activation::relu, Activation::gelu, Activation::swish}) {
    std::vector<float> y = x, want(x.size());
    bias_activation(ComputeType::f32, y.data(), Operand{y.data()}, scale.data(), bias.data(), rows, n, &act, nullptr);
    for (size_t i = 0; i < x.size(); ++i) want[i] = x[i] * scale[i % n] + bias[i % n];
    if (act == Activation::relu) scalar().relu_f32(want.data(), rows * n);
    if (act == Activation::gelu) scalar().gelu_f32(want.data(), rows * n);
    if (act == Activation::swish) scalar().swish_f32(want.data(), rows * n);
    expect_close(y, want, 1e-6f);
  }
}

TEST(EmulatedKernels, EmbeddingScaledPlusPositions) {
  const int d = 6, rows = 3;
  const std::vector<float> table = random_values(10 * d, 9), positions = random_values(20 * d, 10);
  const std::vector<int> ids{7, 0, 7}, position{4, 4, 19};
  std::vector<__half> table_t(table.size());
  for (size_t i = 0; i < table.size(); ++i) table_t[i] = __float2half_rn(table[i]);
  std::vector<float> x(rows * d);
  std::vector<__half> x_t(rows * d);
  const std::vector<float> row_scale = random_values(10, 15);  // an int8 file's: the table holds the int8 values
  embed(ComputeType::f16, x.data(), Operand{x_t.data()}, table_t.data(), row_scale.data(), positions.data(), ids.data(),
        position.data(), rows, d, 2.5f, nullptr);
  for (int r = 0; r < rows; ++r) {
    for (int i = 0; i < d; ++i) {
      const float e = __half2float(table_t[ids[r] * d + i]) * row_scale[ids[r]];
      const float want = e * 2.5f + positions[position[r] * d + i];
      EXPECT_FLOAT_EQ(x[r * d + i], want);  // the residual stream stays f32
      EXPECT_EQ(__half2float(x_t[r * d + i]), __half2float(__float2half_rn(want)));
    }
  }
}

TEST(EmulatedKernels, CacheWritesAndForks) {
  const int d = 4, steps = 5, slots = 3, layers = 2;  // cache [L][P][T][2D]
  std::vector<float> cache(static_cast<size_t>(layers) * slots * steps * 2 * d, 0.f);
  const std::vector<float> qkv = random_values(2 * 3 * d, 11);  // two rows [R, 3D]
  const std::vector<int> slot_start{2 * steps, 0}, position{3, 3};
  write_cache(cache.data(), qkv.data(), slot_start.data(), position.data(), 2, d, nullptr);
  for (int i = 0; i < 2 * d; ++i) {
    EXPECT_EQ(cache[(2 * steps + 3) * 2 * d + i], qkv[d + i]);       // row 0's K, V into slot 2, position 3
    EXPECT_EQ(cache[(0 * steps + 3) * 2 * d + i], qkv[3 * d + d + i]);  // row 1's into slot 0
  }
  for (size_t i = 0; i < cache.size(); ++i) cache[i] = static_cast<float>(i);
  const std::vector<float> before = cache;
  const int forks[] = {2, 1};  // slot 2's first 4 positions into slot 1, in every layer
  const size_t slot = steps * 2 * d;
  copy_cache_slots(cache.data(), forks, 1, layers, slots * slot, slot, 4 * 2 * d, nullptr);
  for (int l = 0; l < layers; ++l) {
    for (size_t i = 0; i < slot; ++i) {
      const size_t to = l * slots * slot + 1 * slot + i;
      EXPECT_EQ(cache[to], i < 4 * 2 * d ? before[l * slots * slot + 2 * slot + i] : before[to]) << l << " " << i;
    }
  }
}

TEST(EmulatedKernels, ConversionRoundsToNearest) {
  const std::vector<float> x{1.f / 3, -2.75f, 65504.f, 1e-8f, 3.14159f};
  std::vector<__half> h(x.size());
  std::vector<__nv_bfloat16> b(x.size());
  convert_from_f32(ComputeType::f16, h.data(), x.data(), x.size(), nullptr);
  convert_from_f32(ComputeType::bf16, b.data(), x.data(), x.size(), nullptr);
  for (size_t i = 0; i < x.size(); ++i) {
    EXPECT_EQ(__half2float(h[i]), __half2float(__float2half_rn(x[i])));
    EXPECT_EQ(__bfloat162float(b[i]), __bfloat162float(__float2bfloat16_rn(x[i])));
  }
}

// The k best after the bans, ranked by logit, ties to the lower id, log-probs over the whole row:
// the CPU search's best_tokens on the masked row with the unmasked row's lse.
TEST(EmulatedKernels, TopKAsTheCpuSearchRanks) {
  const int vocab = 700, rows = 3, k = 10, banned_per_row = 16;
  std::vector<float> logits = random_values(static_cast<size_t>(rows) * vocab, 12, 5.f);
  logits[1 * vocab + 20] = logits[1 * vocab + 9] = logits[1 * vocab + 650] = 9.f;  // a three-way tie at the top
  logits[2 * vocab + 5] = 12.f;                                                    // row 2's best, banned
  std::vector<int> banned(rows * banned_per_row, -1);
  banned[2 * banned_per_row] = 5;
  banned[2 * banned_per_row + 1] = 100;
  banned[1 * banned_per_row] = 650;
  std::vector<int> tokens(rows * k);
  std::vector<float> log_probs(rows * k);
  top_k(logits.data(), rows, vocab, banned.data(), banned_per_row, k, tokens.data(), log_probs.data(), nullptr);
  for (int r = 0; r < rows; ++r) {
    std::vector<float> row(logits.begin() + r * vocab, logits.begin() + (r + 1) * vocab);
    const float lse = log_sum_exp(scalar(), row.data(), vocab);
    for (int b = 0; b < banned_per_row; ++b) {
      if (banned[r * banned_per_row + b] >= 0) row[banned[r * banned_per_row + b]] = -INFINITY;
    }
    std::vector<TokenScore> want(k);
    best_tokens(row.data(), vocab, lse, k, want.data());
    for (int j = 0; j < k; ++j) {
      EXPECT_EQ(tokens[r * k + j], want[j].token) << "row " << r << " rank " << j;
      EXPECT_NEAR(log_probs[r * k + j], want[j].log_prob, 1e-5f) << "row " << r << " rank " << j;
    }
  }
  EXPECT_EQ(tokens[1 * k + 0], 9);   // the tie: lower id first, the banned 650 left out
  EXPECT_EQ(tokens[1 * k + 1], 20);
  EXPECT_NE(tokens[2 * k + 0], 5);   // banned
}

// Fewer than k tokens not banned: the banned ones follow, lower id first, with log-prob -inf, as
// the CPU's best_allowed_tokens gives them (decode/step_scorer.h), not -1.
TEST(EmulatedKernels, TopKPastTheLastAllowedTokenAsTheCpu) {
  const int vocab = 6, k = 5, banned_per_row = 16;
  const std::vector<float> logits{0.5f, 3.f, -1.f, 2.f, 1.f, 0.f};
  BannedTokens ban;
  ban.ids[0] = 3, ban.ids[1] = 1, ban.ids[2] = 5, ban.count = 3;  // allowed: 0, 2, 4
  std::vector<int> banned(banned_per_row, -1);
  std::copy_n(ban.ids, ban.count, banned.begin());
  std::vector<int> tokens(k);
  std::vector<float> log_probs(k);
  top_k(logits.data(), 1, vocab, banned.data(), banned_per_row, k, tokens.data(), log_probs.data(), nullptr);
  std::vector<float> row = logits;
  std::vector<TokenScore> scratch(k + kMaxBannedTokens), want(k);
  best_allowed_tokens(scalar(), row.data(), vocab, ban, k, scratch.data(), want.data());
  EXPECT_EQ(tokens, (std::vector<int>{4, 0, 2, 1, 3}));
  for (int j = 0; j < k; ++j) {
    EXPECT_EQ(tokens[j], want[j].token) << "rank " << j;
    if (j < 3) {
      EXPECT_NEAR(log_probs[j], want[j].log_prob, 1e-5f) << "rank " << j;
    } else {
      EXPECT_EQ(log_probs[j], -INFINITY) << "rank " << j;
      EXPECT_EQ(want[j].log_prob, -INFINITY) << "rank " << j;
    }
  }
}

// Teacher forcing's log p of a given token per row, over the whole row.
TEST(EmulatedKernels, TokenLogProbsOverTheWholeRow) {
  const int vocab = 700, rows = 3;
  const std::vector<float> logits = random_values(static_cast<size_t>(rows) * vocab, 13, 5.f);
  const std::vector<int> tokens{0, 699, 350};
  std::vector<float> log_probs(rows);
  token_log_probs(logits.data(), rows, vocab, tokens.data(), log_probs.data(), nullptr);
  for (int r = 0; r < rows; ++r) {
    const float* row = logits.data() + r * vocab;
    const float want = row[tokens[r]] - log_sum_exp(scalar(), row, vocab);
    EXPECT_NEAR(log_probs[r], want, 1e-5f) << "row " << r;
  }
}

}  // namespace
}  // namespace attend::cuda
