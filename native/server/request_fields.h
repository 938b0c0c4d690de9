// The fields of an API request, as LibreTranslate takes them: a JSON object body, or form
// fields (query string, urlencoded or multipart body). Each getter checks the field's type and
// range and throws ApiError 400 naming the field.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "http_exchange.h"

namespace attend::server {

// JSON bodies nested deeper than this are refused before parsing (nlohmann's parser recurses).
inline constexpr int kMaxJsonDepth = 16;

class RequestFields {
 public:
  // A body whose Content-Type is JSON (or that starts with '{' without a form Content-Type) is
  // read as a JSON object; otherwise request.form is used. Throws ApiError 400 for JSON that does
  // not parse, is not an object or nests too deep.
  static RequestFields of(const HttpRequest& request);

  bool has(const std::string& name) const;
  // The field's text; throws when it is missing (`missing` is then the message) or not a string.
  std::string text(const std::string& name) const;
  std::string text_or(const std::string& name, const std::string& fallback) const;
  // q: one string, or an array of strings (JSON) / the field repeated (form). *as_array says which.
  std::vector<std::string> texts(const std::string& name, bool* as_array) const;
  // A whole number in [low, high]; a form field or JSON string holding one is taken too.
  int number_or(const std::string& name, int fallback, int low, int high) const;
  bool flag_or(const std::string& name, bool fallback) const;

 private:
  std::optional<nlohmann::json> json_;  // the body's object, or none: form fields
  std::vector<std::pair<std::string, std::string>> form_;
};

}  // namespace attend::server
