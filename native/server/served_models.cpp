#include "served_models.h"

#include <algorithm>

#include "attend/error.h"
#include "files.h"
#include "http_exchange.h"
#include "marian_files.h"
#include "pipeline/target_token.h"

namespace attend::server {

std::string target_language_code(std::string_view token) {
  std::string_view code = token;
  if (code.size() > 4 && code.substr(0, 2) == ">>" && code.substr(code.size() - 2) == "<<") code = code.substr(2, code.size() - 4);
  const size_t underscore = code.find('_');
  const std::string language(code.substr(0, underscore));
  std::string tag = cli::two_letter_code(language);
  if (underscore != std::string_view::npos) {
    std::string rest(code.substr(underscore + 1));
    std::replace(rest.begin(), rest.end(), '_', '-');
    tag += "-" + rest;
  }
  return tag;
}

std::vector<TargetLanguage> target_languages(const Model& model) {
  std::vector<TargetLanguage> languages;
  const auto taken = [&](const std::string& code) {
    return std::any_of(languages.begin(), languages.end(), [&](const TargetLanguage& l) { return l.code == code; });
  };
  for (std::string& token : target_tokens(model)) {
    std::string as_written = token.substr(2, token.size() - 4);
    std::replace(as_written.begin(), as_written.end(), '_', '-');
    std::string code = target_language_code(token);
    if (taken(code)) code = taken(as_written) ? token : as_written;
    languages.push_back({std::move(code), std::move(token)});
  }
  return languages;
}

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
  // A --target-token given to the server writes that one language for every request.
  if (served.options.target_token.empty()) served.target_languages = target_languages(*served.model);
  return served;
}

ServedModels::ServedModels(std::vector<ServedModel> models) : models_(std::move(models)) {
  for (size_t i = 0; i < models_.size(); ++i) {
    const ServedModel& m = models_[i];
    if (m.source.empty() || m.target.empty()) {
      throw Error(ErrorCode::invalid_argument, m.path + ": the model file names no languages (attend.languages), so no "
                                                        "request could choose it; add them with training/name_languages.py");
    }
    if (!m.target_languages.empty()) continue;
    for (size_t j = 0; j < i; ++j) {
      if (models_[j].target_languages.empty() && models_[j].source == m.source && models_[j].target == m.target) {
        throw Error(ErrorCode::invalid_argument, m.path + " and " + models_[j].path + " both translate " + m.source + "-" +
                                                     m.target + "; serve one model per pair");
      }
    }
  }
  // The models of one pair first, then each multilingual model's languages that none of them
  // (nor an earlier multilingual model) serves; listed in the order the models were given.
  std::vector<std::vector<ServedPair>> by_model(models_.size());
  std::vector<ServedPair> claimed;
  const auto is_claimed = [&](const std::string& source, const std::string& target) {
    return std::any_of(claimed.begin(), claimed.end(),
                       [&](const ServedPair& p) { return p.source == source && p.target == target; });
  };
  for (size_t i = 0; i < models_.size(); ++i) {
    const ServedModel& m = models_[i];
    if (!m.target_languages.empty()) continue;
    by_model[i].push_back({m.source, m.target, i, ""});
    claimed.push_back(by_model[i].back());
  }
  for (size_t i = 0; i < models_.size(); ++i) {
    const ServedModel& m = models_[i];
    for (const TargetLanguage& language : m.target_languages) {
      if (is_claimed(m.source, language.code)) continue;
      by_model[i].push_back({m.source, language.code, i, language.token});
      claimed.push_back(by_model[i].back());
    }
  }
  for (std::vector<ServedPair>& pairs : by_model) pairs_.insert(pairs_.end(), pairs.begin(), pairs.end());
}

std::optional<ServedPair> ServedModels::lookup(const std::string& source, const std::string& target) const {
  for (const ServedPair& pair : pairs_) {
    if (pair.source == source && pair.target == target) return pair;
  }
  // A multilingual model's language named by its token (">>fra<<") or the token's own code ("fra").
  for (const ServedPair& pair : pairs_) {
    if (pair.source != source || pair.target_token.empty()) continue;
    const std::string& token = pair.target_token;
    if (target == token || ">>" + target + "<<" == token) return pair;
  }
  return std::nullopt;
}

ServedPair ServedModels::find(const std::string& source, const std::string& target) const {
  if (const std::optional<ServedPair> found = lookup(source, target)) return *found;
  const bool multilingual = std::any_of(pairs_.begin(), pairs_.end(),
                                        [&](const ServedPair& p) { return p.source == source && !p.target_token.empty(); });
  if (multilingual) {
    // The languages the source is translated into: a multilingual model's may be many.
    std::string targets;
    for (const ServedPair& p : pairs_) {
      if (p.source == source) targets += (targets.empty() ? "" : ", ") + p.target;
    }
    throw ApiError{400, source + "-" + target.substr(0, 60) + " is not served: " + source +
                            " is translated into " + targets};
  }
  throw ApiError{400, source + "-" + target + " is not served (pairs: " + pair_list() + ")"};
}

std::string ServedModels::pair_list() const {
  std::string list;
  for (const ServedPair& p : pairs_) list += (list.empty() ? "" : ", ") + p.source + "-" + p.target;
  return list;
}

}  // namespace attend::server
