#include "import/marian_binary.h"

#include <algorithm>
#include <cstring>
#include <set>

#include "attend/error.h"

namespace attend {
namespace {

constexpr uint64_t kVersion = 1;
constexpr uint64_t kMaxRank = 8;
constexpr std::string_view kModelYml = "special:model.yml";

constexpr MarianType kTypes[] = {
    MarianType::int8,    MarianType::int16,      MarianType::int32,       MarianType::int64,
    MarianType::uint8,   MarianType::uint16,     MarianType::uint32,      MarianType::uint64,
    MarianType::float16, MarianType::float32,    MarianType::float64,     MarianType::packed16,
    MarianType::packed8avx2, MarianType::packed8avx512, MarianType::intgemm8, MarianType::intgemm16};

// Reads the file front to back; each read checks that the bytes are there.
class Reader {
 public:
  Reader(std::string_view bytes, std::string_view file_name) : bytes_(bytes), file_name_(file_name) {}

  [[noreturn]] void fail(const std::string& what) const {
    throw Error(ErrorCode::invalid_model, std::string(file_name_) + ": not a Marian model file: " + what);
  }

  std::string_view take(uint64_t length, const std::string& what) {
    if (length > bytes_.size() - at_) {
      fail(what + " needs " + std::to_string(length) + " bytes at offset " + std::to_string(at_) + ", the file ends after " +
           std::to_string(bytes_.size() - at_));
    }
    const std::string_view out = bytes_.substr(at_, static_cast<size_t>(length));
    at_ += static_cast<size_t>(length);
    return out;
  }

  template <typename T>
  T number(const std::string& what) {
    T value;
    std::memcpy(&value, take(sizeof(T), what).data(), sizeof(T));  // little-endian hosts only (x86, wasm)
    return value;
  }

  size_t left() const { return bytes_.size() - at_; }

 private:
  std::string_view bytes_;
  std::string_view file_name_;
  size_t at_ = 0;
};

struct ItemHeader {
  uint64_t name_length = 0, type = 0, rank = 0, data_length = 0;
};

// Bytes the payload of `type` needs for `elements` elements: the intgemm types hold a float
// multiplier after them (Marian's requiredBytes).
uint64_t needed_bytes(MarianType type, uint64_t elements) {
  const uint64_t size = static_cast<uint64_t>(type) & 0xFF;
  const bool intgemm = type == MarianType::intgemm8 || type == MarianType::intgemm16;
  return elements * size + (intgemm ? sizeof(float) : 0);
}

}  // namespace

std::string_view marian_type_name(MarianType type) {
  switch (type) {
    case MarianType::int8: return "int8";
    case MarianType::int16: return "int16";
    case MarianType::int32: return "int32";
    case MarianType::int64: return "int64";
    case MarianType::uint8: return "uint8";
    case MarianType::uint16: return "uint16";
    case MarianType::uint32: return "uint32";
    case MarianType::uint64: return "uint64";
    case MarianType::float16: return "float16";
    case MarianType::float32: return "float32";
    case MarianType::float64: return "float64";
    case MarianType::packed16: return "packed16";
    case MarianType::packed8avx2: return "packed8avx2";
    case MarianType::packed8avx512: return "packed8avx512";
    case MarianType::intgemm8: return "intgemm8";
    case MarianType::intgemm16: return "intgemm16";
  }
  return "unknown";
}

std::vector<MarianItem> read_marian_binary(std::string_view bytes, std::string_view file_name) {
  Reader in(bytes, file_name);
  const uint64_t version = in.number<uint64_t>("the version");
  if (version != kVersion) in.fail("version " + std::to_string(version) + ", Attend reads version 1");
  const uint64_t count = in.number<uint64_t>("the item count");
  constexpr uint64_t kHeaderBytes = 4 * sizeof(uint64_t);
  if (count == 0 || count > in.left() / kHeaderBytes) {
    in.fail("an item count of " + std::to_string(count) + " for a file of " + std::to_string(bytes.size()) + " bytes");
  }
  std::vector<ItemHeader> headers(static_cast<size_t>(count));
  for (size_t k = 0; k < headers.size(); ++k) {
    const std::string item = "item " + std::to_string(k) + "'s header";
    headers[k] = {in.number<uint64_t>(item), in.number<uint64_t>(item), in.number<uint64_t>(item), in.number<uint64_t>(item)};
  }
  std::vector<MarianItem> items(headers.size());
  std::set<std::string_view> names;
  for (size_t k = 0; k < items.size(); ++k) {
    const std::string_view name = in.take(headers[k].name_length, "item " + std::to_string(k) + "'s name");
    if (name.empty() || name.back() != '\0' || name.find('\0') != name.size() - 1) {
      in.fail("item " + std::to_string(k) + "'s name is not one NUL-terminated string of " +
              std::to_string(headers[k].name_length) + " bytes");
    }
    items[k].name = std::string(name.substr(0, name.size() - 1));
    if (!names.insert(name).second) in.fail("two items named \"" + items[k].name + "\"");
    const auto known = std::find(std::begin(kTypes), std::end(kTypes), static_cast<MarianType>(headers[k].type));
    if (known == std::end(kTypes)) in.fail("\"" + items[k].name + "\" has an unknown type " + std::to_string(headers[k].type));
    items[k].type = *known;
  }
  for (size_t k = 0; k < items.size(); ++k) {
    const std::string item = "\"" + items[k].name + "\"";
    if (headers[k].rank == 0 || headers[k].rank > kMaxRank) {
      in.fail(item + " has rank " + std::to_string(headers[k].rank) + ", not 1 to " + std::to_string(kMaxRank));
    }
    uint64_t elements = 1;  // at most the file's bytes: every element takes one or more
    for (uint64_t d = 0; d < headers[k].rank; ++d) {
      const int32_t dim = in.number<int32_t>(item + "'s shape");
      if (dim < 1) in.fail(item + " has a dim of " + std::to_string(dim));
      if (static_cast<uint64_t>(dim) > bytes.size() / elements) in.fail(item + "'s shape holds more elements than the file has bytes");
      items[k].shape.push_back(dim);
      elements *= static_cast<uint64_t>(dim);
    }
    const bool packed = items[k].type == MarianType::packed16 || items[k].type == MarianType::packed8avx2 ||
                        items[k].type == MarianType::packed8avx512;  // laid out by fbgemm: no size per element
    if (!packed && needed_bytes(items[k].type, elements) > headers[k].data_length) {
      in.fail(item + " (" + std::string(marian_type_name(items[k].type)) + ") has " + std::to_string(headers[k].data_length) +
              " bytes of data, its shape needs " + std::to_string(needed_bytes(items[k].type, elements)));
    }
  }
  const uint64_t padding = in.number<uint64_t>("the padding length");
  in.take(padding, "the padding");
  for (size_t k = 0; k < items.size(); ++k) {
    items[k].bytes = in.take(headers[k].data_length, "\"" + items[k].name + "\"'s data");
  }
  return items;
}

std::string_view marian_model_yml(const std::vector<MarianItem>& items) {
  for (const MarianItem& item : items) {
    if (item.name != kModelYml) continue;
    std::string_view text = item.bytes;
    return text.substr(0, std::min(text.find('\0'), text.size()));
  }
  return {};
}

}  // namespace attend
