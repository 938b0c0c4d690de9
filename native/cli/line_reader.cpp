// Line reading through zlib's gz* functions, which read plain and gzip files alike.
#include "line_reader.h"

#include <unistd.h>
#include <zlib.h>

#include <cerrno>
#include <cstring>

#include "attend/error.h"

namespace attend::cli {

namespace {

constexpr size_t kBufferBytes = 1 << 16;

std::string display_name(const std::string& path) { return path == "-" ? "stdin" : path; }

}  // namespace

LineReader::LineReader(const std::string& path) : path_(path), buffer_(kBufferBytes) {
  errno = 0;
  file_ = path == "-" ? gzdopen(dup(STDIN_FILENO), "rb") : gzopen(path.c_str(), "rb");
  if (file_ == nullptr) {
    throw Error(ErrorCode::io, "cannot open '" + display_name(path) +
                                   "': " + (errno != 0 ? std::strerror(errno) : "out of memory"));
  }
}

LineReader::~LineReader() { gzclose(file_); }

bool LineReader::fill() {
  int count = gzread(file_, buffer_.data(), static_cast<unsigned>(buffer_.size()));
  int code = Z_OK;
  const char* message = gzerror(file_, &code);
  // gzread returns what it could and records a truncated stream as Z_BUF_ERROR without
  // failing, so the status is checked on every read, not only on a negative count.
  if (count < 0 || code != Z_OK) {
    throw Error(ErrorCode::io, "cannot read '" + display_name(path_) +
                                   "': " + (code == Z_ERRNO ? std::strerror(errno) : message));
  }
  begin_ = 0;
  end_ = static_cast<size_t>(count);
  return count > 0;
}

bool LineReader::next(std::string* line) {
  line->clear();
  bool any = false;
  for (;;) {
    if (begin_ == end_ && !fill()) break;
    any = true;
    const char* start = buffer_.data() + begin_;
    const void* newline = std::memchr(start, '\n', end_ - begin_);
    if (newline != nullptr) {
      size_t length = static_cast<const char*>(newline) - start;
      line->append(start, length);
      begin_ += length + 1;
      break;
    }
    line->append(start, end_ - begin_);
    begin_ = end_;
  }
  if (!line->empty() && line->back() == '\r') line->pop_back();
  return any;
}

std::vector<std::string> read_lines(const std::string& path) {
  LineReader reader(path);
  std::vector<std::string> lines;
  std::string line;
  while (reader.next(&line)) lines.push_back(line);
  return lines;
}

}  // namespace attend::cli
