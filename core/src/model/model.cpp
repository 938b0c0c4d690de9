#include <algorithm>
#include <optional>
#include <string_view>
#include <tuple>
#include <utility>

#include "attend/error.h"
#include "model/config_json.h"
#include "model/device_model.h"
#include "model/model_impl.h"
#include "model/search_json.h"

namespace attend {
namespace {

[[noreturn]] void fail(const std::string& message) {
  throw Error(ErrorCode::invalid_model, "invalid model file: " + message);
}

// The bytes of the 1-D U8 tensor `name`, or nullopt when the file has none.
std::optional<std::string_view> byte_tensor(const SafetensorsFile& file, const std::string& name) {
  auto it = file.tensors.find(name);
  if (it == file.tensors.end()) return std::nullopt;
  const TensorView& t = it->second;
  if (t.dtype != DType::u8 || t.shape.size() != 1) fail("tensor '" + name + "' must be a 1-D U8 tensor");
  return std::string_view(reinterpret_cast<const char*>(t.data), t.bytes);
}

// The SentencePiece model `name`, its ids those of the piece list `pieces` where the file holds
// it (tokenizer/piece_list.h: Marian's vocab.yml).
std::unique_ptr<Tokenizer> load_tokenizer(const SafetensorsFile& file, const std::string& name, const std::string& pieces,
                                          int vocab_size) {
  const std::optional<std::string_view> model = byte_tensor(file, name);
  if (!model) fail("tensor '" + name + "' (the SentencePiece model) is missing");
  const std::optional<std::string_view> list = byte_tensor(file, pieces);
  auto tokenizer = std::make_unique<Tokenizer>(list ? Tokenizer::from_bytes(*model, *list) : Tokenizer::from_bytes(*model));
  if (tokenizer->vocab_size() != vocab_size) {
    fail("tokenizer '" + name + "' has " + std::to_string(tokenizer->vocab_size()) + " pieces but the config says " +
         std::to_string(vocab_size));
  }
  return tokenizer;
}

// Why this model cannot take ModelOptions::int8_activations, or "" if it can.
std::string int8_activations_obstacle(const Model::Impl& impl) {
  if (impl.weight_dtype != "int8") {
    return "int8 activations need an int8 model file; this one stores its weights as " + impl.weight_dtype;
  }
  if (has_weight_of_minus_128(impl.weights)) {
    return "int8 activations need int8 weights in [-127, 127]; this file has weights of -128 (load it without "
           "int8 activations)";
  }
  return "";
}

// ModelOptions::int8_activations: `on` where the model can take them (else invalid_argument),
// `if_int8` where it can (else off); then the weights are packed for gemm_i8i8_nt.
void prepare_int8_activations(Model::Impl& impl, Int8Activations wanted) {
  if (wanted == Int8Activations::off) return;
  const std::string obstacle = int8_activations_obstacle(impl);
  if (!obstacle.empty()) {
    if (wanted == Int8Activations::on) throw Error(ErrorCode::invalid_argument, obstacle);
    return;
  }
  pack_weight_quads(impl.weights, impl.owned);
  impl.int8_activations = true;
}

// Not parameters: the tokenizers, the shortlist, int8 scales and what an imported file keeps beside.
bool is_parameter(std::string_view name) {
  const auto ends_with = [name](std::string_view tail) {
    return name.size() >= tail.size() && name.substr(name.size() - tail.size()) == tail;
  };
  return name.rfind("tokenizer.", 0) != 0 && name.rfind("marian.", 0) != 0 && name != "shortlist.marian" &&
         name.find("_scale") == std::string_view::npos && !ends_with(".input_quant") && !ends_with(".weight_quant");
}

bool is_language_code(std::string_view code) {
  return code.size() >= 2 && code.size() <= 3 && std::all_of(code.begin(), code.end(), [](char c) { return c >= 'a' && c <= 'z'; });
}

// `attend.languages`: "SOURCE-TARGET", two different ISO 639 codes in lowercase ("en-de").
std::pair<std::string, std::string> language_pair(const std::string& value) {
  const size_t dash = value.find('-');
  const std::string source = value.substr(0, dash), target = dash == std::string::npos ? "" : value.substr(dash + 1);
  if (!is_language_code(source) || !is_language_code(target) || source == target) {
    fail("'attend.languages' is '" + value + "': expected the source and target languages' ISO 639 codes, as 'en-de'");
  }
  return {source, target};
}

std::shared_ptr<const Model> load(std::unique_ptr<ByteStorage> storage, const ModelOptions& options) {
  auto impl = std::make_unique<Model::Impl>();
  impl->file = parse_safetensors(storage->data(), storage->size());
  const auto& meta = impl->file.metadata;
  auto format = meta.find("attend.format");
  if (format == meta.end()) fail("__metadata__ has no 'attend.format' (is this an Attend model file?)");
  if (format->second != kFormatVersion) {
    fail("format version '" + format->second + "' is not supported (this build reads version " + kFormatVersion + ")");
  }
  if (auto languages = meta.find("attend.languages"); languages != meta.end()) {
    std::tie(impl->source_language, impl->target_language) = language_pair(languages->second);
  }
  if (auto rules = meta.find("attend.text_rules"); rules != meta.end()) {
    if (rules->second != "caption" && rules->second != "none") {
      fail("'attend.text_rules' is '" + rules->second + "': expected 'caption' or 'none'");
    }
    impl->asks_for_caption_rules = rules->second == "caption";
  }
  if (auto pass = meta.find("attend.pass_through"); pass != meta.end()) {
    if (pass->second != "spans" && pass->second != "none") {
      fail("'attend.pass_through' is '" + pass->second + "': expected 'spans' or 'none'");
    }
    impl->asks_for_pass_through = pass->second == "spans";
  }
  if (auto search = meta.find("attend.search"); search != meta.end()) impl->search = parse_search_defaults(search->second);
  auto config = meta.find("attend.config");
  if (config == meta.end()) fail("__metadata__ has no 'attend.config'");
  impl->config = parse_model_config(config->second);
  const ModelConfig& c = impl->config;
  impl->weights = bind_weights(c, impl->file, impl->owned, impl->weight_dtype);
  prepare_int8_activations(*impl, options.int8_activations);
  pack_weight_panels(impl->weights, kernels::best_kernels(), impl->owned);  // the translators' table
  impl->src_tokenizer = load_tokenizer(impl->file, "tokenizer.src", "tokenizer.src.pieces", c.src_vocab_size);
  impl->source_positions = c.max_positions - (impl->src_tokenizer->lists_target_tokens() ? 1 : 0);
  const auto has = [&](const char* name) { return impl->file.tensors.count(name) > 0; };
  if (c.shared_vocab) {
    // One id space; a piece list (tokenizer.src.pieces) numbers it where the two sides have
    // SentencePiece models of their own (OPUS-MT's source.spm and target.spm).
    if (has("tokenizer.tgt.pieces")) fail("a shared-vocabulary model must not carry 'tokenizer.tgt.pieces'");
    if (has("tokenizer.tgt") && !has("tokenizer.src.pieces")) {
      fail("a shared-vocabulary model carries 'tokenizer.tgt' only with the piece list 'tokenizer.src.pieces' that numbers both");
    }
  }
  if (c.shared_vocab && !has("tokenizer.tgt")) {
    impl->tgt_tokenizer = impl->src_tokenizer.get();
  } else {
    impl->tgt_tokenizer_owned = load_tokenizer(impl->file, "tokenizer.tgt", c.shared_vocab ? "tokenizer.src.pieces" : "tokenizer.tgt.pieces",
                                               c.tgt_vocab_size);
    impl->tgt_tokenizer = impl->tgt_tokenizer_owned.get();
  }
  if (auto it = impl->file.tensors.find("shortlist.marian"); it != impl->file.tensors.end()) {
    const TensorView& t = it->second;
    if (t.dtype != DType::u8 || t.shape.size() != 1) fail("tensor 'shortlist.marian' must be a 1-D U8 tensor");
    impl->shortlist = read_marian_shortlist(std::string_view(reinterpret_cast<const char*>(t.data), t.bytes),
                                            "shortlist.marian", c.src_vocab_size, c.tgt_vocab_size);
  }
  for (const auto& [name, view] : impl->file.tensors) {
    if (name.rfind("tokenizer.", 0) == 0 && name != "tokenizer.src" && name != "tokenizer.tgt" && name != "tokenizer.src.pieces" &&
        name != "tokenizer.tgt.pieces") {
      fail("unexpected tensor '" + name + "'");
    }
  }
  impl->storage = std::move(storage);
  if (options.device != Device::cpu) {
    if (options.int8_activations != Int8Activations::off) {
      throw Error(ErrorCode::invalid_argument, "int8 activations are a CPU path; a device model dequantizes int8 weights");
    }
    if (c.decoder_autoreg != DecoderAutoreg::self_attention || c.decoder_start != DecoderStart::bos) {
      throw Error(ErrorCode::invalid_argument,
                  "the CUDA backend runs decoders of self-attention that start from bos; this model (Marian's "
                  "SSRU or zero start) runs on the CPU");
    }
    impl->device = load_device_model(*impl, options);
  }
  return std::make_shared<const Model>(std::move(impl));
}

}  // namespace

Model::Model(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}
Model::~Model() = default;

std::shared_ptr<const Model> Model::from_file(const std::string& path, const ModelOptions& options) {
  return load(ByteStorage::from_file(path), options);
}

std::shared_ptr<const Model> Model::from_bytes(const uint8_t* data, size_t size, const ModelOptions& options) {
  return load(ByteStorage::from_vector(std::vector<uint8_t>(data, data + size)), options);
}

std::shared_ptr<const Model> Model::from_bytes(std::vector<uint8_t> bytes, const ModelOptions& options) {
  return load(ByteStorage::from_vector(std::move(bytes)), options);
}

const ModelConfig& Model::config() const { return impl().config; }

ModelInfo Model::info() const {
  if (!impl_) {  // an ensemble
    ModelInfo info = members_[0]->info();
    info.members = static_cast<int>(members_.size());
    for (size_t m = 1; m < members_.size(); ++m) {
      const ModelInfo member = members_[m]->info();
      info.file_bytes += member.file_bytes;
      info.parameter_count += member.parameter_count;
    }
    return info;
  }
  ModelInfo info;
  info.format_version = impl_->file.metadata.at("attend.format");
  info.weight_dtype = impl_->weight_dtype;
  info.source_language = impl_->source_language;
  info.target_language = impl_->target_language;
  info.asks_for_caption_rules = impl_->asks_for_caption_rules;
  info.asks_for_pass_through = impl_->asks_for_pass_through;
  info.search = impl_->search;
  info.has_shortlist = impl_->shortlist.has_value();
  info.int8_activations = impl_->int8_activations;
  if (impl_->device) info.device = impl_->device->description();
  info.file_bytes = impl_->storage->size();
  info.src_vocab_size = impl_->config.src_vocab_size;
  info.tgt_vocab_size = impl_->config.tgt_vocab_size;
  for (const auto& [name, view] : impl_->file.tensors) {
    info.tensors.push_back(TensorInfo{name, dtype_name(view.dtype), view.shape, view.bytes});
    if (is_parameter(name)) info.parameter_count += view.elements();
  }
  return info;
}

}  // namespace attend
