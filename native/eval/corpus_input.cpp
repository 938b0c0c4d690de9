// Input checks shared by the corpus metrics.
#include "corpus_input.h"

#include "attend/error.h"
#include "utf8.h"

namespace attend::eval {

void check_parallel(const std::vector<std::string>& hyps, const std::vector<std::string>& refs) {
  if (hyps.size() != refs.size()) {
    throw Error(ErrorCode::invalid_argument,
                "hypothesis and reference streams differ in length: " +
                    std::to_string(hyps.size()) + " vs " + std::to_string(refs.size()) +
                    " lines");
  }
}

std::u32string decode_line(const std::string& line, const char* stream, size_t index) {
  try {
    return utf8_decode(line);
  } catch (const Error& error) {
    throw Error(error.code(),
                std::string(stream) + " line " + std::to_string(index + 1) + ": " + error.what());
  }
}

}  // namespace attend::eval
