// File opening helpers of the CLI.
#include "files.h"

#include <algorithm>
#include <cerrno>
#include <cstring>

#include "attend/error.h"
#include "option_parser.h"

namespace attend::cli {

void ModelChoice::add_to(OptionParser& parser, const std::string& help, bool optional) {
  parser.add_list("--model", "FILE", help + "; several: an ensemble, their log-probabilities averaged", &paths);
  if (!optional) parser.require("--model");
  parser.add_string("--weights", "W,W,...", "an ensemble's weight per --model, in their order (default: equal)",
                    &weights);
  parser.add_int("--attention-member", "N", "the ensemble member whose attention is shown and whose heads are masked",
                 &attention_member, 1, 1 << 20);
}

const ModelConfig& attention_config(const Model& model) {
  if (model.members().empty()) return model.config();
  return model.members()[static_cast<size_t>(model.attention_member())]->config();
}

std::string ModelChoice::path_text() const {
  std::string text;
  for (const std::string& path : paths) text += (text.empty() ? "" : " + ") + path;
  return text;
}

std::shared_ptr<const Model> ModelChoice::load(const ModelOptions& options) const {
  if (paths.size() == 1 && weights.empty() && attention_member == 1) return load_model(paths[0], options);
  std::vector<std::shared_ptr<const Model>> members;
  for (const std::string& path : paths) members.push_back(load_model(path, options));
  EnsembleOptions ensemble;
  ensemble.attention_member = attention_member - 1;
  size_t start = 0;
  while (!weights.empty() && start <= weights.size()) {
    const size_t comma = std::min(weights.find(',', start), weights.size());
    const std::string item = weights.substr(start, comma - start);
    size_t used = 0;
    float w = 0;
    try {
      w = std::stof(item, &used);
    } catch (const std::exception&) {
      used = 0;
    }
    if (used == 0 || used != item.size()) throw Error(ErrorCode::invalid_argument, "--weights: '" + item + "' is not a number");
    ensemble.weights.push_back(w);
    start = comma + 1;
  }
  return Model::ensemble(std::move(members), ensemble);
}

std::shared_ptr<const Model> load_model(const std::string& path, const ModelOptions& options) {
  try {
    return Model::from_file(path, options);
  } catch (const Error& error) {
    if (error.code() == ErrorCode::io) throw;  // ByteStorage names the file in those
    throw Error(error.code(), "model '" + path + "': " + error.what());
  }
}

namespace {

void open_or_throw(std::ofstream& out, const std::string& path, std::ios::openmode mode) {
  errno = 0;
  out.open(path, std::ios::binary | mode);
  if (!out) {
    throw Error(ErrorCode::io, "cannot write '" + path +
                                   "': " + (errno != 0 ? std::strerror(errno) : "open failed"));
  }
}

}  // namespace

void open_output(std::ofstream& out, const std::string& path) { open_or_throw(out, path, std::ios::trunc); }

void check_writable(const std::string& path) {
  std::ofstream out;
  open_or_throw(out, path, std::ios::app);  // an existing file is left as it is
}

void check_written(std::ostream& out, const std::string& name) {
  out.flush();
  if (!out) throw Error(ErrorCode::io, "cannot write to " + name);
}

}  // namespace attend::cli
