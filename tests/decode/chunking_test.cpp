#include "decode/chunking.h"

#include <gtest/gtest.h>

#include <random>
#include <set>
#include <utility>

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


// bergamot-translator's BatchingPool (src/translator/batching_pool.cpp), line for line: each
// sentence one segment of its own request, enqueued in input order into the bucket of its token
// count (eos included), a bucket ordered by (request, index in it); generateBatch takes from the
// shortest bucket up while (batch size + 1) × length ≤ mini-batch-words.
std::vector<std::vector<size_t>> bergamot_batches(const std::vector<size_t>& lengths, size_t mini_batch_words) {
  std::vector<std::set<std::pair<size_t, size_t>>> bucket;  // (request, index), as operator< orders RequestSentence
  size_t max_active = 0;
  for (size_t request = 0; request < lengths.size(); ++request) {  // enqueueRequest
    if (lengths[request] >= bucket.size()) bucket.resize(lengths[request] + 1);
    bucket[lengths[request]].insert({request, 0});
    max_active = std::max(max_active, lengths[request]);
  }
  std::vector<std::vector<size_t>> batches;
  for (;;) {  // generateBatch until it returns an empty batch
    std::vector<size_t> batch;
    bool full = false;
    for (size_t length = 0; length <= max_active && length < bucket.size() && !full; length++) {
      auto p = bucket[length].begin();
      while (p != bucket[length].end()) {
        if ((batch.size() + 1) * length <= mini_batch_words) {
          auto q = p++;
          batch.push_back(q->first);
          bucket[length].erase(q);
        } else {
          full = true;
          break;
        }
      }
    }
    if (batch.empty()) return batches;
    batches.push_back(std::move(batch));
  }
}

TranslateOptions words(int budget) {
  TranslateOptions o;
  o.batch_words = budget;
  return o;
}

// With a lexical shortlist in use the chunks are Bergamot's batches: as many sentences as
// (n + 1) × length ≤ the words allow, not batch_size (which cut the first case at 32).
TEST(Chunking, WithAShortlistTheChunksAreBergamotsBatches) {
  const ModelConfig c = shipped_shape();
  const std::vector<size_t> hundred_of_ten(100, 10);  // 1024 words: 102 sentences of 10 fit
  Chunks all(1);
  for (size_t i = 0; i < 100; ++i) all[0].push_back(i);
  EXPECT_EQ(chunks_by_length(c, words(1024), hundred_of_ten, 32, true), all);
  EXPECT_EQ(chunks_by_length(c, words(1024), hundred_of_ten, 32, true), bergamot_batches(hundred_of_ten, 1024));
  // Sorted 5 5 | 12 12 | 20 with 30 words: 3 × 12 and 3 × 20 > 30; a longer bucket joins a batch
  // while it fits (5 5 12 with 40: 3 × 12 = 36).
  const std::vector<size_t> lengths{12, 5, 5, 20, 12};
  EXPECT_EQ(chunks_by_length(c, words(30), lengths, 32, true), (Chunks{{1, 2}, {0, 4}, {3}}));
  EXPECT_EQ(chunks_by_length(c, words(40), lengths, 32, true), (Chunks{{1, 2, 0}, {4, 3}}));
  // A sentence longer than the words goes alone (Bergamot refuses such a configuration).
  EXPECT_EQ(chunks_by_length(c, words(8), lengths, 32, true), (Chunks{{1}, {2}, {0}, {4}, {3}}));
  // Random files at Firefox's budget and smaller ones: the same batches as the BatchingPool's.
  std::mt19937 random(65);
  for (const size_t budget : {1024, 256, 100, 37}) {
    for (int file = 0; file < 20; ++file) {
      std::vector<size_t> file_lengths(std::uniform_int_distribution<size_t>(1, 400)(random));
      for (size_t& length : file_lengths) length = std::uniform_int_distribution<size_t>(2, 36)(random);
      EXPECT_EQ(chunks_by_length(c, words(static_cast<int>(budget)), file_lengths, 32, true),
                bergamot_batches(file_lengths, budget))
          << "budget " << budget << ", " << file_lengths.size() << " sentences";
    }
  }
}

// Only with a shortlist in use (elsewhere a chunk's company changes nothing, and batch_size
// groups as before), and not with batch_words 0 or batch_size 1.
TEST(Chunking, WithoutAShortlistTheBatchSizeGroups) {
  const ModelConfig c = shipped_shape();
  const std::vector<size_t> lengths(10, 20);
  const Chunks fours{{0, 1, 2, 3}, {4, 5, 6, 7}, {8, 9}};
  EXPECT_EQ(chunks_by_length(c, words(1024), lengths, 4, false), fours);
  EXPECT_EQ(chunks_by_length(c, words(0), lengths, 4, true), fours);
  EXPECT_EQ(chunks_by_length(c, words(1024), lengths, 4, true), (Chunks{{0, 1, 2, 3, 4, 5, 6, 7, 8, 9}}));
  EXPECT_EQ(chunks_by_length(c, words(1024), {30, 5, 12}, 1, true), (Chunks{{1}, {2}, {0}}));
}

// Bergamot's batches are cut below 2^31 floats of workspace too (beam 256, a budget of 2^30 words).
TEST(Chunking, BergamotsBatchesStayUnderTwoToTheThirtyOneFloats) {
  const ModelConfig c = shipped_shape();
  TranslateOptions o = words(1 << 30);
  o.beam_size = 256;
  const std::vector<size_t> lengths(4096, 64);
  const Chunks chunks = chunks_by_length(c, o, lengths, 32, true);
  ASSERT_GT(chunks.size(), 1u);
  size_t seen = 0;
  for (const auto& chunk : chunks) {
    EXPECT_GT(chunk.size(), 32u);  // batch_size does not cut them
    EXPECT_LE(largest_buffer(c, o, chunk.size(), chunk.size() * 64, 64, 192), kMaxBufferElements);
    seen += chunk.size();
  }
  EXPECT_EQ(seen, lengths.size());
}

}  // namespace
}  // namespace attend
