// A wrong command line: the CLI prints it as one line and exits with status 2.
#pragma once

#include <stdexcept>
#include <string>

namespace attend::cli {

class UsageError : public std::runtime_error {
 public:
  explicit UsageError(const std::string& message) : std::runtime_error(message) {}
};

}  // namespace attend::cli
