#include "import/marian_npz.h"

#ifndef __EMSCRIPTEN__
#include <zlib.h>  // inflate; the WebAssembly build has no zlib and reads stored entries, as Marian writes them
#endif

#include <algorithm>
#include <array>
#include <cstring>
#include <limits>
#include <set>

#include "attend/error.h"

namespace attend {
namespace {

constexpr uint32_t kLocalHeader = 0x04034b50, kCentralHeader = 0x02014b50, kEndOfCentral = 0x06054b50;
constexpr uint32_t kZip64End = 0x06064b50, kZip64Locator = 0x07064b50;
constexpr size_t kLocalHeaderBytes = 30, kCentralHeaderBytes = 46, kEndBytes = 22, kZip64LocatorBytes = 20;
constexpr uint64_t kMaxDeflateRatio = 1032;  // deflate writes at most 258 bytes in 2 bits
constexpr uint64_t kMaxRank = 8;
constexpr std::string_view kSpecial = "special:";

class Npz {
 public:
  Npz(std::string_view bytes, std::string_view file_name) : bytes_(bytes), file_name_(file_name) {}

  [[noreturn]] void fail(const std::string& what) const {
    throw Error(ErrorCode::invalid_model, file_name_ + ": not a Marian .npz model: " + what);
  }

  // `length` bytes at `at`, which the file must hold.
  std::string_view at(uint64_t offset, uint64_t length, const std::string& what) const {
    if (offset > bytes_.size() || length > bytes_.size() - offset) {
      fail(what + " needs " + std::to_string(length) + " bytes at offset " + std::to_string(offset) + ", the file has " +
           std::to_string(bytes_.size()));
    }
    return bytes_.substr(static_cast<size_t>(offset), static_cast<size_t>(length));
  }

  template <typename T>
  static T number(std::string_view bytes, size_t offset) {
    T value;
    std::memcpy(&value, bytes.data() + offset, sizeof(T));  // little-endian hosts only (x86, wasm), as zip is
    return value;
  }

  std::string_view bytes() const { return bytes_; }

 private:
  std::string_view bytes_;
  std::string file_name_;
};

struct Entry {
  std::string name;
  uint16_t flags = 0, method = 0;
  uint32_t crc = 0;
  uint64_t compressed = 0, size = 0, offset = 0;
};

struct Directory {
  uint64_t entries = 0, size = 0, offset = 0;
};

// The end of central directory record: the last 22 bytes but a comment, found from the end.
Directory end_of_central(const Npz& npz) {
  const std::string_view bytes = npz.bytes();
  if (bytes.size() < kEndBytes) npz.fail("the file is " + std::to_string(bytes.size()) + " bytes, shorter than a zip's end record");
  const size_t lowest = bytes.size() - std::min<size_t>(bytes.size(), kEndBytes + 0xFFFF);
  size_t end = bytes.size() - kEndBytes;
  for (;; --end) {
    if (Npz::number<uint32_t>(bytes, end) == kEndOfCentral &&
        end + kEndBytes + Npz::number<uint16_t>(bytes, end + 20) == bytes.size()) {
      break;
    }
    if (end == lowest) npz.fail("no zip end of central directory record (not a zip archive, or cut short)");
  }
  const std::string_view record = bytes.substr(end, kEndBytes);
  if (Npz::number<uint16_t>(record, 4) != 0 || Npz::number<uint16_t>(record, 6) != 0 ||
      Npz::number<uint16_t>(record, 8) != Npz::number<uint16_t>(record, 10)) {
    npz.fail("a zip archive split over several disks");
  }
  Directory d{Npz::number<uint16_t>(record, 10), Npz::number<uint32_t>(record, 12), Npz::number<uint32_t>(record, 16)};
  if (d.entries == 0xFFFF || d.size == 0xFFFFFFFF || d.offset == 0xFFFFFFFF) {  // zip64: the locator just before
    if (end < kZip64LocatorBytes) npz.fail("a zip64 end record without its locator");
    const std::string_view locator = bytes.substr(end - kZip64LocatorBytes, kZip64LocatorBytes);
    if (Npz::number<uint32_t>(locator, 0) != kZip64Locator) npz.fail("a zip64 end record without its locator");
    const std::string_view record64 = npz.at(Npz::number<uint64_t>(locator, 8), 56, "the zip64 end of central directory");
    if (Npz::number<uint32_t>(record64, 0) != kZip64End) npz.fail("the zip64 locator points at no zip64 end record");
    if (Npz::number<uint64_t>(record64, 24) != Npz::number<uint64_t>(record64, 32)) npz.fail("a zip archive split over several disks");
    d = {Npz::number<uint64_t>(record64, 32), Npz::number<uint64_t>(record64, 40), Npz::number<uint64_t>(record64, 48)};
  }
  return d;
}

// The central directory's entries.
std::vector<Entry> central_directory(const Npz& npz) {
  const Directory d = end_of_central(npz);
  const std::string_view directory = npz.at(d.offset, d.size, "the zip central directory");
  if (d.entries == 0) npz.fail("the zip archive holds no entries");
  if (d.entries > directory.size() / kCentralHeaderBytes) {
    npz.fail("the zip directory says " + std::to_string(d.entries) + " entries in " + std::to_string(directory.size()) + " bytes");
  }
  std::vector<Entry> entries;
  size_t at = 0;
  for (uint64_t k = 0; k < d.entries; ++k) {
    const std::string which = "zip directory entry " + std::to_string(k);
    if (directory.size() - at < kCentralHeaderBytes || Npz::number<uint32_t>(directory, at) != kCentralHeader) {
      npz.fail(which + " is damaged (no central header signature)");
    }
    const std::string_view h = directory.substr(at, kCentralHeaderBytes);
    const size_t name_length = Npz::number<uint16_t>(h, 28), extra_length = Npz::number<uint16_t>(h, 30),
                 comment_length = Npz::number<uint16_t>(h, 32);
    if (directory.size() - at - kCentralHeaderBytes < name_length + extra_length + comment_length) npz.fail(which + " runs past the directory");
    Entry e;
    e.name = std::string(directory.substr(at + kCentralHeaderBytes, name_length));
    e.flags = Npz::number<uint16_t>(h, 8);
    e.method = Npz::number<uint16_t>(h, 10);
    e.crc = Npz::number<uint32_t>(h, 16);
    e.compressed = Npz::number<uint32_t>(h, 20);
    e.size = Npz::number<uint32_t>(h, 24);
    e.offset = Npz::number<uint32_t>(h, 42);
    // zip64: the sizes and offset that do not fit are in the extra field 0x0001, in this order.
    std::string_view extra = directory.substr(at + kCentralHeaderBytes + name_length, extra_length);
    while (extra.size() >= 4) {
      const uint16_t id = Npz::number<uint16_t>(extra, 0), length = Npz::number<uint16_t>(extra, 2);
      if (length > extra.size() - 4) npz.fail("'" + e.name + "': its zip extra field runs past its end");
      if (id == 0x0001) {
        std::string_view field = extra.substr(4, length);
        for (uint64_t* value : {&e.size, &e.compressed, &e.offset}) {
          if (*value != 0xFFFFFFFF) continue;
          if (field.size() < 8) npz.fail("'" + e.name + "': its zip64 extra field is cut short");
          *value = Npz::number<uint64_t>(field, 0);
          field.remove_prefix(8);
        }
      }
      extra.remove_prefix(4 + length);
    }
    entries.push_back(std::move(e));
    at += kCentralHeaderBytes + name_length + extra_length + comment_length;
  }
  return entries;
}

// The entry's bytes as stored (compressed or not), after its local header.
std::string_view stored_bytes(const Npz& npz, const Entry& e) {
  const std::string_view header = npz.at(e.offset, kLocalHeaderBytes, "'" + e.name + "''s local header");
  if (Npz::number<uint32_t>(header, 0) != kLocalHeader) npz.fail("'" + e.name + "': no local header where the directory points");
  const uint64_t name_length = Npz::number<uint16_t>(header, 26), extra_length = Npz::number<uint16_t>(header, 28);
  if (npz.at(e.offset + kLocalHeaderBytes, name_length, "'" + e.name + "''s local name") != e.name) {
    npz.fail("'" + e.name + "': its local header names another file");
  }
  return npz.at(e.offset + kLocalHeaderBytes + name_length + extra_length, e.compressed, "'" + e.name + "''s data");
}

// The zip CRC-32 (IEEE 802.3, reflected, polynomial 0xEDB88320) of `data`.
uint32_t crc32_of(std::string_view data) {
  static const std::array<uint32_t, 256> table = [] {
    std::array<uint32_t, 256> t{};
    for (uint32_t n = 0; n < 256; ++n) {
      uint32_t c = n;
      for (int k = 0; k < 8; ++k) c = c & 1 ? 0xEDB88320u ^ (c >> 1) : c >> 1;
      t[n] = c;
    }
    return t;
  }();
  uint32_t crc = 0xFFFFFFFFu;
  for (const char byte : data) crc = table[(crc ^ static_cast<uint8_t>(byte)) & 0xFF] ^ (crc >> 8);
  return crc ^ 0xFFFFFFFFu;
}

std::string inflate_entry(const Npz& npz, const Entry& e, std::string_view compressed) {
#ifdef __EMSCRIPTEN__
  (void)compressed;
  npz.fail("'" + e.name + "' is deflated (numpy's savez_compressed), which this WebAssembly build does not inflate; "
           "Marian writes its entries stored");
#else
  if (e.size > compressed.size() * kMaxDeflateRatio + 64) {
    npz.fail("'" + e.name + "' says " + std::to_string(e.size) + " bytes inflated from " + std::to_string(compressed.size()) +
             ", more than deflate can give");
  }
  std::string out(static_cast<size_t>(e.size), '\0');
  z_stream z{};
  if (inflateInit2(&z, -MAX_WBITS) != Z_OK) throw Error(ErrorCode::out_of_memory, "zlib: cannot start inflating");
  z.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(compressed.data()));
  z.next_out = reinterpret_cast<Bytef*>(out.data());
  // zlib counts in uInt: feed at most 1 GiB a call.
  int result = Z_OK;
  size_t in_left = compressed.size(), out_left = out.size();
  while (result == Z_OK) {
    const uInt in_chunk = static_cast<uInt>(std::min<size_t>(in_left, 1u << 30));
    const uInt out_chunk = static_cast<uInt>(std::min<size_t>(out_left, 1u << 30));
    z.avail_in = in_chunk;
    z.avail_out = out_chunk;
    result = inflate(&z, Z_NO_FLUSH);
    in_left -= in_chunk - z.avail_in;
    out_left -= out_chunk - z.avail_out;
    if (result == Z_BUF_ERROR || (result == Z_OK && in_chunk == z.avail_in && out_chunk == z.avail_out)) break;
  }
  inflateEnd(&z);
  if (result != Z_STREAM_END || in_left != 0 || out_left != 0) {
    npz.fail("'" + e.name + "': its deflated data is damaged (" +
             (result == Z_STREAM_END ? "not " + std::to_string(e.size) + " bytes" : "zlib " + std::to_string(result)) + ")");
  }
  return out;
#endif
}

// The .npy header's dict, as numpy writes it: {'descr': '<f4', 'fortran_order': False, 'shape': (2, 3), }
struct NpyHeader {
  std::string descr;
  bool fortran_order = false;
  std::vector<int64_t> shape;
};

class DictReader {
 public:
  DictReader(std::string_view text, const Npz& npz, const std::string& entry) : s_(text), npz_(npz), entry_(entry) {}

  [[noreturn]] void fail(const std::string& what) const {
    npz_.fail("'" + entry_ + "': its .npy header " + what);
  }

  void spaces() {
    while (!s_.empty() && (s_[0] == ' ' || s_[0] == '\t' || s_[0] == '\n')) s_.remove_prefix(1);
  }
  bool take(char c) {
    spaces();
    if (s_.empty() || s_[0] != c) return false;
    s_.remove_prefix(1);
    return true;
  }
  void expect(char c) {
    if (!take(c)) fail("lacks '" + std::string(1, c) + "' where the dict needs it");
  }
  std::string quoted() {
    spaces();
    if (s_.empty() || (s_[0] != '\'' && s_[0] != '"')) fail("has no quoted string where the dict needs one");
    const char quote = s_[0];
    const size_t end = s_.find(quote, 1);
    if (end == std::string_view::npos) fail("has a string without its closing quote");
    std::string out(s_.substr(1, end - 1));
    s_.remove_prefix(end + 1);
    return out;
  }
  bool boolean() {
    spaces();
    for (const auto& [word, value] : {std::pair<std::string_view, bool>{"True", true}, {"False", false}}) {
      if (s_.substr(0, word.size()) == word) {
        s_.remove_prefix(word.size());
        return value;
      }
    }
    fail("has 'fortran_order' other than True or False");
  }
  std::vector<int64_t> tuple() {
    expect('(');
    std::vector<int64_t> out;
    while (!take(')')) {
      spaces();
      size_t digits = 0;
      while (digits < s_.size() && s_[digits] >= '0' && s_[digits] <= '9') ++digits;
      if (digits == 0 || digits > 12) fail("has a shape that is not a tuple of numbers");
      out.push_back(std::stoll(std::string(s_.substr(0, digits))));
      s_.remove_prefix(digits);
      if (out.size() > kMaxRank) fail("has a shape of more than " + std::to_string(kMaxRank) + " dims");
      if (!take(',')) {
        expect(')');
        break;
      }
    }
    return out;
  }
  void end() {
    spaces();
    if (!s_.empty()) fail("has '" + std::string(s_.substr(0, 20)) + "' after its dict");
  }

 private:
  std::string_view s_;
  const Npz& npz_;
  const std::string& entry_;
};

NpyHeader npy_header(const Npz& npz, const std::string& entry, std::string_view& npy) {
  if (npy.size() < 10 || npy.substr(0, 6) != "\x93NUMPY") {
    npz.fail("'" + entry + "' is not a .npy array (no \\x93NUMPY magic)");
  }
  const uint8_t major = static_cast<uint8_t>(npy[6]);
  if (major < 1 || major > 3) npz.fail("'" + entry + "' is .npy version " + std::to_string(major) + ", Attend reads 1 to 3");
  const size_t length_bytes = major == 1 ? 2 : 4;
  if (npy.size() < 8 + length_bytes) npz.fail("'" + entry + "' is cut short in its .npy header");
  const uint64_t header_length = major == 1 ? Npz::number<uint16_t>(npy, 8) : Npz::number<uint32_t>(npy, 8);
  if (header_length > npy.size() - 8 - length_bytes) npz.fail("'" + entry + "' is cut short in its .npy header");
  DictReader dict(npy.substr(8 + length_bytes, static_cast<size_t>(header_length)), npz, entry);
  npy.remove_prefix(8 + length_bytes + static_cast<size_t>(header_length));
  NpyHeader h;
  std::set<std::string> keys;
  dict.expect('{');
  while (!dict.take('}')) {
    const std::string key = dict.quoted();
    if (!keys.insert(key).second) dict.fail("names '" + key + "' twice");
    dict.expect(':');
    if (key == "descr") {
      h.descr = dict.quoted();
    } else if (key == "fortran_order") {
      h.fortran_order = dict.boolean();
    } else if (key == "shape") {
      h.shape = dict.tuple();
    } else {
      dict.fail("has the key '" + key.substr(0, 40) + "' (a .npy dict holds descr, fortran_order and shape)");
    }
    if (!dict.take(',')) {
      dict.expect('}');
      break;
    }
  }
  dict.end();
  if (keys.size() != 3) dict.fail("lacks one of descr, fortran_order and shape");
  return h;
}

MarianItem npy_item(const Npz& npz, const std::string& entry, std::string_view npy) {
  MarianItem item;
  item.name = entry.substr(0, entry.size() - 4);
  const NpyHeader h = npy_header(npz, entry, npy);
  const std::string where = "'" + entry + "'";
  if (h.fortran_order) npz.fail(where + " is in Fortran order (Marian reads C order)");
  const bool special = item.name.rfind(kSpecial, 0) == 0;
  size_t element_bytes = 0;
  if (h.descr == "<f4") {
    item.type = MarianType::float32;
    element_bytes = 4;
  } else if (special && (h.descr == "|i1" || h.descr == "<i1" || h.descr == "|u1" || h.descr == "<u1" || h.descr == "|S1")) {
    item.type = MarianType::int8;
    element_bytes = 1;
  } else {
    npz.fail(where + " holds '" + h.descr.substr(0, 20) + "', not little-endian float32 ('<f4')" +
             (special ? " or bytes" : ""));
  }
  if (h.shape.empty()) npz.fail(where + " is a scalar (Marian's arrays have 1 to 8 dims)");
  uint64_t elements = 1;
  for (const int64_t dim : h.shape) {
    if (dim < 1) npz.fail(where + " has a dim of " + std::to_string(dim));
    if (static_cast<uint64_t>(dim) > npy.size() / elements + 1) npz.fail(where + "'s shape holds more elements than its data");
    elements *= static_cast<uint64_t>(dim);
  }
  if (elements * element_bytes != npy.size()) {
    npz.fail(where + " has " + std::to_string(npy.size()) + " bytes of data, its shape needs " + std::to_string(elements * element_bytes));
  }
  item.shape = h.shape.size() == 1 ? std::vector<int64_t>{1, h.shape[0]} : h.shape;  // Marian reads [n] as [1, n]
  item.bytes = npy;
  return item;
}

}  // namespace

bool looks_like_zip(std::string_view bytes) { return bytes.size() >= 4 && bytes.substr(0, 4) == std::string_view("PK\x03\x04", 4); }

MarianNpz read_marian_npz(std::string_view bytes, std::string_view file_name) {
  const Npz npz(bytes, file_name);
  MarianNpz out;
  std::set<std::string> names;
  for (const Entry& e : central_directory(npz)) {
    const std::string where = "'" + e.name + "'";
    if (e.name.size() <= 4 || e.name.compare(e.name.size() - 4, 4, ".npy") != 0) npz.fail(where + " is not a .npy array");
    if (!names.insert(e.name).second) npz.fail("two entries named " + where);
    if (e.flags & 1) npz.fail(where + " is encrypted");
    const std::string_view stored = stored_bytes(npz, e);
    std::string_view data;
    if (e.method == 0) {
      if (e.compressed != e.size) npz.fail(where + " is stored with " + std::to_string(e.compressed) + " bytes, the directory says " + std::to_string(e.size));
      data = stored;
    } else if (e.method == 8) {
      out.inflated.push_back(std::make_unique<std::string>(inflate_entry(npz, e, stored)));
      data = *out.inflated.back();
    } else {
      npz.fail(where + " is compressed with zip method " + std::to_string(e.method) + " (Attend reads stored and deflate)");
    }
    if (crc32_of(data) != e.crc) npz.fail(where + "'s data does not match its CRC-32 (damaged)");
    out.items.push_back(npy_item(npz, e.name, data));
  }
  return out;
}

}  // namespace attend
