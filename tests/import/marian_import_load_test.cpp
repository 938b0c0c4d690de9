// The engine loads what import_marian writes and decodes with it: SSRU and self-attention
// decoders, one vocabulary and two, float32 and intgemm8 items (random weights: the output is
// not checked, only that the file is whole and the search runs).
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "attend/model.h"
#include "attend/translator.h"
#include "import/marian_import.h"
#include "marian_test_model.h"

namespace attend {
namespace {

std::shared_ptr<const Model> load(const test::ModelSpec& spec, const std::string& target_vocab = "") {
  const std::string bin = test::test_model(spec).bin();
  MarianFiles files;
  files.model = {"model.bin", bin};
  files.source_vocab = {"vocab.spm", test::en_de_vocabulary()};
  files.target_vocab = {"trgvocab.spm", target_vocab};
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
