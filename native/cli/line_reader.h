// Reads text lines from a file, a gzip file (recognised by its first two bytes) or stdin
// ("-"), one at a time, so input of any size streams: a line is returned as soon as it has
// arrived, not when a buffer has filled (a program that writes one line to `attend translate`
// and waits for its translation gets it). Line ends (\n, \r\n) are removed.
#pragma once

#include <zlib.h>

#include <string>
#include <vector>

namespace attend::cli {

class LineReader {
 public:
  explicit LineReader(const std::string& path);  // throws attend::Error(io)
  ~LineReader();
  LineReader(const LineReader&) = delete;
  LineReader& operator=(const LineReader&) = delete;

  bool next(std::string* line);  // false at the end; throws attend::Error(io) on a read error

 private:
  size_t read_some(char* into, size_t size);  // what read(2) gives at once; 0 at the end
  void detect_format();                       // on the first fill: gzip or plain text
  bool fill();                                // refills text_; false at the end
  void inflate_some();
  [[noreturn]] void fail(const std::string& reason) const;

  enum class Format { unknown, plain, gzip };
  std::string path_;
  int fd_ = -1;
  Format format_ = Format::unknown;
  z_stream stream_{};
  bool in_member_ = false;  // gzip: inside a member (the input may not end here)
  int members_done_ = 0;
  bool finished_ = false;
  std::vector<char> compressed_, text_;
  size_t begin_ = 0, end_ = 0;  // the unread text in text_
};

std::vector<std::string> read_lines(const std::string& path);

}  // namespace attend::cli
