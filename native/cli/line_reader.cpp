// Plain text is read with read(2), which returns what has arrived; gzip is inflated with
// zlib from the same reads (gzread would wait to fill its whole buffer).
#include "line_reader.h"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "attend/error.h"

namespace attend::cli {

namespace {

constexpr size_t kBufferBytes = 1 << 16;
constexpr unsigned char kGzipMagic[2] = {0x1f, 0x8b};
constexpr int kGzipWindowBits = 15 + 16;  // zlib: the largest window, gzip framing only

std::string display_name(const std::string& path) { return path == "-" ? "stdin" : path; }

}  // namespace

LineReader::LineReader(const std::string& path)
    : path_(path), compressed_(kBufferBytes), text_(kBufferBytes) {
  fd_ = path == "-" ? STDIN_FILENO : open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd_ < 0) throw Error(ErrorCode::io, "cannot open '" + display_name(path) + "': " + std::strerror(errno));
}

LineReader::~LineReader() {
  if (format_ == Format::gzip) inflateEnd(&stream_);
  if (fd_ != STDIN_FILENO) close(fd_);
}

void LineReader::fail(const std::string& reason) const {
  throw Error(ErrorCode::io, "cannot read '" + display_name(path_) + "': " + reason);
}

size_t LineReader::read_some(char* into, size_t size) {
  for (;;) {
    const ssize_t count = read(fd_, into, size);
    if (count >= 0) return static_cast<size_t>(count);
    if (errno != EINTR) fail(std::strerror(errno));
  }
}

// Two bytes decide the format (a pipe may deliver them one at a time); they are kept as the
// first text, or as the first compressed input.
void LineReader::detect_format() {
  size_t got = 0;
  while (got < 2) {
    const size_t count = read_some(compressed_.data() + got, 2 - got);
    if (count == 0) break;
    got += count;
  }
  if (got < 2 || std::memcmp(compressed_.data(), kGzipMagic, 2) != 0) {
    format_ = Format::plain;
    std::memcpy(text_.data(), compressed_.data(), got);
    end_ = got;
    return;
  }
  if (inflateInit2(&stream_, kGzipWindowBits) != Z_OK) fail("zlib could not start (out of memory)");
  format_ = Format::gzip;
  stream_.next_in = reinterpret_cast<Bytef*>(compressed_.data());
  stream_.avail_in = static_cast<uInt>(got);
}

bool LineReader::fill() {
  begin_ = end_ = 0;
  if (format_ == Format::unknown) {
    detect_format();
    if (end_ > 0) return true;
  }
  if (format_ == Format::plain) {
    end_ = read_some(text_.data(), text_.size());
    return end_ > 0;
  }
  while (end_ == 0 && !finished_) inflate_some();
  return end_ > 0;
}

// One inflate call over what has arrived, reading more first if nothing is waiting. Members of
// a multi-member gzip file follow one another; bytes after a member that do not start another
// are ignored, as gzread does.
void LineReader::inflate_some() {
  if (stream_.avail_in == 0) {
    const size_t count = read_some(compressed_.data(), compressed_.size());
    if (count == 0) {
      if (in_member_ || members_done_ == 0) fail("the gzip data ends early (truncated)");
      finished_ = true;
      return;
    }
    stream_.next_in = reinterpret_cast<Bytef*>(compressed_.data());
    stream_.avail_in = static_cast<uInt>(count);
  }
  stream_.next_out = reinterpret_cast<Bytef*>(text_.data());
  stream_.avail_out = static_cast<uInt>(text_.size());
  const int status = inflate(&stream_, Z_NO_FLUSH);
  end_ = text_.size() - stream_.avail_out;
  if (status == Z_STREAM_END) {
    in_member_ = false;
    ++members_done_;
    inflateReset(&stream_);
  } else if (status == Z_DATA_ERROR && members_done_ > 0 && !in_member_) {
    finished_ = true;  // not another member's header: trailing bytes
  } else if (status == Z_OK) {
    in_member_ = true;
  } else {
    fail(stream_.msg != nullptr ? stream_.msg : "damaged gzip data (zlib status " + std::to_string(status) + ")");
  }
}

bool LineReader::next(std::string* line) {
  line->clear();
  bool any = false;
  for (;;) {
    if (begin_ == end_ && !fill()) break;
    any = true;
    const char* start = text_.data() + begin_;
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
