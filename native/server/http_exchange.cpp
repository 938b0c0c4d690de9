#include "http_exchange.h"

namespace attend::server {

std::string HttpRequest::header(const std::string& lowercase_name) const {
  const auto found = headers.find(lowercase_name);
  return found == headers.end() ? std::string() : found->second;
}

}  // namespace attend::server
