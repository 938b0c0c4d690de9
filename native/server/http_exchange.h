// A request and its answer as the routes see them, without sockets: the HTTP library fills an
// HttpRequest and writes out the HttpResponse (http_listener.cpp), and the unit tests and the
// fuzzer call the routes with their own.
#pragma once

#include <map>
#include <string>
#include <utility>
#include <vector>

namespace attend::server {

struct HttpRequest {
  std::string method;  // "GET", "POST", "OPTIONS", ...
  std::string path;    // without the query string
  std::map<std::string, std::string> headers;  // names in lowercase
  std::string body;
  // Form fields, from the query string, an application/x-www-form-urlencoded body or a
  // multipart/form-data body, in order; a name may repeat (an array of q).
  std::vector<std::pair<std::string, std::string>> form;

  // The header's value, or "" when absent.
  std::string header(const std::string& lowercase_name) const;
};

struct HttpResponse {
  int status = 200;
  std::string content_type = "application/json";
  std::string body;
  std::vector<std::pair<std::string, std::string>> headers;
};

// What a route throws to answer with an error: LibreTranslate's {"error": message}.
struct ApiError {
  int status = 400;
  std::string message;
  int retry_after_seconds = 0;  // > 0: a Retry-After header (503 when the queue is full)
};

}  // namespace attend::server
