// import_marian on Marian models written here (marian_test_model.h): every item arrives under
// its Attend name, weights transposed to [out, in], intgemm8 dequantized as Marian dequantizes
// (q · fl(1/qB), the stored transpose undone), activation scales kept as marian.*, the config
// and metadata as the engine reads them, the vocabularies inside.
#include "import/marian_import.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <set>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "marian_test_model.h"
#include "model/safetensors.h"

namespace attend {
namespace {

using test::ModelSpec;
using test::TestModel;

struct Imported {
  std::string bytes;
  SafetensorsFile file;  // views into bytes
  nlohmann::json config;
};

Imported import(const TestModel& model, const std::string& target_vocab = "", const std::string& languages = "",
                const std::string& license = "") {
  const std::string bin = model.bin();
  MarianFiles files;
  files.model = {"model.ende.intgemm.alphas.bin", bin};
  files.source_vocab = {"vocab.ende.spm", test::en_de_vocabulary()};
  files.target_vocab = {"trgvocab.spm", target_vocab};
  files.languages = languages;
  files.license = license;
  Imported out;
  out.bytes = import_marian(files);
  out.file = parse_safetensors(reinterpret_cast<const uint8_t*>(out.bytes.data()), out.bytes.size());
  out.config = nlohmann::json::parse(out.file.metadata.at("attend.config"));
  return out;
}

std::vector<float> values_of(const TensorView& t) {
  EXPECT_EQ(t.dtype, DType::f32) << t.name;
  std::vector<float> v(static_cast<size_t>(t.elements()));
  std::memcpy(v.data(), t.data, t.bytes);
  return v;
}

std::string bytes_of(const TensorView& t) { return std::string(reinterpret_cast<const char*>(t.data), t.bytes); }

// Every mapped item is its tensor: the name, [C, R] transposed or the same values, exactly.
void expect_mapped(const TestModel& model, const Imported& imported) {
  for (const test::Mapped& m : model.mapping) {
    SCOPED_TRACE(m.marian + " -> " + m.attend);
    ASSERT_TRUE(imported.file.tensors.count(m.attend));
    const TensorView& t = imported.file.tensors.at(m.attend);
    const int64_t rows = m.shape[0], cols = m.shape[1];
    const std::vector<int64_t> shape = m.transposed ? std::vector<int64_t>{cols, rows}
                                       : rows == 1  ? std::vector<int64_t>{cols}
                                                    : std::vector<int64_t>{rows, cols};
    ASSERT_EQ(t.shape, shape);
    const std::vector<float> got = values_of(t);
    const std::vector<float>& marian = model.values.at(m.marian);
    for (int64_t r = 0; r < rows; ++r) {
      for (int64_t c = 0; c < cols; ++c) {
        const float want = marian[static_cast<size_t>(r * cols + c)];
        const size_t at = static_cast<size_t>(m.transposed ? c * rows + r : r * cols + c);
        ASSERT_EQ(got[at], want) << "Marian [" << r << ", " << c << "]";
      }
    }
  }
}

std::set<std::string> names(const Imported& imported) {
  std::set<std::string> out;
  for (const auto& [name, view] : imported.file.tensors) out.insert(name);
  return out;
}

std::set<std::string> mapped_names(const TestModel& model) {
  std::set<std::string> out;
  for (const test::Mapped& m : model.mapping) out.insert(m.attend);
  return out;
}

TEST(MarianImport, AnSsruModelBecomesAttendTensors) {
  const TestModel model = test::test_model();
  const Imported imported = import(model);
  expect_mapped(model, imported);
  std::set<std::string> expected = mapped_names(model);
  expected.insert("tokenizer.src");  // one vocabulary: no tokenizer.tgt
  EXPECT_EQ(names(imported), expected);
  EXPECT_EQ(bytes_of(imported.file.tensors.at("tokenizer.src")), test::en_de_vocabulary());
}

TEST(MarianImport, TheConfigIsMarians) {
  const Imported imported = import(test::test_model());
  const nlohmann::json expected = {
      {"src_vocab_size", 8000}, {"tgt_vocab_size", 8000}, {"d_model", 8}, {"num_heads", 2}, {"d_ff", 16},
      {"encoder_layers", 1}, {"decoder_layers", 1}, {"activation", "relu"}, {"norm", "post"},
      {"positions", "sinusoidal_half"}, {"embedding_scale", true}, {"shared_vocab", true}, {"share_embeddings", true},
      {"tie_output", true}, {"final_logits_bias", true}, {"max_positions", 512}, {"layer_norm_eps", 1e-6},
      {"decoder_start", "zeros"}, {"decoder_autoreg", "ssru"}, {"pad_id", -1}, {"unk_id", 1}, {"bos_id", 3},
      {"eos_id", 3}};
  EXPECT_EQ(imported.config, expected);
}

TEST(MarianImport, MetadataHoldsTheFormatLanguagesLicenceAndTheOriginalYml) {
  TestModel model = test::test_model();
  const Imported imported = import(model, "", "en-de", "Licence: CC-BY-SA 4.0 — ©");
  const auto& meta = imported.file.metadata;
  EXPECT_EQ(meta.at("attend.format"), "1");
  EXPECT_EQ(meta.at("attend.dtype"), "f32");
  EXPECT_EQ(meta.at("attend.languages"), "en-de");
  EXPECT_EQ(meta.at("attend.license"), "Licence: CC-BY-SA 4.0 — ©");
  EXPECT_EQ(meta.at("marian.model.yml"), model.yml);
  EXPECT_FALSE(import(model).file.metadata.count("attend.languages"));
  EXPECT_FALSE(import(model).file.metadata.count("attend.license"));
}

TEST(MarianImport, ASelfAttentionModelWithTwoVocabulariesAndItsOwnOutputLayer) {
  ModelSpec spec;
  spec.ssru = false;
  spec.shared_embedding = false;
  spec.tied_output = false;
  const TestModel model = test::test_model(spec);
  const Imported imported = import(model, test::de_en_vocabulary());
  expect_mapped(model, imported);
  std::set<std::string> expected = mapped_names(model);
  expected.insert({"tokenizer.src", "tokenizer.tgt"});
  EXPECT_EQ(names(imported), expected);
  EXPECT_EQ(bytes_of(imported.file.tensors.at("tokenizer.tgt")), test::de_en_vocabulary());
  EXPECT_EQ(imported.config["decoder_autoreg"], "self_attention");
  EXPECT_EQ(imported.config["shared_vocab"], false);
  EXPECT_EQ(imported.config["share_embeddings"], false);
  EXPECT_EQ(imported.config["tie_output"], false);
}

TEST(MarianImport, OneVocabularyForTwoEmbeddingsIsSharedButNotTied) {
  ModelSpec spec;
  spec.shared_embedding = false;  // encoder_Wemb and decoder_Wemb, tied-embeddings (the output)
  const TestModel model = test::test_model(spec);
  const Imported imported = import(model, test::en_de_vocabulary());  // the same bytes twice
  expect_mapped(model, imported);
  EXPECT_FALSE(imported.file.tensors.count("tokenizer.tgt"));
  EXPECT_EQ(imported.config["shared_vocab"], true);
  EXPECT_EQ(imported.config["share_embeddings"], false);
  EXPECT_EQ(imported.config["tie_output"], true);
}

TEST(MarianImport, TheLegacyOutputWeightIsTransposed) {
  ModelSpec spec;
  spec.tied_output = false;
  spec.legacy_output = true;
  spec.shared_embedding = true;  // tied-embeddings-src: one Wemb, the output its own
  const TestModel model = test::test_model(spec);
  const Imported imported = import(model);
  expect_mapped(model, imported);
  EXPECT_EQ(imported.file.tensors.at("decoder.output_projection.weight").shape, (std::vector<int64_t>{8000, 8}));
  EXPECT_EQ(imported.config["share_embeddings"], true);
  EXPECT_EQ(imported.config["tie_output"], false);
}

TEST(MarianImport, Intgemm8ItemsWithoutActivationScalesAreDequantizedWithTheirStoredTransposeUndone) {
  ModelSpec spec;
  spec.intgemm8 = true;
  spec.activation_scales = false;
  spec.tied_output = false;  // decoder_ff_logit_out_Wt: intgemm8 and stored transposed, [V, d] in Attend
  const TestModel model = test::test_model(spec);
  const Imported imported = import(model);
  expect_mapped(model, imported);  // exactly (float)q · (1.0f / qB), at the place of W[r][c]
  // A known value: W[r][c] of a stored-transposed [d, f] item is byte c·d + r, and fc1.weight[c][r].
  const test::Item& w1 = model.item("encoder_l1_ffn_W1");
  ASSERT_EQ(w1.type, test::kIntgemm8);
  float multiplier;
  std::memcpy(&multiplier, w1.data.data() + 8 * 16, sizeof multiplier);
  const auto q = static_cast<int8_t>(w1.data[5 * 8 + 3]);  // W1[3][5]
  EXPECT_EQ(values_of(imported.file.tensors.at("encoder.layers.0.ffn.fc1.weight"))[5 * 8 + 3],
            static_cast<float>(q) * (1.0f / multiplier));
}

// An intgemm8 weight with its activation scale stays int8, with its scales, for Marian's
// arithmetic; the embedding's scale (intgemm8 itself, as marian-conv stores names holding Wemb)
// becomes the tied output layer's.
TEST(MarianImport, Int8WeightsKeepTheirScales) {
  ModelSpec spec;
  spec.intgemm8 = true;
  const TestModel model = test::test_model(spec);
  const Imported imported = import(model);
  const TensorView& q = imported.file.tensors.at("encoder.layers.0.self_attn.q_proj.weight");
  EXPECT_EQ(q.dtype, DType::i8);
  EXPECT_EQ(values_of(imported.file.tensors.at("encoder.layers.0.self_attn.q_proj.input_quant")),
            model.values.at("encoder_l1_self_Wq_QuantMultA"));
  const test::Item& wq = *std::find_if(model.items.begin(), model.items.end(),
                                       [](const test::Item& i) { return i.name == "encoder_l1_self_Wq"; });
  float qb = 0;
  std::memcpy(&qb, wq.data.data() + 8 * 8, sizeof qb);  // d = 8: after the 64 int8 values
  EXPECT_EQ(values_of(imported.file.tensors.at("encoder.layers.0.self_attn.q_proj.weight_quant"))[0], qb);
  EXPECT_EQ(values_of(imported.file.tensors.at("encoder.layers.0.self_attn.q_proj.weight_scale"))[3], 1.0f / qb);
  EXPECT_EQ(std::memcmp(q.data, wq.data.data(), 64), 0);  // stored transposed by Marian: [out, in] already
  EXPECT_NEAR(values_of(imported.file.tensors.at("decoder.output_projection.input_quant"))[0], 2.0f, 1e-6);
  for (const auto& [name, tensor] : imported.file.tensors) EXPECT_NE(name.rfind("marian.", 0), 0u) << name << " left over";
}

TEST(MarianImport, WithoutTheLogitsBiasTheFileHasNone) {
  TestModel model = test::test_model();
  model.erase("decoder_ff_logit_out_b");
  const Imported imported = import(model);
  EXPECT_EQ(imported.config["final_logits_bias"], false);
  EXPECT_FALSE(imported.file.tensors.count("decoder.final_logits_bias"));
}

TEST(MarianImport, FlowListsAndSwishAreRead) {
  TestModel model = test::test_model();
  model.set("dim-vocabs", "[8000, 8000]");
  model.set("transformer-ffn-activation", "swish");
  const Imported imported = import(model);
  EXPECT_EQ(imported.config["activation"], "swish");
}

TEST(MarianImport, UnstatedVocabularySizesAreTakenFromTheVocabulary) {
  TestModel model = test::test_model();
  model.set("dim-vocabs", "\n  []");
  EXPECT_EQ(import(model).config["src_vocab_size"], 8000);
  model.set("dim-vocabs", "[0, 0]");
  EXPECT_EQ(import(model).config["tgt_vocab_size"], 8000);
}

}  // namespace
}  // namespace attend
