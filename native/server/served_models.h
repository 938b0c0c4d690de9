// The models a server translates with, one per language pair (ModelInfo's languages), and the
// search each is decoded with: what the CLI would use with the same flags (SearchSettings).
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "attend/model.h"
#include "attend/translator.h"
#include "search_settings.h"

namespace attend::server {

struct ServedModel {
  std::string path;
  std::string source, target;  // ISO 639 codes from the file (attend.languages)
  std::shared_ptr<const Model> model;
  TranslateOptions options;  // the CLI's for these flags and this file (default_options and the flags given)
  int batch = 32;            // sentences decoded together
  // Whether sentences of different requests may be decoded together: not with a lexical
  // shortlist, whose tokens are chosen from the union over the batch (TranslateOptions::shortlist),
  // so the batch would change each request's answer.
  bool mixes_requests = true;
};

// The model file at `path`, loaded and searched as `attend translate` would with `settings`
// (its --model flags, and default_options where no flag names a search option).
ServedModel load_served_model(const std::string& path, const cli::SearchSettings& settings);

class ServedModels {
 public:
  // Throws attend::Error(invalid_argument) for a model naming no languages, or two for one pair.
  explicit ServedModels(std::vector<ServedModel> models);

  const std::vector<ServedModel>& all() const { return models_; }
  // The index of the pair's model, if served.
  std::optional<size_t> lookup(const std::string& source, const std::string& target) const;
  // The same, or ApiError 400 naming the pairs served.
  size_t find(const std::string& source, const std::string& target) const;
  std::string pair_list() const;  // "en-de, de-en"

 private:
  std::vector<ServedModel> models_;
};

}  // namespace attend::server
