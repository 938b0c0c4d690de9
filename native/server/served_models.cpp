#include "served_models.h"

#include "attend/error.h"
#include "files.h"
#include "http_exchange.h"

namespace attend::server {

ServedModel load_served_model(const std::string& path, const cli::SearchSettings& settings) {
  ServedModel served;
  served.path = path;
  served.model = cli::load_model(path, settings.model.options());
  cli::SearchSettings for_this_file = settings;
  for_this_file.use_model(*served.model);
  served.options = for_this_file.options;
  served.batch = for_this_file.batch;
  const ModelInfo info = served.model->info();
  served.source = info.source_language;
  served.target = info.target_language;
  served.mixes_requests = !(info.has_shortlist && served.options.shortlist);
  return served;
}

ServedModels::ServedModels(std::vector<ServedModel> models) : models_(std::move(models)) {
  for (size_t i = 0; i < models_.size(); ++i) {
    const ServedModel& m = models_[i];
    if (m.source.empty() || m.target.empty()) {
      throw Error(ErrorCode::invalid_argument, m.path + ": the model file names no languages (attend.languages), so no "
                                                        "request could choose it; add them with training/name_languages.py");
    }
    for (size_t j = 0; j < i; ++j) {
      if (models_[j].source == m.source && models_[j].target == m.target) {
        throw Error(ErrorCode::invalid_argument, m.path + " and " + models_[j].path + " both translate " + m.source + "-" +
                                                     m.target + "; serve one model per pair");
      }
    }
  }
}

std::optional<size_t> ServedModels::lookup(const std::string& source, const std::string& target) const {
  for (size_t i = 0; i < models_.size(); ++i) {
    if (models_[i].source == source && models_[i].target == target) return i;
  }
  return std::nullopt;
}

size_t ServedModels::find(const std::string& source, const std::string& target) const {
  if (const std::optional<size_t> found = lookup(source, target)) return *found;
  throw ApiError{400, source + "-" + target + " is not served (pairs: " + pair_list() + ")"};
}

std::string ServedModels::pair_list() const {
  std::string list;
  for (const ServedModel& m : models_) list += (list.empty() ? "" : ", ") + m.source + "-" + m.target;
  return list;
}

}  // namespace attend::server
