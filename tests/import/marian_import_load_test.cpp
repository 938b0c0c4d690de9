// The engine loads what import_marian writes and decodes with it: SSRU and self-attention
// decoders, one vocabulary and two, float32 and intgemm8 items (random weights: the output is
// not checked, only that the file is whole and the search runs).
#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "attend/model.h"
#include "attend/translator.h"
#include "attend/error.h"
#include "import/marian_import.h"
#include "model/marian_shortlist.h"
#include "marian_test_model.h"

namespace attend {
namespace {

std::shared_ptr<const Model> load(const test::ModelSpec& spec, const std::string& target_vocab = "",
                                  const std::string& shortlist = "") {
  const std::string bin = test::test_model(spec).bin();
  MarianFiles files;
  files.model = {"model.bin", bin};
  files.source_vocab = {"vocab.spm", test::en_de_vocabulary()};
  files.target_vocab = {"trgvocab.spm", target_vocab};
  files.shortlist = {"lex.s2t.bin", shortlist};
  files.languages = "en-de";
  const std::string bytes = import_marian(files);
  return Model::from_bytes(reinterpret_cast<const uint8_t*>(bytes.data()), bytes.size());
}

void decode(const std::shared_ptr<const Model>& model) {
  Translator translator(model);
  TranslateOptions options;
  options.max_length = 8;
  EXPECT_FALSE(translator.translate("A dog runs in the snow.", options).hypotheses.empty());
  options.beam_size = 3;
  options.nbest = 2;
  EXPECT_EQ(translator.translate("Two men.", options).hypotheses.size(), 2u);
}

TEST(MarianImportLoad, AnSsruModelLoadsAndDecodes) {
  test::ModelSpec spec;
  const auto model = load(spec);
  const ModelConfig& c = model->config();
  EXPECT_EQ(c.decoder_autoreg, DecoderAutoreg::ssru);
  EXPECT_EQ(c.decoder_start, DecoderStart::zeros);
  EXPECT_EQ(c.positions, PositionKind::sinusoidal_half);
  EXPECT_EQ(c.pad_id, -1);
  EXPECT_EQ(c.eos_id, 3);
  EXPECT_EQ(model->info().source_language, "en");
  decode(model);
}

// With a lexical shortlist, every chosen token is one the shortlist allows the sentence: here
// only eos (id 3, under first_num 4) and the pieces listed for source id 5, padded to 8 ids.
TEST(MarianImportLoad, AShortlistLimitsTheTokensChosen) {
  test::ModelSpec spec;
  const auto plain = load(spec);
  const int vocab = plain->config().src_vocab_size;
  std::vector<std::vector<uint32_t>> lists(static_cast<size_t>(vocab));
  lists[5] = {40, 41};
  const auto model = load(spec, "", marian_shortlist_bytes(4, 50, lists));
  ASSERT_TRUE(model->info().has_shortlist);
  const std::vector<int> source = {5, 5, 5, plain->config().eos_id};
  const std::vector<int> allowed = {0, 1, 2, 3, 4, 5, 40, 41};  // [0, 4), eos's list (empty), 5 itself, its list, then 4 as padding
  TranslateOptions options;
  options.max_length = 12;
  options.max_repeats = 0;
  for (int beam : {1, 3}) {
    options.beam_size = beam;
    const std::vector<Translation> got = Translator(model).translate_ids({source}, options);
    for (const Hypothesis& h : got[0].hypotheses) {
      for (int id : h.ids) EXPECT_NE(std::find(allowed.begin(), allowed.end(), id), allowed.end()) << id;
    }
  }
  options.shortlist = false;  // the whole vocabulary again: the same as the model without one, which strays
  options.beam_size = 1;
  const std::vector<int> whole = Translator(model).translate_ids({source}, options)[0].hypotheses[0].ids;
  EXPECT_EQ(whole, Translator(plain).translate_ids({source}, options)[0].hypotheses[0].ids);
  EXPECT_TRUE(std::any_of(whole.begin(), whole.end(), [&](int id) {
    return std::find(allowed.begin(), allowed.end(), id) == allowed.end();
  })) << "the model keeps to the shortlist's tokens without it: the test shows nothing";
}

// With a shortlist, sentences translated together are one of Marian's batches, and each may run
// to the batch's length limit (max-length-factor times its widest source), as in Marian's search;
// alone, or without the shortlist (Attend's own batches), to its own.
TEST(MarianImportLoad, AShortlistBatchSharesItsLengthLimit) {
  test::ModelSpec spec;
  const auto plain = load(spec);
  const int eos = plain->config().eos_id;
  std::vector<std::vector<uint32_t>> lists(static_cast<size_t>(plain->config().src_vocab_size));
  lists[5] = {40, 41};
  lists[6] = {42, 43};
  const auto model = load(spec, "", marian_shortlist_bytes(4, 50, lists));
  const std::vector<int> short_source = {5, 6, eos}, long_source = {6, 5, 6, 5, 6, 5, 6, 5, eos};
  TranslateOptions options;
  options.max_length_ratio = 1.f;
  options.max_repeats = 0;
  Translator translator(model);
  const auto length = [](const Translation& t) { return t.hypotheses[0].ids.size(); };
  const size_t alone = length(translator.translate_ids({short_source}, options)[0]);
  const std::vector<Translation> together = translator.translate_ids({short_source, long_source}, options);
  EXPECT_LE(alone, short_source.size());
  EXPECT_LE(length(together[0]), long_source.size());
  EXPECT_GT(length(together[0]), short_source.size()) << "the sentence ended on its own: the test shows nothing";
  options.shortlist = false;
  EXPECT_LE(length(translator.translate_ids({short_source, long_source}, options)[0]), short_source.size());
}

TEST(MarianImportLoad, AShortlistOfAnotherVocabularyIsRefused) {
  test::ModelSpec spec;
  const std::vector<std::vector<uint32_t>> lists(7);
  EXPECT_THROW(load(spec, "", marian_shortlist_bytes(4, 50, lists)), Error);
}

TEST(MarianImportLoad, AnIntgemm8SsruModelLoadsAndDecodes) {
  test::ModelSpec spec;
  spec.intgemm8 = true;
  spec.tied_output = false;
  decode(load(spec));
}

TEST(MarianImportLoad, ASelfAttentionModelWithTwoVocabulariesLoadsAndDecodes) {
  test::ModelSpec spec;
  spec.ssru = false;
  spec.shared_embedding = false;
  spec.tied_output = false;
  const auto model = load(spec, test::de_en_vocabulary());
  EXPECT_EQ(model->config().decoder_autoreg, DecoderAutoreg::self_attention);
  EXPECT_FALSE(model->config().shared_vocab);
  decode(model);
}

}  // namespace
}  // namespace attend
