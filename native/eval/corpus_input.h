// Checks shared by the corpus metrics: parallel streams and per-line UTF-8 decoding.
#pragma once

#include <string>
#include <vector>

namespace attend::eval {

// Throws attend::Error(invalid_argument) with both sizes when the streams differ in length.
void check_parallel(const std::vector<std::string>& hyps, const std::vector<std::string>& refs);

// Decodes one line; on invalid UTF-8 throws attend::Error(invalid_input) naming the stream
// ("hypothesis" / "reference") and the 1-based line number.
std::u32string decode_line(const std::string& line, const char* stream, size_t index);

}  // namespace attend::eval
