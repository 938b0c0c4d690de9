// pipeline/alignment.h on hand-made pieces and attention: words of pieces, the averaged layers,
// and the argmax rule from source words to target words.
#include "pipeline/alignment.h"

#include <gtest/gtest.h>

#include "attend/error.h"

namespace attend {
namespace {

bool operator==(const WordSpan& a, const WordSpan& b) { return a.begin == b.begin && a.end == b.end; }

TEST(PieceWords, OpenAtWordStartAndGlueTheRest) {
  const std::vector<WordSpan> words = piece_words({"▁Ein", "▁Hund", "e", "▁rennt", "."});
  ASSERT_EQ(words.size(), 3u);
  EXPECT_TRUE(words[0] == (WordSpan{0, 1}));
  EXPECT_TRUE(words[1] == (WordSpan{1, 3}));
  EXPECT_TRUE(words[2] == (WordSpan{3, 5}));
  EXPECT_EQ(piece_words({"(", "▁a"}).size(), 2u);  // the first piece opens a word even without ▁
  EXPECT_TRUE(piece_words({}).empty());
}

TEST(AlignmentAttention, AveragesEveryHeadOfTheUpperHalfOfTheLayers) {
  AttentionMaps maps;
  maps.decoder_layers = 4;
  maps.heads = 2;
  maps.tgt_len = 1;
  maps.src_len = 2;
  // [layers][heads][1][2]: layers 0 and 1 look at source 0, layers 2 and 3 at source 1 (one
  // head of layer 3 only half).
  maps.cross = {1, 0, 1, 0, 1, 0, 1, 0, 0, 1, 0, 1, 0, 1, 0.5f, 0.5f};
  const std::vector<float> mean = alignment_attention(maps);
  ASSERT_EQ(mean.size(), 2u);
  EXPECT_FLOAT_EQ(mean[0], 0.125f);
  EXPECT_FLOAT_EQ(mean[1], 0.875f);
  maps.cross.pop_back();
  EXPECT_THROW(alignment_attention(maps), Error);
}

TEST(AlignWords, EachSourceWordToTheTargetWordThatAttendsToItMost) {
  // Source words {0}, {1, 2}; target words {0}, {1, 2}, then an eos row that is not a word.
  const std::vector<float> attention = {  // [4][3]
      0.1f, 0.5f, 0.4f,                   // target piece 0 looks at source word 1
      0.8f, 0.1f, 0.1f,                   // target piece 1 (word 1) looks at source word 0
      0.3f, 0.3f, 0.4f,
      0.0f, 0.0f, 1.0f};  // eos: ignored
  const std::vector<int> aligned = align_words(attention, 3, {{0, 1}, {1, 3}}, {{0, 1}, {1, 3}});
  EXPECT_EQ(aligned, (std::vector<int>{1, 0}));
  EXPECT_EQ(align_words(attention, 3, {{0, 1}}, {}), (std::vector<int>{-1}));
  EXPECT_THROW(align_words(attention, 3, {{0, 4}}, {{0, 1}}), Error);
  EXPECT_THROW(align_words(attention, 3, {{0, 1}}, {{0, 5}}), Error);
}

}  // namespace
}  // namespace attend
