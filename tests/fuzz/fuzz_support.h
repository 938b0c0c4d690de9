// What the fuzz targets share: reading their fixtures, splitting an input, and the oracle that
// turns a wrong outcome into a crash libFuzzer reports (an exception other than attend::Error,
// an attend::Error of a code the API does not promise, a broken invariant).
#pragma once

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <initializer_list>
#include <iterator>
#include <string>
#include <string_view>
#include <vector>

#include "attend/error.h"

namespace attend::fuzz {

[[noreturn]] inline void fail(const std::string& what) {
  std::fprintf(stderr, "fuzz oracle: %s\n", what.c_str());
  std::abort();
}

inline void require(bool condition, const char* what) {
  if (!condition) fail(what);
}

// The file named by environment variable `name` (the ctest sets it), whole.
inline std::vector<uint8_t> read_fixture(const char* name) {
  const char* path = std::getenv(name);
  if (!path) fail(std::string("set ") + name + " (the ctest does)");
  std::ifstream in(path, std::ios::binary);
  if (!in) fail(std::string("cannot read ") + path);
  return std::vector<uint8_t>((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
}

// Aborts unless `error` carries one of the codes `where` may throw.
inline void require_code(const Error& error, std::initializer_list<ErrorCode> allowed, const char* where) {
  for (ErrorCode code : allowed) {
    if (error.code() == code) return;
  }
  fail(std::string(where) + " threw " + error_code_name(error.code()) + ": " + error.what());
}

// `text` cut at every '\n' (a trailing newline ends the last line; it starts no new one).
inline std::vector<std::string> split_lines(std::string_view text) {
  std::vector<std::string> lines;
  size_t start = 0;
  while (start < text.size()) {
    size_t end = text.find('\n', start);
    if (end == std::string_view::npos) end = text.size();
    lines.emplace_back(text.substr(start, end - start));
    start = end + 1;
  }
  return lines;
}

}  // namespace attend::fuzz
