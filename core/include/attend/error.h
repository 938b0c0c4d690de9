// Errors thrown by the core. Everything inside the library throws attend::Error; the
// boundaries (CLI, WebAssembly bindings) catch it and turn it into a status and message.
#pragma once

#include <stdexcept>
#include <string>

namespace attend {

enum class ErrorCode {
  invalid_argument,  // a wrong option or call (beam 0, unknown head, ...)
  invalid_model,     // a damaged or unsupported model file
  invalid_input,     // input text the core cannot take (invalid UTF-8, too long, ...)
  empty_input,       // input text with nothing to translate (empty, or only whitespace of any kind)
  io,                // a file could not be read
  out_of_memory,     // an allocation failed
  cancelled,         // a caller's callback asked to stop
  device_unavailable,  // the chosen device cannot run: no CUDA device, its driver too old, or a build without it
};

inline const char* error_code_name(ErrorCode code) {
  switch (code) {
    case ErrorCode::invalid_argument: return "invalid_argument";
    case ErrorCode::invalid_model: return "invalid_model";
    case ErrorCode::invalid_input: return "invalid_input";
    case ErrorCode::empty_input: return "empty_input";
    case ErrorCode::io: return "io";
    case ErrorCode::out_of_memory: return "out_of_memory";
    case ErrorCode::cancelled: return "cancelled";
    case ErrorCode::device_unavailable: return "device_unavailable";
  }
  return "unknown";
}

class Error : public std::runtime_error {
 public:
  Error(ErrorCode code, const std::string& message)
      : std::runtime_error(message), code_(code) {}
  ErrorCode code() const noexcept { return code_; }

 private:
  ErrorCode code_;
};

}  // namespace attend
