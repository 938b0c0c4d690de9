// The CUDA backend's buffer layouts and per-step tables (core/src/cuda/device_plan.h), checked by
// arithmetic on a config: no device needed.
#include "cuda/device_plan.h"

#include <gtest/gtest.h>

#include "attend/error.h"

namespace attend::cuda {
namespace {

ModelConfig small_config() {
  ModelConfig c;
  c.src_vocab_size = 1000, c.tgt_vocab_size = 800, c.d_model = 128, c.num_heads = 4, c.d_ff = 512;
  c.encoder_layers = 3, c.decoder_layers = 2, c.max_positions = 64;
  return c;
}

size_t round_up(size_t bytes) { return (bytes + 255) / 256 * 256; }

TEST(ArenaLayout, PlacesBuffersOn256ByteBoundaries) {
  ArenaLayout a;
  EXPECT_EQ(a.add(1), 0u);
  EXPECT_EQ(a.add(256), 256u);
  EXPECT_EQ(a.add(0), 512u);
  EXPECT_EQ(a.add(257), 512u);
  EXPECT_EQ(a.bytes(), 1024u);
}

TEST(DevicePlan, WeightBytesCountEveryTensorInItsType) {
  ModelConfig c = small_config();
  const size_t d = 128, f = 512;
  // Linear weights and embeddings in the compute type; their rows' scales, biases, norms and
  // positions in f32.
  auto matrix = [](size_t rows, size_t cols, size_t e) { return round_up(rows * cols * e) + round_up(rows * 4); };
  auto bytes = [&](size_t e) {
    size_t total = matrix(1000, d, e) + matrix(800, d, e) + round_up(64 * d * 4 * 2);
    auto linear = [&](size_t out, size_t in) { return matrix(out, in, e) + round_up(out * 4); };
    const size_t norm = round_up(2 * d * 4);
    total += 3 * (linear(3 * d, d) + linear(d, d) + linear(f, d) + linear(d, f) + 2 * norm);
    total += 2 * (linear(3 * d, d) + 3 * linear(d, d) + linear(2 * d, d) + linear(f, d) + linear(d, f) + 3 * norm);
    return total;  // tied output: no projection of its own
  };
  EXPECT_EQ(weight_bytes(c, ComputeType::f32), bytes(4));
  EXPECT_EQ(weight_bytes(c, ComputeType::f16), bytes(2));
  EXPECT_EQ(weight_bytes(c, ComputeType::bf16), bytes(2));
  c.tie_output = false;
  EXPECT_EQ(weight_bytes(c, ComputeType::f32), bytes(4) + matrix(800, d, 4) + round_up(800 * 4));
  c.tie_output = true;
  c.share_embeddings = true;
  EXPECT_EQ(weight_bytes(c, ComputeType::f32), bytes(4) - matrix(800, d, 4));
}

TEST(DevicePlan, EncoderBuffersDoNotOverlap) {
  const ModelConfig c = small_config();
  const EncoderLayout l = plan_encoder(c, ComputeType::f16, 37, 11);
  const size_t n = 37, d = 128;
  EXPECT_EQ(l.x, 0u);
  EXPECT_EQ(l.out, round_up(n * d * 4));  // the residual stream and a sublayer's output: f32
  EXPECT_EQ(l.x_t - l.out, round_up(n * d * 4));
  EXPECT_EQ(l.normed - l.x_t, round_up(n * d * 2));  // GEMM inputs: the compute type
  EXPECT_EQ(l.qkv - l.attn, round_up(n * d * 2));
  EXPECT_EQ(l.hidden - l.qkv, round_up(n * 3 * d * 4));  // Q, K, V: f32 for the softmax
  EXPECT_EQ(l.hidden_sums - l.hidden, round_up(n * 512 * 2));
  EXPECT_EQ(l.tables - l.hidden_sums, round_up(n * 512 * 4));  // the FFN's sums before its int8 scales: f32
  EXPECT_EQ(l.capture - l.tables, round_up(4 * n * sizeof(int)));
  EXPECT_EQ(l.bytes - l.capture, round_up(3 * 4 * 11 * 11 * sizeof(float)));  // [E][H][S][S]
  EXPECT_EQ(plan_encoder(c, ComputeType::f16, 37, 0).bytes, l.capture);
}

TEST(DevicePlan, DecoderCacheAndCaptureSizes) {
  const ModelConfig c = small_config();
  DecodeSizes s;
  s.rows = 10, s.slots = 10, s.max_steps = 30, s.source_tokens = 50, s.max_source_len = 12;
  s.banned_per_row = 16, s.candidates_per_row = 10;
  const DecoderLayout off = plan_decoder(c, ComputeType::f32, s);
  EXPECT_EQ(off.cache, 0u);
  EXPECT_EQ(off.cross_kv, round_up(2 * 10 * 30 * 2 * 128 * 4));  // [L][P][T][2D]
  EXPECT_EQ(off.x - off.cross_kv, round_up(2 * 50 * 2 * 128 * 4));  // [L][N][2D]
  EXPECT_EQ(off.tables - off.logits, round_up(10 * 800 * 4));     // [R, V] f32 whatever the type
  EXPECT_EQ(off.capture_self - off.forks, round_up(2 * 10 * sizeof(int)));  // [P][2] fork pairs
  EXPECT_EQ(off.bytes, off.capture_cross);                         // no capture: nothing after
  s.capture = true;
  const DecoderLayout on = plan_decoder(c, ComputeType::f32, s);
  EXPECT_EQ(on.capture_cross - on.capture_self, round_up(10 * 2 * 4 * 30 * 4));  // [R][L][H][T]
  EXPECT_EQ(on.bytes - on.capture_cross, round_up(10 * 2 * 4 * 12 * 4));        // [R][L][H][S_max]
  EXPECT_EQ(plan_decoder(c, ComputeType::bf16, s).cross_kv, off.cross_kv);  // the cache is f32 in any type
}

TEST(DevicePlan, OutOfDeviceMemoryNamesWhatAndHowMuch) {
  EXPECT_NO_THROW(check_fits("the weights", 100, 100));
  try {
    check_fits("decoding 256 rows", (size_t{3} << 20) + 1, size_t{2} << 20);
    FAIL() << "no error";
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ErrorCode::out_of_memory);
    EXPECT_STREQ(e.what(), "out of device memory: decoding 256 rows needs 4 MiB, the device has 2 MiB free");
  }
}

TEST(DevicePlan, EncoderTablesPerToken) {
  // Two sentences of 3 and 2 tokens back to back.
  const std::vector<int> t = encoder_tables({7, 8, 3, 9, 3}, {0, 3, 5});
  EXPECT_EQ(t, (std::vector<int>{7, 8, 3, 9, 3,     // ids
                                 0, 1, 2, 0, 1,     // positions in the sentence
                                 0, 0, 0, 3, 3,     // first key row
                                 3, 3, 3, 2, 2}));  // key count
}

TEST(DevicePlan, StepTablesPerRow) {
  // Step 4 of three rows: slots 5, 0, 2 of sentences 2, 0, 1 (sources of 3, 4 and 6 tokens).
  const int tokens[] = {11, 12, 13}, slots[] = {5, 0, 2}, sentences[] = {2, 0, 1};
  const std::vector<int> t = step_tables(tokens, slots, sentences, 3, 4, 20, {0, 3, 7, 13});
  EXPECT_EQ(t, (std::vector<int>{11, 12, 13,    // tokens
                                 4, 4, 4,       // position = step
                                 100, 0, 40,    // slot · T
                                 5, 5, 5,       // self keys = step + 1
                                 7, 0, 3,       // the sentence's first cross K/V row
                                 6, 3, 4}));    // its length
}

}  // namespace
}  // namespace attend::cuda
