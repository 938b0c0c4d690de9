// The models a server translates with, one per language pair (ModelInfo's languages), or, for a
// multilingual model (OPUS-MT's, whose source vocabulary has a ">>xxx<<" token per language it
// writes), one per source language with a pair per token; and the search each is decoded with:
// what the CLI would use with the same flags (SearchSettings).
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "attend/model.h"
#include "attend/translator.h"
#include "search_settings.h"

namespace attend::server {

// A language a multilingual model writes: the code a request names it by, and the token the
// model reads before each sentence to write it (TranslateOptions::target_token).
struct TargetLanguage {
  std::string code;   // "fr" for ">>fra<<" and for ">>fr<<", "sr-Cyrl" for ">>srp_Cyrl<<"
  std::string token;  // ">>fra<<"
};

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
  // A multilingual model's languages, one per ">>xxx<<" token of its source vocabulary (in id
  // order), served in place of the file's target: the request's `target` chooses the token. Empty
  // for a model without such tokens, and when the server was given --target-token (that token for
  // every request, the file's pair served as for any model).
  std::vector<TargetLanguage> target_languages;
};

// The code a request names the language of a target token by: the token's language as ISO 639-1
// where it has such a code (cli::two_letter_code, ICU's: ">>fra<<" and ">>fr<<" are "fr"), else
// as written (">>gil<<": "gil"), and a script or region after an underscore kept after a hyphen
// (">>srp_Cyrl<<": "sr-Cyrl").
std::string target_language_code(std::string_view token);

// The languages of the model's target tokens (core's target_tokens, in id order), each with its
// code (target_language_code); a code two tokens share goes to the first, the other keeping the
// code as its token writes it (">>no<<" then ">>nor<<": "no" and "nor"), or, when that is taken
// too, the token itself.
std::vector<TargetLanguage> target_languages(const Model& model);

// The model file at `path`, loaded and searched as `attend translate` would with `settings`
// (its --model flags, and default_options where no flag names a search option).
ServedModel load_served_model(const std::string& path, const cli::SearchSettings& settings);

// One language pair a request can ask for, and how it is translated.
struct ServedPair {
  std::string source, target;
  size_t model = 0;          // in ServedModels::all()
  std::string target_token;  // a multilingual model's token for `target` (TargetLanguage), else empty
};

class ServedModels {
 public:
  // Throws attend::Error(invalid_argument) for a model naming no languages, or two models without
  // target tokens for one pair. A pair a multilingual model offers is served by the model of that
  // one pair when there is one, else by the first multilingual model given that writes it.
  explicit ServedModels(std::vector<ServedModel> models);

  const std::vector<ServedModel>& all() const { return models_; }
  // Every pair served: each model's in the order the models were given.
  const std::vector<ServedPair>& pairs() const { return pairs_; }
  // The pair, if served. `target` is the code /languages lists, or for a multilingual model's
  // language also its token's own code or the token (">>fra<<", "fra" as well as "fr").
  std::optional<ServedPair> lookup(const std::string& source, const std::string& target) const;
  // The same, or ApiError 400 naming the pairs served (for a source a multilingual model
  // translates, the languages it is translated into).
  ServedPair find(const std::string& source, const std::string& target) const;
  std::string pair_list() const;  // "en-de, de-en"

 private:
  std::vector<ServedModel> models_;
  std::vector<ServedPair> pairs_;
};

}  // namespace attend::server
