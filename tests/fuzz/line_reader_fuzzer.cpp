// Any bytes as the CLI's input file, read line by line (ready() asked before every line, as
// `attend translate` does). Plain text must come back exactly: the input cut at '\n', one '\r'
// before each cut removed. gzip input (its first two bytes) may instead fail, with io only.
#include <sys/mman.h>
#include <unistd.h>

#include <string>

#include "fuzz_support.h"
#include "line_reader.h"

namespace {

// The lines LineReader must return for plain text.
std::vector<std::string> expected_lines(std::string_view text) {
  std::vector<std::string> lines = attend::fuzz::split_lines(text);
  for (std::string& line : lines) {
    if (!line.empty() && line.back() == '\r') line.pop_back();
  }
  return lines;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const int fd = memfd_create("line_reader_fuzz", MFD_CLOEXEC);
  attend::fuzz::require(fd >= 0, "memfd_create failed");
  attend::fuzz::require(write(fd, data, size) == static_cast<ssize_t>(size), "cannot write the input");
  const std::string path = "/proc/self/fd/" + std::to_string(fd);
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  const bool gzip = size >= 2 && data[0] == 0x1f && data[1] == 0x8b;
  std::vector<std::string> lines;
  try {
    attend::cli::LineReader reader(path);
    std::string line;
    for (;;) {
      reader.ready();  // must not lose or reorder what next() returns
      if (!reader.next(&line)) break;
      lines.push_back(line);
    }
    if (!gzip) attend::fuzz::require(lines == expected_lines(text), "plain text did not come back line for line");
  } catch (const attend::Error& e) {
    attend::fuzz::require(gzip, "plain text failed to read");
    attend::fuzz::require_code(e, {attend::ErrorCode::io}, "LineReader on gzip");
  }
  close(fd);
  return 0;
}
