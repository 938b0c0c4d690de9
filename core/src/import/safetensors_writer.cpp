#include "import/safetensors_writer.h"

#include <algorithm>
#include <set>
#include <stdexcept>

#include <nlohmann/json.hpp>

namespace attend {
namespace {

constexpr size_t kDataAlignment = 64;  // export.py's DATA_ALIGNMENT

uint64_t byte_count(const TensorSource& t) {
  uint64_t n = dtype_size(t.dtype);
  for (int64_t d : t.shape) n *= static_cast<uint64_t>(d);
  return n;
}

}  // namespace

std::string write_safetensors(std::vector<TensorSource> tensors, const SafetensorsMetadata& metadata) {
  std::sort(tensors.begin(), tensors.end(), [](const TensorSource& a, const TensorSource& b) {
    return std::make_pair(static_cast<int>(a.dtype), a.name) < std::make_pair(static_cast<int>(b.dtype), b.name);
  });  // DType's order is export.py's DTYPE_ORDER: F32, I8, U8
  nlohmann::ordered_json header;
  header["__metadata__"] = nlohmann::ordered_json::object();
  for (const auto& [key, value] : metadata) header["__metadata__"][key] = value;
  std::set<std::string> names;
  uint64_t offset = 0;
  for (const TensorSource& t : tensors) {
    if (!names.insert(t.name).second) throw std::invalid_argument("two tensors named '" + t.name + "'");
    const uint64_t end = offset + byte_count(t);
    header[t.name] = {{"dtype", dtype_name(t.dtype)}, {"shape", t.shape}, {"data_offsets", {offset, end}}};
    offset = end;
  }
  std::string text = header.dump(-1, ' ', /*ensure_ascii=*/true, nlohmann::ordered_json::error_handler_t::replace);
  text.append((kDataAlignment - (8 + text.size()) % kDataAlignment) % kDataAlignment, ' ');

  std::string out(8 + text.size() + offset, '\0');
  uint64_t length = text.size();
  for (int i = 0; i < 8; ++i, length >>= 8) out[static_cast<size_t>(i)] = static_cast<char>(length & 0xFF);
  std::copy(text.begin(), text.end(), out.begin() + 8);
  auto* data = reinterpret_cast<uint8_t*>(out.data() + 8 + text.size());
  for (const TensorSource& t : tensors) {
    t.fill(data);
    data += byte_count(t);
  }
  return out;
}

}  // namespace attend
