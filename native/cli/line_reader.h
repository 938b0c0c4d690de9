// Reads text lines from a file, a gzip file (any file zlib recognises as gzip) or stdin
// ("-"), one at a time, so input of any size streams. Line ends (\n, \r\n) are removed.
#pragma once

#include <string>
#include <vector>

struct gzFile_s;

namespace attend::cli {

class LineReader {
 public:
  explicit LineReader(const std::string& path);  // throws attend::Error(io)
  ~LineReader();
  LineReader(const LineReader&) = delete;
  LineReader& operator=(const LineReader&) = delete;

  bool next(std::string* line);  // false at the end; throws attend::Error(io) on a read error

 private:
  bool fill();

  std::string path_;
  gzFile_s* file_ = nullptr;
  std::vector<char> buffer_;
  size_t begin_ = 0, end_ = 0;
};

std::vector<std::string> read_lines(const std::string& path);

}  // namespace attend::cli
