// What import_marian refuses, each with one line naming the file and the key or item: every
// architecture Attend does not run (by its model.yml key), items missing, misshapen, of another
// type, without a place in the architecture or holding a non-finite value, vocabularies that do
// not fit the model.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <limits>
#include <string>

#include "attend/error.h"
#include "import/marian_import.h"
#include "marian_test_model.h"

namespace attend {
namespace {

using test::TestModel;

constexpr const char* kModelName = "model.ende.intgemm.alphas.bin";

struct Call {
  std::string source_vocab = test::en_de_vocabulary();
  std::string target_vocab;
  std::string languages;
  std::string prefix = std::string(kModelName) + ": ";  // the file the message names
  ErrorCode code = ErrorCode::invalid_model;
};

// The message of the error importing `model` throws.
std::string refusal(const TestModel& model, const Call& call = {}) {
  const std::string bin = model.bin();
  MarianFiles files;
  files.model = {kModelName, bin};
  files.source_vocab = {"vocab.ende.spm", call.source_vocab};
  files.target_vocab = {"trgvocab.deen.spm", call.target_vocab};
  files.languages = call.languages;
  try {
    import_marian(files);
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), call.code) << e.what();
    EXPECT_EQ(std::string(e.what()).rfind(call.prefix, 0), 0u) << e.what();
    EXPECT_EQ(std::string(e.what()).find('\n'), std::string::npos) << e.what();
    return e.what();
  }
  ADD_FAILURE() << "imported";
  return "";
}

// The message when the model's yml sets `key: value`.
std::string refusal_of(const std::string& key, const std::string& value, bool ssru = true) {
  test::ModelSpec spec;
  spec.ssru = ssru;
  TestModel model = test::test_model(spec);
  model.set(key, value);
  return refusal(model);
}

// `text` (evaluated once) holds `part`.
#define EXPECT_HAS(text, part)                                     \
  do {                                                             \
    const std::string text_ = (text);                              \
    EXPECT_NE(text_.find(part), std::string::npos) << text_;       \
  } while (0)

TEST(MarianImportRefusal, EachArchitectureAttendDoesNotRunByItsKey) {
  struct Case {
    const char *key, *value, *says;
  };
  const Case cases[] = {
      {"type", "amun", "model.yml 'type' is 'amun': Attend imports transformer models only"},
      {"transformer-decoder-autoreg", "average-attention", "'transformer-decoder-autoreg' is average-attention"},
      {"transformer-decoder-autoreg", "lstm", "'transformer-decoder-autoreg' is 'lstm'"},
      {"dec-cell", "gru", "'dec-cell' is 'gru'"},
      {"layer-normalization", "true", "'layer-normalization' is true"},
      {"transformer-rnn-projection", "true", "'transformer-rnn-projection' is true"},
      {"transformer-preprocess", "n", "'transformer-preprocess' is 'n': Attend imports post-norm models only"},
      {"transformer-postprocess", "da", "'transformer-postprocess' is 'da'"},
      {"transformer-postprocess-top", "n", "'transformer-postprocess-top' is 'n'"},
      {"transformer-postprocess-emb", "dn", "'transformer-postprocess-emb' is 'dn'"},
      {"transformer-train-position-embeddings", "true", "'transformer-train-position-embeddings' is true"},
      {"transformer-no-projection", "true", "'transformer-no-projection' is true"},
      {"transformer-pool", "true", "'transformer-pool' is true"},
      {"right-left", "true", "'right-left' is true"},
      {"ulr", "true", "'ulr' is true"},
      {"transformer-tied-layers", "[1, 1]", "'transformer-tied-layers' is not empty"},
      {"factors-dim-emb", "4", "'factors-dim-emb' is not 0: Attend reads no factored vocabularies"},
      {"lemma-dim-emb", "4", "'lemma-dim-emb' is not 0"},
      {"lemma-dependency", "soft-transformer-layer", "'lemma-dependency' is set"},
      {"transformer-ffn-depth", "3", "'transformer-ffn-depth' is 3"},
      {"transformer-decoder-ffn-depth", "1", "'transformer-decoder-ffn-depth' is 1"},
      {"transformer-decoder-dim-ffn", "32", "'transformer-decoder-dim-ffn' is 32, transformer-dim-ffn 16"},
      {"transformer-ffn-activation", "gelu", "'transformer-ffn-activation' is gelu: Marian's is x·sigmoid(1.702x)"},
      {"transformer-ffn-activation", "tanh", "'transformer-ffn-activation' is 'tanh'"},
      {"dim-emb", "7", "'dim-emb' is 7: sinusoidal positions need an even width"},
      {"dim-emb", "0", "'dim-emb' is 0, not a positive size"},
      {"transformer-heads", "3", "'transformer-heads' is 3, which does not divide dim-emb 8"},
      {"enc-depth", "six", "'enc-depth' is 'six', not an integer"},
      {"tied-embeddings-all", "maybe", "'tied-embeddings-all' is 'maybe', not true or false"},
      {"dim-vocabs", "[8000]", "'dim-vocabs' has 1 sizes"},
      {"dim-vocabs", "[7999, 8000]", "'dim-vocabs' says 7999 source pieces, vocab.ende.spm has 8000"},
      {"dim-vocabs", "[8000, 8001]", "'dim-vocabs' says 8001 target pieces, vocab.ende.spm has 8000"},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(std::string(c.key) + ": " + c.value);
    const std::string message = refusal_of(c.key, c.value);
    EXPECT_HAS(message, std::string(kModelName) + ": model.yml '" + c.key + "' ");
    EXPECT_HAS(message, c.says);
  }
  EXPECT_HAS(refusal_of("transformer-decoder-autoreg", "average-attention", false), "average attention");
}

TEST(MarianImportRefusal, ARequiredSizeMissing) {
  TestModel model = test::test_model();
  const size_t at = model.yml.find("enc-depth: 1\n");
  model.yml.erase(at, std::strlen("enc-depth: 1\n"));
  EXPECT_HAS(refusal(model), "model.yml 'enc-depth' is missing");
}

TEST(MarianImportRefusal, AModelBeyondTheEnginesLimits) {
  TestModel model = test::test_model();
  const std::vector<test::Item> first = model.items;
  for (int layer = 2; layer <= 65; ++layer) {
    for (test::Item item : first) {
      if (item.name.rfind("decoder_l1_", 0) != 0) continue;
      item.name = "decoder_l" + std::to_string(layer) + item.name.substr(std::strlen("decoder_l1"));
      model.items.push_back(item);
    }
  }
  model.set("dec-depth", "65");
  EXPECT_HAS(refusal(model), "Attend cannot load the model it makes: invalid model config: 'decoder_layers' is 65, outside [1, 64]");
}

TEST(MarianImportRefusal, OutputOmitBiasLeavesNoPlaceForTheBias) {
  TestModel model = test::test_model();
  model.set("output-omit-bias", "true");
  EXPECT_HAS(refusal(model), "'decoder_ff_logit_out_b' has no place in the architecture its model.yml describes");
}

TEST(MarianImportRefusal, AMissingItemByName) {
  TestModel model = test::test_model();
  model.erase("encoder_l1_ffn_W2");
  EXPECT_HAS(refusal(model), "no item 'encoder_l1_ffn_W2' (for encoder.layers.0.ffn.fc2.weight)");
  model = test::test_model();
  model.erase("decoder_l1_rnn_Wf");
  EXPECT_HAS(refusal(model), "no item 'decoder_l1_rnn_Wf' (for decoder.layers.0.ssru.forget.weight)");
}

TEST(MarianImportRefusal, AWrongShapeByName) {
  TestModel model = test::test_model();
  model.item("decoder_l1_context_Wq").shape = {8, 4};
  EXPECT_HAS(refusal(model), "'decoder_l1_context_Wq' has shape [8, 4], expected [8, 8]");
  model = test::test_model();
  model.item("encoder_l1_self_bq").shape = {8};
  EXPECT_HAS(refusal(model), "'encoder_l1_self_bq' has shape [8], expected [1, 8]");
}

TEST(MarianImportRefusal, AnEmbeddingOfAnotherSizeThanTheVocabulary) {
  TestModel model = test::test_model();
  model.set("dim-vocabs", "[]");
  test::Item& embedding = model.item("Wemb");
  embedding.shape = {7999, 8};
  embedding.data.resize(7999 * 8 * sizeof(float));
  EXPECT_HAS(refusal(model), "'Wemb' has shape [7999, 8], expected [8000, 8] ([pieces of the vocabulary, dim-emb])");
}

TEST(MarianImportRefusal, AnItemWithoutAPlace) {
  TestModel model = test::test_model();  // an SSRU decoder: no self-attention
  model.items.push_back({"decoder_l1_self_Wq", test::kFloat32, {8, 8}, test::floats(std::vector<float>(64, 0.5f))});
  EXPECT_HAS(refusal(model), "'decoder_l1_self_Wq' has no place in the architecture its model.yml describes");
}

TEST(MarianImportRefusal, ANonFiniteValueByItemAndPlace) {
  TestModel model = test::test_model();
  std::vector<float> values(8 * 16, 0.25f);
  values[2 * 16 + 5] = std::numeric_limits<float>::quiet_NaN();
  model.item("encoder_l1_ffn_W1").data = test::floats(values);
  EXPECT_HAS(refusal(model), "'encoder_l1_ffn_W1' holds a non-finite value at [2, 5]");
  model = test::test_model();
  model.item("decoder_ff_logit_out_b").data = test::floats(std::vector<float>(8000, INFINITY));
  EXPECT_HAS(refusal(model), "'decoder_ff_logit_out_b' holds a non-finite value at [0, 0]");
}

TEST(MarianImportRefusal, TypesOtherThanFloat32AndIntgemm8AndBadMultipliers) {
  TestModel model = test::test_model();
  test::Item& item = model.item("decoder_l1_rnn_W");
  item.type = 0x4102;  // intgemm16
  item.data = std::string(8 * 8 * 2, '\0') + test::floats({1.0f});
  EXPECT_HAS(refusal(model), "'decoder_l1_rnn_W' is intgemm16: Attend imports float32 and intgemm8 items");
  for (const float multiplier : {0.0f, -2.0f, NAN}) {
    test::Item& q = model.item("decoder_l1_rnn_W");
    q.type = test::kIntgemm8;
    q.data = std::string(8 * 8, '\x01') + test::floats({multiplier});
    EXPECT_HAS(refusal(model), "'decoder_l1_rnn_W' has the intgemm8 multiplier");
  }
}

TEST(MarianImportRefusal, ModelYmlMissingOrOutsideTheFlatSubset) {
  TestModel model = test::test_model();
  std::vector<test::Item> items = model.items;
  MarianFiles files;
  const std::string bin = test::marian_file(items);  // no special:model.yml
  files.model = {kModelName, bin};
  files.source_vocab = {"vocab.ende.spm", test::en_de_vocabulary()};
  try {
    import_marian(files);
    ADD_FAILURE() << "imported";
  } catch (const Error& e) {
    EXPECT_EQ(std::string(e.what()), std::string(kModelName) + ": no 'special:model.yml' item (the architecture)");
  }
  model.set("dim-emb", "&width 8");
  EXPECT_HAS(refusal(model), "model.yml line ");
  EXPECT_HAS(refusal(model), ": an anchor");
}

TEST(MarianImportRefusal, VocabulariesThatDoNotFit) {
  TestModel model = test::test_model();
  Call call;
  call.target_vocab = test::de_en_vocabulary();  // two vocabularies, one Wemb
  EXPECT_HAS(refusal(model, call), "one embedding (Wemb: tied-embeddings-src or -all) needs one vocabulary, not vocab.ende.spm and trgvocab.deen.spm");
  call = {};
  call.source_vocab = "not a SentencePiece model";
  call.prefix = "vocab.ende.spm: ";
  EXPECT_HAS(refusal(model, call), "vocab.ende.spm: tokenizer: damaged SentencePiece model");
}

TEST(MarianImportRefusal, LanguagesNotAsEnDe) {
  Call call;
  call.code = ErrorCode::invalid_argument;
  call.prefix = "languages ";
  for (const char* languages : {"english-german", "en", "en-en", "EN-DE", "en_de"}) {
    call.languages = languages;
    EXPECT_HAS(refusal(test::test_model(), call), "expected the source and target languages' ISO 639 codes");
  }
}

TEST(MarianImportRefusal, NotAMarianFile) {
  MarianFiles files;
  files.source_vocab = {"vocab.ende.spm", test::en_de_vocabulary()};
  // A zip is read as an .npz (OPUS-MT's), anything else as a .bin.
  for (const auto& [bytes, what] : {std::pair<std::string, std::string>{"PK\x03\x04 a zip file, cut short", ": not a Marian .npz model"},
                                    {"a text file, not a model", ": not a Marian model file"}}) {
    files.model = {kModelName, bytes};
    try {
      import_marian(files);
      ADD_FAILURE() << "imported";
    } catch (const Error& e) {
      EXPECT_EQ(e.code(), ErrorCode::invalid_model);
      EXPECT_HAS(std::string(e.what()), std::string(kModelName) + what);
    }
  }
}

}  // namespace
}  // namespace attend
