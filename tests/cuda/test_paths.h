// Paths the tests read: the build's, unless the environment names others (scripts/gpu-check.sh
// runs the test binaries from a bundle: ATTEND_TEST_MODEL, ATTEND_TEST_SOURCES).
#pragma once

#include <cstdlib>
#include <string>

namespace attend {

inline std::string test_path(const char* variable, const char* built_in) {
  const char* value = std::getenv(variable);
  return value && *value ? value : built_in;
}

}  // namespace attend
