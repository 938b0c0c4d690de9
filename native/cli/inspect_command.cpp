// attend inspect: what a model file holds (configuration, parameter count, sizes, dtypes,
// vocabularies, optionally every tensor), as text or as JSON.
#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <map>
#include <nlohmann/json.hpp>

#include "attend/model.h"
#include "commands.h"
#include "files.h"
#include "option_parser.h"
#include "search_settings.h"

namespace attend::cli {

namespace {

const char* activation_name(Activation activation) {
  switch (activation) {
    case Activation::relu: return "relu";
    case Activation::gelu: return "gelu";
    case Activation::swish: return "swish";
  }
  return "unknown";
}

const char* norm_name(NormPlacement norm) { return norm == NormPlacement::pre ? "pre" : "post"; }

const char* position_name(PositionKind kind) {
  switch (kind) {
    case PositionKind::sinusoidal: return "sinusoidal";
    case PositionKind::sinusoidal_half: return "sinusoidal_half";
    case PositionKind::learned: return "learned";
  }
  return "unknown";
}

// The shortest decimal that reads back as the same float (1e-05, not 9.99999974738e-06).
double shortest_decimal(float value) {
  char buffer[32];
  for (int digits = 6; digits <= 9; ++digits) {
    std::snprintf(buffer, sizeof buffer, "%.*g", digits, value);
    if (std::strtof(buffer, nullptr) == value) break;
  }
  return std::strtod(buffer, nullptr);
}

// The same keys as training/attend_ref/config.py (the file's `attend.config`).
nlohmann::ordered_json config_json(const ModelConfig& c) {
  return {{"src_vocab_size", c.src_vocab_size},
          {"tgt_vocab_size", c.tgt_vocab_size},
          {"d_model", c.d_model},
          {"num_heads", c.num_heads},
          {"d_ff", c.d_ff},
          {"encoder_layers", c.encoder_layers},
          {"decoder_layers", c.decoder_layers},
          {"activation", activation_name(c.activation)},
          {"norm", norm_name(c.norm)},
          {"positions", position_name(c.positions)},
          {"embedding_scale", c.embedding_scale},
          {"shared_vocab", c.shared_vocab},
          {"share_embeddings", c.share_embeddings},
          {"tie_output", c.tie_output},
          {"final_logits_bias", c.final_logits_bias},
          {"max_positions", c.max_positions},
          {"layer_norm_eps", shortest_decimal(c.layer_norm_eps)},
          {"decoder_start", c.decoder_start == DecoderStart::zeros ? "zeros" : "bos"},
          {"decoder_autoreg", c.decoder_autoreg == DecoderAutoreg::ssru ? "ssru" : "self_attention"},
          {"pad_id", c.pad_id},
          {"unk_id", c.unk_id},
          {"bos_id", c.bos_id},
          {"eos_id", c.eos_id}};
}

struct DtypeTotals {
  int tensors = 0;
  int64_t elements = 0;
  uint64_t bytes = 0;
};

std::map<std::string, DtypeTotals> dtype_histogram(const ModelInfo& info) {
  std::map<std::string, DtypeTotals> histogram;
  for (const TensorInfo& tensor : info.tensors) {
    int64_t elements = 1;
    for (int64_t d : tensor.shape) elements *= d;
    DtypeTotals& totals = histogram[tensor.dtype];
    ++totals.tensors;
    totals.elements += elements;
    totals.bytes += tensor.bytes;
  }
  return histogram;
}

nlohmann::ordered_json inspect_json(const std::string& path, const Model& model, bool tensors) {
  ModelInfo info = model.info();
  nlohmann::ordered_json out = {{"path", path},
                                {"format_version", info.format_version},
                                {"weight_dtype", info.weight_dtype},
                                {"device", info.device},
                                {"parameter_count", info.parameter_count},
                                {"file_bytes", info.file_bytes},
                                {"src_vocab_size", info.src_vocab_size},
                                {"tgt_vocab_size", info.tgt_vocab_size},
                                {"source_language", info.source_language},
                                {"target_language", info.target_language},
                                {"config", config_json(model.config())}};
  nlohmann::ordered_json dtypes = nlohmann::ordered_json::object();
  for (const auto& [dtype, totals] : dtype_histogram(info)) {
    dtypes[dtype] = {
        {"tensors", totals.tensors}, {"elements", totals.elements}, {"bytes", totals.bytes}};
  }
  out["dtypes"] = dtypes;
  if (tensors) {
    out["tensors"] = nlohmann::ordered_json::array();
    for (const TensorInfo& t : info.tensors) {
      out["tensors"].push_back(
          {{"name", t.name}, {"dtype", t.dtype}, {"shape", t.shape}, {"bytes", t.bytes}});
    }
  }
  return out;
}

std::string shape_text(const std::vector<int64_t>& shape) {
  std::string text = "[";
  for (size_t i = 0; i < shape.size(); ++i) text += (i ? ", " : "") + std::to_string(shape[i]);
  return text + "]";
}

std::string languages_text(const nlohmann::ordered_json& report) {
  const std::string source = report["source_language"].get<std::string>();
  return source.empty() ? "not named in the file" : source + " -> " + report["target_language"].get<std::string>();
}

void print_text(std::ostream& out, const nlohmann::ordered_json& report) {
  const auto& c = report["config"];
  out << "model        " << report["path"].get<std::string>() << "\n"
      << "format       " << report["format_version"].get<std::string>() << "\n"
      << "weights      " << report["weight_dtype"].get<std::string>() << "\n"
      << "device       " << report["device"].get<std::string>() << "\n"
      << "parameters   " << report["parameter_count"] << "\n"
      << "file bytes   " << report["file_bytes"] << "\n"
      << "languages    " << languages_text(report) << "\n"
      << "vocabulary   source " << report["src_vocab_size"] << ", target "
      << report["tgt_vocab_size"] << (c["shared_vocab"].get<bool>() ? " (shared)" : "") << "\n"
      << "layers       encoder " << c["encoder_layers"] << ", decoder " << c["decoder_layers"]
      << "\n"
      << "sizes        d_model " << c["d_model"] << ", heads " << c["num_heads"] << ", d_ff "
      << c["d_ff"] << ", max_positions " << c["max_positions"] << "\n"
      << "config       " << c.dump() << "\n"
      << "dtypes\n";
  for (const auto& [dtype, totals] : report["dtypes"].items()) {
    out << "  " << dtype << "  " << totals["tensors"] << " tensors, " << totals["elements"]
        << " elements, " << totals["bytes"] << " bytes\n";
  }
  if (!report.contains("tensors")) return;
  out << "tensors\n";
  for (const auto& t : report["tensors"]) {
    out << "  " << t["name"].get<std::string>() << "  " << t["dtype"].get<std::string>() << "  "
        << shape_text(t["shape"].get<std::vector<int64_t>>()) << "  " << t["bytes"] << " bytes\n";
  }
}

}  // namespace

int run_inspect(const std::vector<std::string>& args) {
  OptionParser parser("attend inspect", "[options] MODEL");
  bool tensors = false, json = false;
  std::vector<std::string> paths;
  parser.add_flag("--tensors", "list every tensor: name, dtype, shape, bytes", &tensors);
  parser.add_flag("--json", "print one JSON object instead of text", &json);
  ModelFlags model_flags;
  model_flags.add_to(parser);
  parser.add_positionals("MODEL", "model file (.safetensors)", &paths, 1, 1);
  if (!parser.parse(args)) {
    std::cout << parser.help();
    return 0;
  }
  std::shared_ptr<const Model> model = load_model(paths.front(), model_flags.options());
  nlohmann::ordered_json report = inspect_json(paths.front(), *model, tensors);
  if (json) {
    std::cout << report.dump(2, ' ', false, nlohmann::ordered_json::error_handler_t::replace)
              << "\n";
  } else {
    print_text(std::cout, report);
  }
  check_written(std::cout, "stdout");
  return 0;
}

}  // namespace attend::cli
