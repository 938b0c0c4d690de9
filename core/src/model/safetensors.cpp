#include "model/safetensors.h"

#include <algorithm>
#include <cstring>
#include <limits>

#include <nlohmann/json.hpp>

#include "attend/error.h"
#include "model/json_depth.h"

namespace attend {
namespace {

constexpr uint64_t kMaxHeaderBytes = 100u << 20;  // as the safetensors reference reader
constexpr int kMaxJsonDepth = 16;                 // our header nests 4 deep; refuse stack bombs
constexpr int64_t kMaxDim = int64_t{1} << 40;

[[noreturn]] void fail(const std::string& message) {
  throw Error(ErrorCode::invalid_model, "invalid model file: " + message);
}

DType parse_dtype(const std::string& name, const std::string& tensor) {
  if (name == "F32") return DType::f32;
  if (name == "I8") return DType::i8;
  if (name == "U8") return DType::u8;
  fail("tensor '" + tensor + "' has dtype " + name + "; Attend reads F32, I8 and U8");
}

uint64_t parse_offset(const nlohmann::json& value, const std::string& tensor) {
  if (!value.is_number_unsigned()) fail("tensor '" + tensor + "' has a data offset that is not an unsigned integer");
  return value.get<uint64_t>();
}

TensorView parse_entry(const std::string& name, const nlohmann::json& entry, const uint8_t* base,
                       uint64_t data_size) {
  if (!entry.is_object()) fail("header entry '" + name + "' is not an object");
  for (const char* key : {"dtype", "shape", "data_offsets"}) {
    if (!entry.contains(key)) fail("tensor '" + name + "' has no '" + key + "'");
  }
  const auto& dtype = entry["dtype"];
  const auto& shape = entry["shape"];
  const auto& offsets = entry["data_offsets"];
  if (!dtype.is_string()) fail("tensor '" + name + "' has a dtype that is not a string");
  if (!shape.is_array()) fail("tensor '" + name + "' has a shape that is not an array");
  if (!offsets.is_array() || offsets.size() != 2) fail("tensor '" + name + "' needs data_offsets [begin, end]");

  TensorView view;
  view.name = name;
  view.dtype = parse_dtype(dtype.get<std::string>(), name);
  int64_t elements = 1;
  for (const auto& dim : shape) {
    if (!dim.is_number_integer() || dim.get<int64_t>() < 0 || dim.get<int64_t>() > kMaxDim) {
      fail("tensor '" + name + "' has an invalid dimension " + dim.dump());
    }
    const int64_t d = dim.get<int64_t>();
    if (d != 0 && elements > std::numeric_limits<int64_t>::max() / kMaxDim) {
      fail("tensor '" + name + "' has too many elements");
    }
    elements *= d;
    view.shape.push_back(d);
  }
  const uint64_t begin = parse_offset(offsets[0], name);
  const uint64_t end = parse_offset(offsets[1], name);
  if (begin > end || end > data_size) {
    fail("tensor '" + name + "' has data_offsets [" + std::to_string(begin) + ", " + std::to_string(end) +
         "] outside the " + std::to_string(data_size) + " data bytes");
  }
  const uint64_t expected = static_cast<uint64_t>(elements) * dtype_size(view.dtype);
  if (end - begin != expected) {
    fail("tensor '" + name + "' holds " + std::to_string(end - begin) + " bytes but its shape and dtype need " +
         std::to_string(expected));
  }
  view.data = base + begin;
  view.bytes = expected;
  return view;
}

}  // namespace

const char* dtype_name(DType dtype) {
  switch (dtype) {
    case DType::f32: return "F32";
    case DType::i8: return "I8";
    case DType::u8: return "U8";
  }
  return "?";
}

size_t dtype_size(DType dtype) { return dtype == DType::f32 ? 4 : 1; }

int64_t TensorView::elements() const {
  int64_t n = 1;
  for (int64_t d : shape) n *= d;
  return n;
}

SafetensorsFile parse_safetensors(const uint8_t* data, size_t size) {
  if (size < 8) fail("it has " + std::to_string(size) + " bytes, fewer than the 8-byte header length");
  uint64_t header_size = 0;
  for (int i = 7; i >= 0; --i) header_size = (header_size << 8) | data[i];
  if (header_size > kMaxHeaderBytes || header_size > size - 8) {
    fail("header length " + std::to_string(header_size) + " does not fit in the " + std::to_string(size) +
         "-byte file");
  }
  const char* text = reinterpret_cast<const char*>(data + 8);
  if (json_nests_deeper_than({text, static_cast<size_t>(header_size)}, kMaxJsonDepth)) {
    fail("header JSON nests deeper than " + std::to_string(kMaxJsonDepth));
  }
  const auto header = nlohmann::json::parse(text, text + header_size, nullptr, /*allow_exceptions=*/false);
  if (header.is_discarded()) fail("header is not valid JSON");
  if (!header.is_object()) fail("header is not a JSON object");

  SafetensorsFile file;
  const uint8_t* base = data + 8 + header_size;
  const uint64_t data_size = size - 8 - header_size;
  for (const auto& [name, entry] : header.items()) {
    if (name == "__metadata__") {
      if (!entry.is_object()) fail("__metadata__ is not an object");
      for (const auto& [key, value] : entry.items()) {
        if (!value.is_string()) fail("__metadata__ value '" + key + "' is not a string");
        file.metadata[key] = value.get<std::string>();
      }
      continue;
    }
    file.tensors.emplace(name, parse_entry(name, entry, base, data_size));
  }

  // Tensors must not overlap (a lying offset could alias two weights).
  std::vector<const TensorView*> by_offset;
  for (const auto& [name, view] : file.tensors) by_offset.push_back(&view);
  std::sort(by_offset.begin(), by_offset.end(), [](auto* a, auto* b) { return a->data < b->data; });
  for (size_t i = 1; i < by_offset.size(); ++i) {
    const TensorView& prev = *by_offset[i - 1];
    if (prev.data + prev.bytes > by_offset[i]->data) {
      fail("tensors '" + prev.name + "' and '" + by_offset[i]->name + "' overlap");
    }
  }
  return file;
}

}  // namespace attend
