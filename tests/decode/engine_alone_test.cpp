// The engine alone: this test links attend_decode and what is below it, not the text pipeline
// or the caption layer (tests/decode/CMakeLists.txt), so it proves the engine needs neither.
// Token ids in; ids, scores and attention out, the ids exactly the search's.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "attend/error.h"
#include "attend/translator.h"
#include "model/model_impl.h"

namespace attend {
namespace {

Translator& shipped() {
  static Translator translator(Model::from_file(ATTEND_SHIPPED_MODEL));
  return translator;
}

void expect_same_maps(const AttentionMaps& a, const AttentionMaps& b) {
  EXPECT_EQ(a.target_pieces, b.target_pieces);
  EXPECT_EQ(a.source_pieces, b.source_pieces);
  EXPECT_EQ(a.encoder, b.encoder);
  EXPECT_EQ(a.decoder, b.decoder);
  EXPECT_EQ(a.cross, b.cross);
}

TEST(EngineAlone, TranslatesIdsAndTheirTextIsTheTokenizersOfThoseIds) {
  Translator& translator = shipped();
  TranslateOptions beam;
  beam.beam_size = 4;
  beam.nbest = 4;
  // A question: the caption layer would end its translation with "?"; the engine writes what it found.
  const std::vector<int> source = translator.source_ids("Where is the dog going?");
  const Translation t = translator.translate_ids({source}, beam)[0];
  ASSERT_EQ(t.hypotheses.size(), 4u);
  EXPECT_EQ(t.source_ids, source);
  const Tokenizer& target = *translator.model().impl().tgt_tokenizer;
  for (const Hypothesis& h : t.hypotheses) {
    EXPECT_EQ(h.text, target.decode(h.ids));
    EXPECT_EQ(h.pieces, target.pieces(h.ids));
    EXPECT_EQ(h.tokens, static_cast<int>(h.ids.size()) + (h.ended_with_eos ? 1 : 0));
  }
}

TEST(EngineAlone, AttentionOfAHypothesisIsWhatTheSearchCaptured) {
  Translator& translator = shipped();
  TranslateOptions options;
  options.capture_attention = true;
  options.masked_heads = {HeadRef{AttentionKind::cross, 1, 2}};
  const std::vector<int> source = translator.source_ids("A man rides a bike on a street.");
  Translation t = translator.translate_ids({source}, options)[0];
  ASSERT_TRUE(t.attention);
  expect_same_maps(translator.attention(source, t.hypotheses[0], options.masked_heads), *t.attention);

  const AttentionMaps captured = *t.attention;
  t.attention.reset();
  translator.capture_attention(t, options.masked_heads);
  ASSERT_TRUE(t.attention);
  expect_same_maps(*t.attention, captured);
  // Without the mask the maps differ: the comparisons above could fail.
  EXPECT_NE(translator.attention(source, t.hypotheses[0]).cross, captured.cross);
}

TEST(EngineAlone, AttentionOfIdsTheModelCannotReadIsRefused) {
  Translator& translator = shipped();
  Hypothesis outside;
  outside.ids = {translator.model().config().tgt_vocab_size};
  EXPECT_THROW(translator.attention(translator.source_ids("A dog."), outside), Error);
  Translation empty;
  EXPECT_THROW(translator.capture_attention(empty), Error);
}

}  // namespace
}  // namespace attend
