// Opening the files a command names, with errors that say which file and why.
#pragma once

#include <fstream>
#include <memory>
#include <string>
#include <vector>

#include "attend/model.h"

namespace attend::cli {

class OptionParser;

// The models a command translates with: --model once, or several times for an ensemble
// (Model::ensemble) with --weights and --attention-member.
struct ModelChoice {
  std::vector<std::string> paths;
  std::string weights;       // "W1,W2,...", one per --model; empty: equal
  int attention_member = 1;  // counted from 1 on the command line

  // Adds --model (repeatable, required unless `optional`), --weights and --attention-member.
  void add_to(OptionParser& parser, const std::string& help, bool optional = false);
  std::string path_text() const;  // the paths joined by " + "
  // One model, or the ensemble of them; throws attend::Error naming the file or the weights.
  std::shared_ptr<const Model> load(const ModelOptions& options) const;
};

// The config of the model whose attention is shown and masked: an ensemble's attention member's.
const ModelConfig& attention_config(const Model& model);

// Throws attend::Error whose message starts with the model's path.
std::shared_ptr<const Model> load_model(const std::string& path, const ModelOptions& options = {});

// Opens (truncates) a file for writing; throws attend::Error(io).
void open_output(std::ofstream& out, const std::string& path);
// Throws what open_output would, without truncating the file (it is created if missing).
void check_writable(const std::string& path);

// Throws attend::Error(io) if writing to the stream failed (disk full, closed pipe, ...).
void check_written(std::ostream& out, const std::string& name);

}  // namespace attend::cli
