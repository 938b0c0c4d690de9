#include "request_fields.h"

#include <cerrno>
#include <cstdlib>

#include "model/json_depth.h"

namespace attend::server {
namespace {

ApiError bad_request(const std::string& message) { return ApiError{400, message}; }

bool is_json_body(const HttpRequest& request) {
  const std::string type = request.header("content-type");
  if (type.rfind("application/json", 0) == 0) return true;
  const bool form_type = type.rfind("application/x-www-form-urlencoded", 0) == 0 || type.rfind("multipart/form-data", 0) == 0;
  const size_t first = request.body.find_first_not_of(" \t\r\n");
  return !form_type && first != std::string::npos && request.body[first] == '{';
}

}  // namespace

RequestFields RequestFields::of(const HttpRequest& request) {
  RequestFields fields;
  fields.form_ = request.form;
  if (!is_json_body(request)) return fields;
  if (json_nests_deeper_than(request.body, kMaxJsonDepth)) {
    throw bad_request("Invalid request: the JSON body nests more than " + std::to_string(kMaxJsonDepth) + " levels deep");
  }
  nlohmann::json body = nlohmann::json::parse(request.body, nullptr, /*allow_exceptions=*/false);
  if (body.is_discarded()) throw bad_request("Invalid request: the body is not valid JSON");
  if (!body.is_object()) throw bad_request("Invalid request: the JSON body must be an object");
  fields.json_ = std::move(body);
  return fields;
}

bool RequestFields::has(const std::string& name) const {
  if (json_) return json_->contains(name) && !(*json_)[name].is_null();
  for (const auto& [key, value] : form_) {
    if (key == name) return true;
  }
  return false;
}

std::string RequestFields::text(const std::string& name) const {
  if (!has(name)) throw bad_request("Invalid request: missing " + name + " parameter");
  if (json_) {
    const nlohmann::json& value = (*json_)[name];
    if (!value.is_string()) throw bad_request("Invalid request: " + name + " must be a string");
    return value.get<std::string>();
  }
  for (const auto& [key, value] : form_) {
    if (key == name) return value;
  }
  return {};
}

std::string RequestFields::text_or(const std::string& name, const std::string& fallback) const {
  return has(name) ? text(name) : fallback;
}

std::vector<std::string> RequestFields::texts(const std::string& name, bool* as_array) const {
  if (!has(name)) throw bad_request("Invalid request: missing " + name + " parameter");
  std::vector<std::string> values;
  if (json_) {
    const nlohmann::json& value = (*json_)[name];
    *as_array = value.is_array();
    if (!*as_array) return {text(name)};
    for (const nlohmann::json& item : value) {
      if (!item.is_string()) throw bad_request("Invalid request: every item of " + name + " must be a string");
      values.push_back(item.get<std::string>());
    }
    return values;
  }
  for (const auto& [key, value] : form_) {
    if (key == name) values.push_back(value);
  }
  *as_array = values.size() > 1;
  return values;
}

int RequestFields::number_or(const std::string& name, int fallback, int low, int high) const {
  if (!has(name)) return fallback;
  const std::string range = " must be a whole number from " + std::to_string(low) + " to " + std::to_string(high);
  long long number = 0;
  const nlohmann::json* value = json_ ? &(*json_)[name] : nullptr;
  if (value && value->is_number_integer()) {
    number = value->get<long long>();
  } else if (value && !value->is_string()) {
    throw bad_request("Invalid request: " + name + range);
  } else {
    const std::string written = text(name);
    char* end = nullptr;
    errno = 0;
    number = std::strtoll(written.c_str(), &end, 10);
    if (written.empty() || *end != '\0' || errno == ERANGE) throw bad_request("Invalid request: " + name + range);
  }
  if (number < low || number > high) throw bad_request("Invalid request: " + name + range);
  return static_cast<int>(number);
}

bool RequestFields::flag_or(const std::string& name, bool fallback) const {
  if (!has(name)) return fallback;
  if (json_ && (*json_)[name].is_boolean()) return (*json_)[name].get<bool>();
  const std::string written = text(name);
  if (written == "true" || written == "1") return true;
  if (written == "false" || written == "0") return false;
  throw bad_request("Invalid request: " + name + " must be true or false");
}

}  // namespace attend::server
