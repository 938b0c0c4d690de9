// Test entry for Node (run_wasm_test.mjs): C functions over attend::Tokenizer that work
// on whole files of '\n'-separated lines, in the text formats of spm_encode/spm_decode.
// Results and error messages are malloc'd strings the caller frees.
#include <emscripten/emscripten.h>

#include <cstdlib>
#include <cstring>
#include <sstream>
#include <string>
#include <string_view>

#include "attend/error.h"
#include "tokenizer/tokenizer.h"

namespace {

char* to_malloced(const std::string& text) {
  char* copy = static_cast<char*>(std::malloc(text.size() + 1));
  std::memcpy(copy, text.c_str(), text.size() + 1);
  return copy;
}

// Runs `call` on each line of `text`; the results, each followed by '\n', or null with
// *error set to "<error code>: <message>".
template <typename PerLine>
char* map_lines(std::string_view text, char** error, PerLine per_line) {
  try {
    std::string result;
    std::size_t start = 0;
    while (start < text.size()) {
      const std::size_t end = std::min(text.find('\n', start), text.size());
      result += per_line(text.substr(start, end - start));
      result += '\n';
      start = end + 1;
    }
    return to_malloced(result);
  } catch (const attend::Error& e) {
    *error = to_malloced(std::string(attend::error_code_name(e.code())) + ": " + e.what());
    return nullptr;
  }
}

}  // namespace

extern "C" {

EMSCRIPTEN_KEEPALIVE attend::Tokenizer* tokenizer_load(const char* bytes, std::size_t size,
                                                       char** error) {
  try {
    return new attend::Tokenizer(attend::Tokenizer::from_bytes({bytes, size}));
  } catch (const attend::Error& e) {
    *error = to_malloced(std::string(attend::error_code_name(e.code())) + ": " + e.what());
    return nullptr;
  }
}

EMSCRIPTEN_KEEPALIVE void tokenizer_free(attend::Tokenizer* tokenizer) { delete tokenizer; }

// Text lines -> lines of space-separated ids.
EMSCRIPTEN_KEEPALIVE char* tokenizer_encode_lines(const attend::Tokenizer* tokenizer,
                                                  const char* text, std::size_t size,
                                                  char** error) {
  return map_lines({text, size}, error, [&](std::string_view line) {
    std::string ids;
    for (const int id : tokenizer->encode(line)) {
      if (!ids.empty()) ids += ' ';
      ids += std::to_string(id);
    }
    return ids;
  });
}

// Lines of space-separated ids -> text lines.
EMSCRIPTEN_KEEPALIVE char* tokenizer_decode_lines(const attend::Tokenizer* tokenizer,
                                                  const char* text, std::size_t size,
                                                  char** error) {
  return map_lines({text, size}, error, [&](std::string_view line) {
    std::vector<int> ids;
    std::istringstream in{std::string(line)};
    for (int id; in >> id;) ids.push_back(id);
    return tokenizer->decode(ids);
  });
}

}  // extern "C"
