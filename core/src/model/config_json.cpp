#include "model/config_json.h"

#include <set>

#include <nlohmann/json.hpp>

#include "attend/error.h"
#include "model/json_depth.h"

namespace attend {
namespace {

constexpr int kMaxJsonDepth = 4;  // the config is one flat object; deeper text is damage (or a stack bomb)
constexpr size_t kMaxQuotedChars = 40;

[[noreturn]] void fail(const std::string& message) {
  throw Error(ErrorCode::invalid_model, "invalid model config: " + message);
}

// A bad value as an error message shows it: scalars as JSON (cut short), arrays and objects by kind.
std::string describe(const nlohmann::json& v) {
  if (v.is_structured()) return std::string("an ") + v.type_name();
  const std::string text = v.dump();
  return text.size() <= kMaxQuotedChars ? text : text.substr(0, kMaxQuotedChars) + "...";
}

int read_int(const nlohmann::json& j, const char* key, int low, int high, bool required, int fallback) {
  if (!j.contains(key)) {
    if (required) fail(std::string("'") + key + "' is missing");
    return fallback;
  }
  const auto& v = j[key];
  if (!v.is_number_integer()) fail(std::string("'") + key + "' must be an integer, got " + describe(v));
  const int64_t x = v.get<int64_t>();
  if (x < low || x > high) {
    fail(std::string("'") + key + "' is " + std::to_string(x) + ", outside [" + std::to_string(low) + ", " +
         std::to_string(high) + "]");
  }
  return static_cast<int>(x);
}

bool read_bool(const nlohmann::json& j, const char* key, bool fallback) {
  if (!j.contains(key)) return fallback;
  if (!j[key].is_boolean()) fail(std::string("'") + key + "' must be true or false, got " + describe(j[key]));
  return j[key].get<bool>();
}

template <typename Enum>
Enum read_enum(const nlohmann::json& j, const char* key, std::initializer_list<std::pair<const char*, Enum>> names,
               Enum fallback) {
  if (!j.contains(key)) return fallback;
  const auto& v = j[key];
  std::string choices;
  for (const auto& [name, value] : names) {
    if (v.is_string() && v.get<std::string>() == name) return value;
    choices += choices.empty() ? name : std::string("|") + name;
  }
  fail(std::string("'") + key + "' is " + describe(v) + ", expected " + choices);
}

}  // namespace

ModelConfig parse_model_config(const std::string& json_text) {
  if (json_nests_deeper_than(json_text, kMaxJsonDepth)) fail("attend.config nests deeper than " + std::to_string(kMaxJsonDepth));
  const auto j = nlohmann::json::parse(json_text, nullptr, /*allow_exceptions=*/false);
  if (j.is_discarded() || !j.is_object()) fail("attend.config is not a JSON object");
  static const std::set<std::string> known = {
      "src_vocab_size", "tgt_vocab_size", "d_model", "num_heads", "d_ff", "encoder_layers", "decoder_layers",
      "activation", "norm", "positions", "embedding_scale", "shared_vocab", "share_embeddings", "tie_output",
      "final_logits_bias", "max_positions", "layer_norm_eps", "decoder_start", "decoder_autoreg", "pad_id", "unk_id",
      "bos_id", "eos_id"};
  for (const auto& [key, value] : j.items()) {
    if (!known.count(key)) fail("unknown key '" + key + "'");
  }

  ModelConfig c;
  constexpr int kMaxVocab = 1 << 20, kMaxWidth = 1 << 14, kMaxLayers = 64, kMaxPositions = 1 << 16;
  c.src_vocab_size = read_int(j, "src_vocab_size", 4, kMaxVocab, true, 0);
  c.tgt_vocab_size = read_int(j, "tgt_vocab_size", 4, kMaxVocab, true, 0);
  c.d_model = read_int(j, "d_model", 1, kMaxWidth, true, 0);
  c.num_heads = read_int(j, "num_heads", 1, kMaxWidth, true, 0);
  c.d_ff = read_int(j, "d_ff", 1, 8 * kMaxWidth, true, 0);
  c.encoder_layers = read_int(j, "encoder_layers", 1, kMaxLayers, true, 0);
  c.decoder_layers = read_int(j, "decoder_layers", 1, kMaxLayers, true, 0);
  c.activation = read_enum(j, "activation",
                           {{"relu", Activation::relu}, {"gelu", Activation::gelu}, {"swish", Activation::swish}},
                           Activation::relu);
  c.norm = read_enum(j, "norm", {{"post", NormPlacement::post}, {"pre", NormPlacement::pre}}, NormPlacement::post);
  c.positions = read_enum(j, "positions",
                          {{"sinusoidal", PositionKind::sinusoidal},
                           {"sinusoidal_half", PositionKind::sinusoidal_half},
                           {"learned", PositionKind::learned}},
                          PositionKind::sinusoidal);
  c.embedding_scale = read_bool(j, "embedding_scale", true);
  c.shared_vocab = read_bool(j, "shared_vocab", false);
  c.share_embeddings = read_bool(j, "share_embeddings", false);
  c.tie_output = read_bool(j, "tie_output", true);
  c.final_logits_bias = read_bool(j, "final_logits_bias", false);
  c.max_positions = read_int(j, "max_positions", 2, kMaxPositions, false, 256);
  if (j.contains("layer_norm_eps")) {
    const auto& eps = j["layer_norm_eps"];
    if (!eps.is_number() || !(eps.get<double>() > 0) || eps.get<double>() > 1) {
      fail("'layer_norm_eps' must be a number in (0, 1], got " + describe(eps));
    }
    c.layer_norm_eps = eps.get<float>();
  }
  c.decoder_start = read_enum(j, "decoder_start", {{"bos", DecoderStart::bos}, {"zeros", DecoderStart::zeros}},
                              DecoderStart::bos);
  c.decoder_autoreg = read_enum(
      j, "decoder_autoreg", {{"self_attention", DecoderAutoreg::self_attention}, {"ssru", DecoderAutoreg::ssru}},
      DecoderAutoreg::self_attention);
  const int min_vocab = std::min(c.src_vocab_size, c.tgt_vocab_size);
  c.pad_id = read_int(j, "pad_id", -1, min_vocab - 1, false, 0);
  c.unk_id = read_int(j, "unk_id", 0, min_vocab - 1, false, 1);
  c.bos_id = read_int(j, "bos_id", 0, c.tgt_vocab_size - 1, false, 2);
  c.eos_id = read_int(j, "eos_id", 0, min_vocab - 1, false, 3);

  if (c.d_model % c.num_heads != 0) {
    fail("d_model " + std::to_string(c.d_model) + " is not divisible by num_heads " + std::to_string(c.num_heads));
  }
  if (c.positions != PositionKind::learned && c.d_model % 2 != 0) {
    fail("sinusoidal positions need an even d_model, got " + std::to_string(c.d_model));
  }
  if (c.share_embeddings && (!c.shared_vocab || c.src_vocab_size != c.tgt_vocab_size)) {
    fail("share_embeddings needs shared_vocab and equal vocabulary sizes");
  }
  if (c.shared_vocab && c.src_vocab_size != c.tgt_vocab_size) {
    fail("shared_vocab needs equal vocabulary sizes, got " + std::to_string(c.src_vocab_size) + " and " +
         std::to_string(c.tgt_vocab_size));
  }
  return c;
}

}  // namespace attend
