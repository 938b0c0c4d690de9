#include "model/search_json.h"

#include <cmath>
#include <nlohmann/json.hpp>

#include "attend/error.h"
#include "model/json_depth.h"

namespace attend {
namespace {

[[noreturn]] void fail(const std::string& message) {
  throw Error(ErrorCode::invalid_model, "invalid model file: attend.search: " + message);
}

float read_number(const nlohmann::json& v, const std::string& key, float low, float high) {
  if (!v.is_number() || !std::isfinite(v.get<double>()) || v.get<double>() < low || v.get<double>() > high) {
    fail("'" + key + "' must be a number in [" + std::to_string(low) + ", " + std::to_string(high) + "], got " +
         v.dump().substr(0, 40));
  }
  return v.get<float>();
}

}  // namespace

SearchDefaults parse_search_defaults(const std::string& json_text) {
  constexpr int kMaxDepth = 4;
  if (json_nests_deeper_than(json_text, kMaxDepth)) fail("nests deeper than " + std::to_string(kMaxDepth));
  const auto j = nlohmann::json::parse(json_text, nullptr, /*allow_exceptions=*/false);
  if (j.is_discarded() || !j.is_object()) fail("not a JSON object");
  SearchDefaults d;
  for (const auto& [key, value] : j.items()) {
    if (key == "rules") {
      if (value != "attend" && value != "marian") fail("'rules' must be \"attend\" or \"marian\", got " + value.dump().substr(0, 40));
      d.marian_rules = value == "marian";
    } else if (key == "beam_size") {
      if (!value.is_number_integer() || value.get<int64_t>() < 1 || value.get<int64_t>() > kMaxBeamSize) {
        fail("'beam_size' must be an integer in [1, " + std::to_string(kMaxBeamSize) + "], got " + value.dump().substr(0, 40));
      }
      d.beam_size = value.get<int>();
    } else if (key == "max_length_ratio") {
      d.max_length_ratio = read_number(value, key, 0.f, 1000.f);
    } else if (key == "length_penalty") {
      d.length_penalty = read_number(value, key, 0.f, 10.f);
    } else if (key == "word_penalty") {
      d.word_penalty = read_number(value, key, -1000.f, 1000.f);
    } else if (key == "max_repeats") {
      if (!value.is_number_integer() || value.get<int64_t>() < 0 || value.get<int64_t>() > 1000) {
        fail("'max_repeats' must be an integer in [0, 1000], got " + value.dump().substr(0, 40));
      }
      d.max_repeats = value.get<int>();
    } else {
      fail("unknown key '" + key.substr(0, 40) + "'");
    }
  }
  return d;
}

}  // namespace attend
