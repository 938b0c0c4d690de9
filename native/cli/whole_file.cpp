#include "whole_file.h"

#include <zlib.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <fstream>
#include <iterator>

#include "attend/error.h"

namespace attend::cli {
namespace {

constexpr unsigned char kGzipMagic[2] = {0x1f, 0x8b};
constexpr int kGzipWindowBits = 15 + 16;  // zlib: the largest window, gzip framing only
constexpr size_t kChunk = size_t{1} << 20;

bool gzip_at(const std::string& bytes, size_t at) {
  return bytes.size() - at >= 2 && std::memcmp(bytes.data() + at, kGzipMagic, 2) == 0;
}

std::string inflated(const std::string& compressed, const std::string& path) {
  const auto fail = [&](const std::string& why) { throw Error(ErrorCode::io, "cannot read '" + path + "': " + why); };
  z_stream stream{};
  if (inflateInit2(&stream, kGzipWindowBits) != Z_OK) fail("zlib could not start (out of memory)");
  std::string out;
  stream.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(compressed.data()));
  while (true) {
    const size_t left = compressed.size() - static_cast<size_t>(reinterpret_cast<const char*>(stream.next_in) - compressed.data());
    stream.avail_in = static_cast<uInt>(std::min<size_t>(left, kChunk));
    const size_t before = out.size();
    out.resize(before + kChunk);
    stream.next_out = reinterpret_cast<Bytef*>(&out[before]);
    stream.avail_out = static_cast<uInt>(kChunk);
    const int status = inflate(&stream, Z_NO_FLUSH);
    out.resize(before + kChunk - stream.avail_out);
    if (status == Z_STREAM_END) {
      const size_t next = static_cast<size_t>(reinterpret_cast<const char*>(stream.next_in) - compressed.data());
      if (!gzip_at(compressed, next)) break;  // the end, or trailing bytes
      inflateReset(&stream);
    } else if (status != Z_OK) {  // Z_BUF_ERROR: no input left before the member's end
      const std::string why = status == Z_BUF_ERROR && left == 0 ? "the gzip data ends early (truncated)"
                              : stream.msg != nullptr           ? stream.msg
                                                                : "damaged gzip data (zlib status " + std::to_string(status) + ")";
      inflateEnd(&stream);
      fail(why);
    }
  }
  inflateEnd(&stream);
  return out;
}

}  // namespace

std::string read_whole_file(const std::string& path) {
  errno = 0;
  std::ifstream in(path, std::ios::binary);
  if (!in) throw Error(ErrorCode::io, "cannot open '" + path + "': " + (errno ? std::strerror(errno) : "open failed"));
  std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  if (in.bad()) throw Error(ErrorCode::io, "cannot read '" + path + "'");
  return gzip_at(bytes, 0) ? inflated(bytes, path) : bytes;
}

}  // namespace attend::cli
