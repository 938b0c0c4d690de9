// A valid model file damaged hundreds of ways: every load is either a clean
// Error(invalid_model) naming what is wrong, or (for damage that leaves a valid file, such as a
// changed weight value) a model that translates. Nothing crashes; run it under the asan preset.
#include <gtest/gtest.h>

#include <cstdlib>
#include <fstream>
#include <functional>
#include <nlohmann/json.hpp>
#include <random>

#include "attend/attend.h"

namespace attend {
namespace {

std::vector<uint8_t> read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw std::runtime_error("cannot read " + path + " (the parity fixture writes it)");
  return std::vector<uint8_t>((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
}

std::string fixture(const char* name) {
  const char* dir = std::getenv("ATTEND_PARITY_DIR");
  if (!dir) throw std::runtime_error("set ATTEND_PARITY_DIR (the ctest fixture does)");
  return std::string(dir) + "/" + name;
}

// A loaded file as header JSON + data bytes, re-serialisable after edits.
struct Container {
  nlohmann::json header;
  std::vector<uint8_t> data;

  explicit Container(const std::vector<uint8_t>& file) {
    uint64_t n = 0;
    for (int i = 7; i >= 0; --i) n = (n << 8) | file[i];
    header = nlohmann::json::parse(file.begin() + 8, file.begin() + 8 + n);
    data.assign(file.begin() + 8 + n, file.end());
  }

  std::vector<uint8_t> bytes() const {
    const std::string h = header.dump();
    std::vector<uint8_t> out;
    out.reserve(8 + h.size() + data.size());
    for (int i = 0; i < 8; ++i) out.push_back(static_cast<uint8_t>(static_cast<uint64_t>(h.size()) >> (8 * i)));
    out.insert(out.end(), h.begin(), h.end());
    out.insert(out.end(), data.begin(), data.end());
    return out;
  }
};

enum class Expect { error, error_or_valid };

// Loads the bytes; checks the outcome and that a model that loads also translates.
void check_load(const std::vector<uint8_t>& bytes, Expect expect, const std::string& what) {
  try {
    auto model = Model::from_bytes(bytes);
    EXPECT_EQ(expect, Expect::error_or_valid) << what << ": loaded, but it should have been rejected";
    TranslateOptions o;
    o.max_length = 8;
    Translator(model).translate_ids({{5, 6, model->config().eos_id}}, o);
  } catch (const Error& e) {
    EXPECT_TRUE(e.code() == ErrorCode::invalid_model) << what << ": " << error_code_name(e.code()) << ": " << e.what();
    EXPECT_GT(std::string(e.what()).size(), 20u) << what;
  } catch (const std::exception& e) {
    ADD_FAILURE() << what << ": escaped as a non-attend exception: " << e.what();
  }
}

class DamagedModel : public ::testing::Test {
 protected:
  void SetUp() override { valid = read_file(fixture("pre_gelu_half_untied_bias.int8.safetensors")); }
  std::vector<uint8_t> valid;

  size_t header_end() const { return 8 + Container(valid).header.dump().size(); }

  // `count` copies of the file, each with one byte in [begin, end) changed by `damage`.
  template <typename Damage>
  void for_random_bytes(size_t begin, size_t end, int count, unsigned seed, Damage damage) {
    std::mt19937 rng(seed);
    for (int i = 0; i < count; ++i) {
      auto bytes = valid;
      const size_t at = begin + rng() % (end - begin);
      damage(bytes[at], rng);
      check_load(bytes, Expect::error_or_valid, "byte " + std::to_string(at) + " damaged");
    }
  }

  std::string first_tensor(const Container& c, const char* dtype) const {
    for (const auto& [name, entry] : c.header.items()) {
      if (name != "__metadata__" && entry["dtype"] == dtype) return name;
    }
    throw std::runtime_error("no tensor of dtype " + std::string(dtype));
  }

  void edit(const std::string& what, Expect expect, const std::function<void(Container&)>& change) {
    Container c(valid);
    change(c);
    check_load(c.bytes(), expect, what);
  }
};

TEST_F(DamagedModel, TheUndamagedFileLoads) { check_load(valid, Expect::error_or_valid, "valid"); }

TEST_F(DamagedModel, EveryTruncation) {
  std::vector<size_t> lengths;
  for (size_t n = 0; n < std::min<size_t>(header_end() + 64, valid.size()); n += 7) lengths.push_back(n);
  for (size_t n = header_end(); n < valid.size(); n += valid.size() / 97 + 1) lengths.push_back(n);
  lengths.push_back(valid.size() - 1);
  for (size_t n : lengths) {
    check_load(std::vector<uint8_t>(valid.begin(), valid.begin() + n), Expect::error, "truncated to " + std::to_string(n));
  }
}

TEST_F(DamagedModel, FlippedHeaderBytes) {
  // A flipped bit in the header: rejected, or (e.g. in padding spaces) still a valid file.
  for_random_bytes(0, header_end(), 400, 7, [](uint8_t& byte, std::mt19937& rng) { byte ^= 1u << (rng() % 8); });
}

TEST_F(DamagedModel, FlippedDataBytes) {
  // A replaced data byte: a weight changes (valid), or a weight becomes NaN/Inf (rejected).
  for_random_bytes(header_end(), valid.size(), 100, 11, [](uint8_t& byte, std::mt19937& rng) { byte = rng(); });
}

TEST_F(DamagedModel, HugeAndWrongHeaderLengths) {
  for (uint64_t n : {uint64_t{0}, uint64_t{1}, uint64_t{valid.size()}, uint64_t{valid.size() - 7}, uint64_t{1} << 40,
                     ~uint64_t{0}, uint64_t{1} << 63}) {
    auto bytes = valid;
    for (int i = 0; i < 8; ++i) bytes[i] = static_cast<uint8_t>(n >> (8 * i));
    check_load(bytes, Expect::error, "header length " + std::to_string(n));
  }
}

TEST_F(DamagedModel, WrongDtypes) {
  for (const char* from : {"F32", "I8", "U8"}) {
    for (const char* to : {"F32", "I8", "U8", "F16", "BF16", "F64", "nonsense", ""}) {
      if (std::string(from) == to) continue;
      edit(std::string("dtype ") + from + " -> " + to, Expect::error, [&](Container& c) {
        c.header[first_tensor(c, from)]["dtype"] = to;
      });
    }
  }
  edit("dtype is a number", Expect::error, [&](Container& c) { c.header[first_tensor(c, "F32")]["dtype"] = 5; });
}

TEST_F(DamagedModel, LyingShapes) {
  const std::vector<nlohmann::json> shapes = {
      nlohmann::json::array(), {0}, {-1}, {1}, {1, 2, 3}, {int64_t{1} << 62, 4}, {"x"}, nullptr, {1.5}};
  for (const char* dtype : {"F32", "I8", "U8"}) {
    for (const auto& shape : shapes) {
      edit(std::string(dtype) + " shape " + shape.dump(), Expect::error, [&](Container& c) {
        c.header[first_tensor(c, dtype)]["shape"] = shape;
      });
    }
    edit(std::string(dtype) + " shape transposed", Expect::error, [&](Container& c) {
      auto& s = c.header[first_tensor(c, dtype)]["shape"];
      if (s.size() == 2) std::swap(s[0], s[1]);
      else s.push_back(1), s.push_back(2);
    });
  }
}

TEST_F(DamagedModel, LyingOffsets) {
  const std::vector<std::function<void(nlohmann::json&, size_t)>> lies = {
      [](nlohmann::json& o, size_t) { o[0] = o[0].get<uint64_t>() + 4; },
      [](nlohmann::json& o, size_t) { o[1] = o[1].get<uint64_t>() + 4; },
      [](nlohmann::json& o, size_t) { o[0] = o[1]; },
      [](nlohmann::json& o, size_t) { std::swap(o[0], o[1]); },
      [](nlohmann::json& o, size_t size) { o[1] = size + 1; },
      [](nlohmann::json& o, size_t) { o[0] = ~uint64_t{0} - 3; o[1] = ~uint64_t{0}; },
      [](nlohmann::json& o, size_t) { o[0] = -4; },
      [](nlohmann::json& o, size_t) { o = nlohmann::json::array({0}); },
      [](nlohmann::json& o, size_t) { o = "0-4"; },
  };
  for (const char* dtype : {"F32", "I8", "U8"}) {
    for (size_t i = 0; i < lies.size(); ++i) {
      edit(std::string(dtype) + " offset lie " + std::to_string(i), Expect::error, [&](Container& c) {
        lies[i](c.header[first_tensor(c, dtype)]["data_offsets"], c.data.size());
      });
    }
  }
  edit("two tensors at the same offsets", Expect::error, [&](Container& c) {
    std::vector<std::string> f32;
    for (const auto& [name, entry] : c.header.items()) {
      if (name != "__metadata__" && entry["dtype"] == "F32" && entry["shape"] == nlohmann::json::array({32})) f32.push_back(name);
    }
    c.header[f32.at(1)]["data_offsets"] = c.header[f32.at(0)]["data_offsets"];
  });
}

TEST_F(DamagedModel, MissingAndUnexpectedTensors) {
  Container c(valid);
  std::vector<std::string> names;
  for (const auto& [name, entry] : c.header.items()) {
    if (name != "__metadata__") names.push_back(name);
  }
  for (const std::string& name : names) {
    edit("without " + name, Expect::error, [&](Container& c) { c.header.erase(name); });
  }
  edit("an extra tensor", Expect::error, [&](Container& c) {
    c.header["encoder.layers.9.extra.weight"] = {{"dtype", "U8"}, {"shape", {0}}, {"data_offsets", {0, 0}}};
  });
}

TEST_F(DamagedModel, BadMetadataAndConfig) {
  auto with_config = [&](const std::function<void(nlohmann::json&)>& change) {
    return [change](Container& c) {
      auto config = nlohmann::json::parse(c.header["__metadata__"]["attend.config"].get<std::string>());
      change(config);
      c.header["__metadata__"]["attend.config"] = config.dump();
    };
  };
  edit("no metadata", Expect::error, [](Container& c) { c.header.erase("__metadata__"); });
  edit("no format", Expect::error, [](Container& c) { c.header["__metadata__"].erase("attend.format"); });
  edit("format 2", Expect::error, [](Container& c) { c.header["__metadata__"]["attend.format"] = "2"; });
  edit("metadata not strings", Expect::error, [](Container& c) { c.header["__metadata__"]["attend.format"] = 1; });
  edit("config not JSON", Expect::error, [](Container& c) { c.header["__metadata__"]["attend.config"] = "{d_model: 32"; });
  edit("no config", Expect::error, [](Container& c) { c.header["__metadata__"].erase("attend.config"); });
  for (const char* languages : {"", "en", "en-", "-de", "en-en", "EN-DE", "english-german", "en-de-fr", "en_de", "e1-de"}) {
    edit(std::string("languages '") + languages + "'", Expect::error,
         [languages](Container& c) { c.header["__metadata__"]["attend.languages"] = languages; });
  }
  for (const char* pass : {"", "yes", "Spans", "none "}) {
    edit(std::string("pass_through '") + pass + "'", Expect::error,
         [pass](Container& c) { c.header["__metadata__"]["attend.pass_through"] = pass; });
  }
  for (const char* search : {"", "[]", "{\"rules\": \"bergamot\"}", "{\"max_repeats\": -1}", "{\"max_repeats\": 1.5}",
                             "{\"max_length_ratio\": \"2\"}", "{\"length_penalty\": 1e9}", "{\"beam\": 4}",
                             "{\"beam_size\": 0}", "{\"beam_size\": 257}", "{\"beam_size\": 2.5}", "{\"beam_size\": \"4\"}"}) {
    edit(std::string("search '") + search + "'", Expect::error,
         [search](Container& c) { c.header["__metadata__"]["attend.search"] = search; });
  }
  const std::vector<std::pair<std::string, nlohmann::json>> wrong = {
      {"decoder_start", "eos"}, {"decoder_autoreg", "lstm"}, {"pad_id", -2}, {"d_model", 33}, {"d_model", 0}, {"d_model", -32}, {"d_model", "32"}, {"num_heads", 3}, {"num_heads", 0},
      {"d_ff", 63}, {"encoder_layers", 5}, {"decoder_layers", 0}, {"src_vocab_size", 47}, {"tgt_vocab_size", 1 << 30},
      {"activation", "tanh"}, {"norm", "mid"}, {"positions", "rotary"}, {"max_positions", 1}, {"eos_id", 1000},
      {"layer_norm_eps", -1}, {"tie_output", "yes"}, {"share_embeddings", true}, {"unknown_option", 1}};
  for (const auto& [key, value] : wrong) {
    edit("config " + key + "=" + value.dump(), Expect::error, with_config([&](nlohmann::json& j) { j[key] = value; }));
  }
  edit("config without d_model", Expect::error, with_config([](nlohmann::json& j) { j.erase("d_model"); }));
}

// `attend.search` and `attend.pass_through` become the defaults a translation starts from.
TEST_F(DamagedModel, SearchAndPassThroughTheFileAsksFor) {
  Container c(valid);
  c.header["__metadata__"]["attend.search"] = R"({"rules": "marian", "max_length_ratio": 2, "max_repeats": 0, "beam_size": 6})";
  c.header["__metadata__"]["attend.pass_through"] = "none";
  const auto model = Model::from_bytes(c.bytes());
  EXPECT_FALSE(model->info().asks_for_pass_through);
  EXPECT_EQ(model->info().search.beam_size, 6);
  const TranslateOptions asked = default_options(*model);
  EXPECT_EQ(asked.beam_size, 6);
  EXPECT_EQ(asked.search_rules, SearchRules::marian);
  EXPECT_EQ(asked.max_length_ratio, 2.f);
  EXPECT_EQ(asked.max_repeats, 0);
  EXPECT_EQ(asked.length_penalty, TranslateOptions{}.length_penalty);  // not named: the library's
  const auto plain = Model::from_bytes(valid);
  EXPECT_TRUE(plain->info().asks_for_pass_through);
  EXPECT_EQ(default_options(*plain).search_rules, SearchRules::attend);
  EXPECT_EQ(default_options(*plain).max_repeats, TranslateOptions{}.max_repeats);
  EXPECT_EQ(default_options(*plain).beam_size, 1);  // no beam asked: greedy
}

// `attend.languages` is read when present (files before 2026-12-01 name none), and an ensemble's
// members that name theirs must name the same.
TEST_F(DamagedModel, NamedLanguages) {
  const auto named = [&](const char* languages) {
    Container c(valid);
    c.header["__metadata__"]["attend.languages"] = languages;
    return Model::from_bytes(c.bytes());
  };
  const auto en_de = named("en-de");
  EXPECT_EQ(en_de->info().source_language, "en");
  EXPECT_EQ(en_de->info().target_language, "de");
  const auto unnamed = Model::from_bytes(valid);
  EXPECT_EQ(unnamed->info().source_language, "");
  EXPECT_EQ(unnamed->info().target_language, "");
  EXPECT_EQ(Model::ensemble({en_de, named("en-de"), unnamed})->info().members, 3);
  try {
    Model::ensemble({en_de, named("de-en")});
    FAIL() << "en-de and de-en decoded together";
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ErrorCode::invalid_argument);
    EXPECT_NE(std::string(e.what()).find("model 2 translates de-en, model 1 en-de"), std::string::npos) << e.what();
  }
  try {  // behind a member that names none
    Model::ensemble({unnamed, en_de, named("de-en")});
    FAIL() << "en-de and de-en decoded together behind an unnamed member";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("model 3 translates de-en, model 2 en-de"), std::string::npos) << e.what();
  }
}

TEST_F(DamagedModel, DamagedTokenizer) {
  edit("tokenizer bytes zeroed", Expect::error, [](Container& c) {
    const auto o = c.header["tokenizer.src"]["data_offsets"];
    std::fill(c.data.begin() + o[0].get<size_t>(), c.data.begin() + o[1].get<size_t>(), 0);
  });
  edit("tokenizer is F32", Expect::error, [](Container& c) {
    auto& t = c.header["tokenizer.src"];
    const size_t n = t["shape"][0].get<size_t>();
    t["dtype"] = "F32";
    t["shape"] = {n / 4};
    t["data_offsets"][1] = t["data_offsets"][0].get<size_t>() + n / 4 * 4;
  });
}

TEST_F(DamagedModel, NonFiniteWeights) {
  for (uint32_t bits : {0x7fc00000u, 0x7f800000u, 0xff800000u}) {
    edit("non-finite weight", Expect::error, [&](Container& c) {
      const auto o = c.header["decoder.final_logits_bias"]["data_offsets"];
      std::memcpy(c.data.data() + o[0].get<size_t>() + 8, &bits, 4);
    });
  }
}

// An int8 weight of -128 is valid for int8 weights times f32 activations, but gemm_i8i8_nt takes
// [-127, 127] (AVX2's sign trick would get its product wrong): int8 activations refuse the file,
// and if_int8 (the browser's default) leaves them off.
TEST_F(DamagedModel, AWeightOfMinus128RefusesInt8Activations) {
  Container c(valid);
  const auto o = c.header["decoder.layers.0.ffn.fc1.weight"]["data_offsets"];
  ASSERT_EQ(c.header["decoder.layers.0.ffn.fc1.weight"]["dtype"], "I8");
  c.data[o[0].get<size_t>() + 3] = 0x80;
  const std::vector<uint8_t> bytes = c.bytes();
  EXPECT_EQ(Model::from_bytes(bytes)->info().weight_dtype, "int8");
  EXPECT_FALSE(Model::from_bytes(bytes, ModelOptions{Int8Activations::if_int8})->info().int8_activations);
  EXPECT_TRUE(Model::from_bytes(valid, ModelOptions{Int8Activations::if_int8})->info().int8_activations);
  try {
    Model::from_bytes(bytes, ModelOptions{Int8Activations::on});
    ADD_FAILURE() << "loaded with int8 activations";
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ErrorCode::invalid_argument) << e.what();
    EXPECT_NE(std::string(e.what()).find("has weights of -128"), std::string::npos) << e.what();
  }
}

TEST_F(DamagedModel, NestingBomb) {
  std::string h = std::string(100000, '[') + std::string(100000, ']');
  std::vector<uint8_t> bytes(8);
  for (int i = 0; i < 8; ++i) bytes[i] = static_cast<uint8_t>(static_cast<uint64_t>(h.size()) >> (8 * i));
  bytes.insert(bytes.end(), h.begin(), h.end());
  check_load(bytes, Expect::error, "nesting bomb");
}

// attend.config is JSON inside a header string, so the header's depth check does not see it.
TEST_F(DamagedModel, NestingBombInTheConfig) {
  edit("config nesting bomb", Expect::error, [](Container& c) {
    c.header["__metadata__"]["attend.config"] = "{\"d_model\": " + std::string(100000, '[') + std::string(100000, ']') + "}";
  });
}

// A bad value is shown by kind (an array) or cut short, never dumped whole into the message.
TEST_F(DamagedModel, BadConfigValuesAreShownShort) {
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"d_model", "'d_model' must be an integer, got an array"},
      {"activation", "'activation' is \"" + std::string(39, 'x') + "..., expected relu|gelu|swish"}};
  for (const auto& [key, message] : cases) {
    Container c(valid);
    auto config = nlohmann::json::parse(c.header["__metadata__"]["attend.config"].get<std::string>());
    config[key] = key == "d_model" ? nlohmann::json(std::vector<int>(100000, 7)) : nlohmann::json(std::string(100000, 'x'));
    c.header["__metadata__"]["attend.config"] = config.dump();
    try {
      Model::from_bytes(c.bytes());
      ADD_FAILURE() << key << ": loaded";
    } catch (const Error& e) {
      EXPECT_EQ(std::string(e.what()), "invalid model config: " + message);
    }
  }
}

TEST(ModelFile, MissingPathIsAnIoError) {
  try {
    Model::from_file("/nonexistent/model.safetensors");
    FAIL() << "loaded a missing file";
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ErrorCode::io);
    EXPECT_NE(std::string(e.what()).find("/nonexistent/model.safetensors"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace attend
