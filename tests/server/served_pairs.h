// What the server's tests share: the shipped en-de and de-en models served with the CLI's
// default flags, as `attend serve --model models/en-de/... --model models/de-en/...` serves them,
// and Multi30k test lines.
#pragma once

#include <string>
#include <vector>

#include "line_reader.h"
#include "search_settings.h"
#include "served_models.h"

namespace attend::server::testing {

// The CLI's flags: `attend translate --model FILE` with `extra` settings applied by the caller.
inline cli::SearchSettings cli_defaults() { return cli::SearchSettings{}; }

inline ServedModels en_de_and_de_en(const cli::SearchSettings& settings = cli_defaults()) {
  return ServedModels({load_served_model(std::string(ATTEND_MODELS_DIR) + "/en-de/model.int8.safetensors", settings),
                       load_served_model(std::string(ATTEND_MODELS_DIR) + "/de-en/model.int8.safetensors", settings)});
}

// The first `count` lines of Multi30k's test_2016_flickr in `language`.
inline std::vector<std::string> multi30k_lines(const std::string& language, size_t count) {
  cli::LineReader reader(std::string(ATTEND_MULTI30K_DIR) + "/test_2016_flickr." + language + ".gz");
  std::vector<std::string> lines;
  std::string line;
  while (lines.size() < count && reader.next(&line)) lines.push_back(line);
  return lines;
}

}  // namespace attend::server::testing
