// Plain text is read with read(2), which returns what has arrived; gzip is inflated with
// zlib from the same reads (gzread would wait to fill its whole buffer).
#include "line_reader.h"

#include <fcntl.h>
#include <poll.h>
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
  if (ended_) return 0;  // a terminal's Ctrl-D ends the input once, not once per read
  for (;;) {
    const ssize_t count = read(fd_, into, size);
    if (count > 0) return static_cast<size_t>(count);
    if (count == 0) {
      ended_ = true;
      return 0;
    }
    if (errno != EINTR) fail(std::strerror(errno));
  }
}

bool LineReader::line_buffered() const {
  return std::memchr(text_.data() + begin_, '\n', end_ - begin_) != nullptr;
}

bool LineReader::input_waiting() const {
  pollfd input{fd_, POLLIN, 0};
  return poll(&input, 1, 0) != 0;  // readable, at its end, or an error next() will report
}

// Plain text: while more has arrived, it is read after the partial line (moved to the front
// of the buffer, which grows for a line longer than it) until a line ends; read(2) returns
// what has arrived without waiting, as poll said. A line still partial waits for its end: the
// caller answers the lines it has first.
bool LineReader::ready() {
  if (ended_ || line_buffered()) return true;
  if (format_ == Format::gzip) return stream_.avail_in > 0 || input_waiting();
  while (input_waiting()) {
    std::memmove(text_.data(), text_.data() + begin_, end_ - begin_);
    end_ -= begin_;
    begin_ = 0;
    if (end_ == text_.size()) text_.resize(2 * text_.size());
    end_ += read_some(text_.data() + end_, text_.size() - end_);
    if (ended_ || line_buffered()) return true;
  }
  return false;
}

// The first byte decides unless it is gzip's first (then the second does); those bytes are
// kept as the first text, or as the first compressed input.
void LineReader::detect_format() {
  size_t got = read_some(compressed_.data(), 1);
  if (got == 1 && static_cast<unsigned char>(compressed_[0]) == kGzipMagic[0]) {
    got += read_some(compressed_.data() + 1, 1);
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
  while (end_ == 0 && !(between_members_ && ended_ && stream_.avail_in == 0)) inflate_some();
  return end_ > 0;
}

bool LineReader::compressed_bytes(size_t count) {
  if (stream_.avail_in >= count) return true;
  std::memmove(compressed_.data(), stream_.next_in, stream_.avail_in);  // unread bytes to the front
  stream_.next_in = reinterpret_cast<Bytef*>(compressed_.data());
  while (stream_.avail_in < count) {
    const size_t got = read_some(compressed_.data() + stream_.avail_in, compressed_.size() - stream_.avail_in);
    if (got == 0) return false;
    stream_.avail_in += static_cast<uInt>(got);
  }
  return true;
}

// One inflate call over what has arrived, reading more first if nothing is waiting. Members of
// a multi-member gzip file (pigz, bgzip) follow one another; bytes after a member that do not
// start with gzip's magic are ignored, as gzread does, and any error inside a member is one.
void LineReader::inflate_some() {
  if (between_members_) {
    if (!compressed_bytes(2) || std::memcmp(stream_.next_in, kGzipMagic, 2) != 0) {
      stream_.avail_in = 0;  // the end, or trailing bytes
      ended_ = true;
      return;
    }
    between_members_ = false;
  }
  if (!compressed_bytes(1)) fail("the gzip data ends early (truncated)");
  stream_.next_out = reinterpret_cast<Bytef*>(text_.data());
  stream_.avail_out = static_cast<uInt>(text_.size());
  const int status = inflate(&stream_, Z_NO_FLUSH);
  end_ = text_.size() - stream_.avail_out;
  if (status == Z_STREAM_END) {
    inflateReset(&stream_);
    between_members_ = true;
  } else if (status != Z_OK) {
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
