// Reads text lines from a file, a gzip file (recognised by its first two bytes) or stdin
// ("-"), one at a time, so input of any size streams: a line is returned as soon as it has
// arrived, not when a buffer has filled, and ready() tells whether another can be read without
// waiting (so `attend translate` answers a line a program wrote, then waits for the next, at any
// --batch). Line ends (\n, \r\n) are removed.
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
  // Whether next() would return without waiting for more input: a whole line has arrived
  // (plain text: what the input holds now is read to see), or the input has ended. gzip:
  // compressed bytes that have arrived count as a line (they are not inflated to see).
  bool ready();

 private:
  size_t read_some(char* into, size_t size);  // what read(2) gives at once; 0 at the end
  bool compressed_bytes(size_t count);        // at least count unread compressed bytes; false at the end
  void detect_format();                       // on the first fill: gzip or plain text
  bool fill();                                // refills text_; false at the end
  void inflate_some();
  bool line_buffered() const;  // a '\n' in the unread text
  bool input_waiting() const;  // read(2) would not wait
  [[noreturn]] void fail(const std::string& reason) const;

  enum class Format { unknown, plain, gzip };
  std::string path_;
  int fd_ = -1;
  Format format_ = Format::unknown;
  z_stream stream_{};
  bool between_members_ = true;  // gzip: before a member's header (the input may end here)
  bool ended_ = false;           // no more input: read(2) gave 0, or only bytes after the last member remain
  std::vector<char> compressed_, text_;
  size_t begin_ = 0, end_ = 0;  // the unread text in text_
};

std::vector<std::string> read_lines(const std::string& path);

}  // namespace attend::cli
