#include "decode/chunking.h"

#include <gtest/gtest.h>

#include "attend/error.h"
#include "model/decoder.h"
#include "model/encoder.h"

namespace attend {
namespace {

ModelConfig shipped_shape() {  // the shipped models: d 128, F 512, 4 + 4 layers, 8k vocabulary
  ModelConfig c;
  c.src_vocab_size = c.tgt_vocab_size = 8000;
  c.d_model = 128;
  c.num_heads = 4;
  c.d_ff = 512;
  c.encoder_layers = c.decoder_layers = 4;
  c.max_positions = 256;
  return c;
}

TranslateOptions beam(int size) {
  TranslateOptions o;
  o.beam_size = size;
  return o;
}

using Chunks = std::vector<std::vector<size_t>>;

TEST(Chunking, ChunksOfTheBatchSizeWhenBuffersAreSmall) {
  const std::vector<size_t> lengths(10, 20);
  EXPECT_EQ(chunks_by_length(shipped_shape(), beam(5), lengths, 4),
            (Chunks{{0, 1, 2, 3}, {4, 5, 6, 7}, {8, 9}}));
  EXPECT_EQ(chunks_by_length(shipped_shape(), beam(5), lengths, 32), (Chunks{{0, 1, 2, 3, 4, 5, 6, 7, 8, 9}}));
  EXPECT_TRUE(chunks_by_length(shipped_shape(), beam(5), {}, 32).empty());
}

// Shortest first, ties in input order, so each chunk holds neighbours in length.
TEST(Chunking, SentencesOfSimilarLengthShareAChunk) {
  const std::vector<size_t> lengths{30, 5, 12, 5, 40, 12, 6};
  EXPECT_EQ(chunks_by_length(shipped_shape(), beam(1), lengths, 3), (Chunks{{1, 3, 6}, {2, 5, 0}, {4}}));
  EXPECT_EQ(chunks_by_length(shipped_shape(), beam(1), lengths, 1), (Chunks{{1}, {3}, {6}, {2}, {5}, {0}, {4}}));
}

// --batch 65536 at beam 256 on the shipped shape: logits alone would be 65536 · 256 · 8000
// floats. Every chunk must stay under 2^31 floats, and a chunk one sentence longer must not.
TEST(Chunking, HugeBatchesAreCutBelowTwoToTheThirtyOneFloats) {
  const ModelConfig c = shipped_shape();
  const TranslateOptions o = beam(256);
  const std::vector<size_t> lengths(65536, 64);
  const Chunks chunks = chunks_by_length(c, o, lengths, 65536);
  ASSERT_GT(chunks.size(), 1u);
  const size_t steps = 192;  // min(max_length 256, max_positions 256, ratio 3 · 64)
  size_t first = 0;
  for (const auto& chunk : chunks) {
    const size_t n = chunk.size();
    EXPECT_EQ(chunk.front(), first);  // equal lengths keep input order
    EXPECT_LE(largest_buffer(c, o, n, n * 64, 64, steps), kMaxBufferElements);
    if (first + n < lengths.size()) {
      EXPECT_GT(largest_buffer(c, o, n + 1, (n + 1) * 64, 64, steps), kMaxBufferElements);
    }
    first += n;
  }
  EXPECT_EQ(first, lengths.size());
}

size_t largest_of(std::initializer_list<const std::vector<float>*> buffers) {
  size_t largest = 0;
  for (const auto* buffer : buffers) largest = std::max(largest, buffer->size());
  return largest;
}

// A shape where the attention maps are the largest buffers: many heads of width 1, short targets.
ModelConfig narrow_shape() {
  ModelConfig c = shipped_shape();
  c.d_model = c.num_heads = 8;
  c.d_ff = 16;
  c.src_vocab_size = c.tgt_vocab_size = 40;
  return c;
}

// largest_buffer must cover every buffer the workspaces really allocate, as beam search and the
// attention capture reserve them: checked on small cases for each option that sizes them.
TEST(Chunking, LargestBufferCoversTheWorkspacesAsReserved) {
  const std::vector<int> offsets{0, 7, 30, 33};  // 3 sentences, the longest 23 tokens
  for (const auto& [c, steps] : {std::pair{shipped_shape(), size_t{40}}, std::pair{narrow_shape(), size_t{5}}}) {
    for (const bool capture : {false, true}) {
      for (const int width : {1, 4}) {
        TranslateOptions o = beam(width);
        o.capture_attention = capture;
        EncoderWorkspace encoder;
        encoder.reserve(c, offsets.back(), 23);
        DecoderWorkspace decoder;
        decoder.reserve(c, 3 * width, 3 * width, steps, offsets, capture, 3 * width);  // every row's logits: the most
        const size_t reserved = largest_of({&encoder.x, &encoder.qkv, &encoder.hidden, &encoder.scores,
                                            &decoder.cross_kv, &decoder.qkv, &decoder.hidden,
                                            &decoder.logits, &decoder.capture_self, &decoder.capture_cross});
        decoder.cache.reserve(0, static_cast<int>(steps) + 1);  // a slot grown to the last position
        const size_t slot = size_t(c.decoder_layers) * decoder.cache.capacity(0) * 2 * c.d_model;
        const size_t maps = capture ? size_t(c.encoder_layers) * c.num_heads * 23 * 23 : 0;  // Translation::attention
        EXPECT_LE(std::max({reserved, slot, maps}), largest_buffer(c, o, 3, offsets.back(), 23, steps))
            << "d " << c.d_model << ", capture " << capture << ", beam " << width;
      }
    }
  }
}

TEST(Chunking, ASentenceOverTheLimitAloneIsAnError) {
  ModelConfig c = shipped_shape();
  c.max_positions = 65536;  // its encoder attention scores alone: 50000² floats
  try {
    chunks_by_length(c, beam(1), {50000, 10, 20}, 32);  // sorted, it comes last: named by its input position
    FAIL() << "no error";
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ErrorCode::invalid_input);
    EXPECT_NE(std::string(e.what()).find("sentence 1 of 3 (50000 tokens) needs"), std::string::npos) << e.what();
  }
  try {
    chunks_by_length(c, beam(1), {50000}, 32);
    FAIL() << "no error";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("the sentence (50000 tokens) needs"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace attend
