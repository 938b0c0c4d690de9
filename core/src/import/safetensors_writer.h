// Writes a safetensors container the way training/attend_ref/export.py does, so Attend's reader
// (model/safetensors.h) and any safetensors reader open it: an 8-byte little-endian header
// length, the header JSON ({"__metadata__": {...}, name: {dtype, shape, data_offsets}}, no
// spaces, non-ASCII escaped) padded with spaces so the data starts on a 64-byte boundary, then
// the tensors back to back, F32 first (each stays 4-byte aligned), then I8, then U8, each dtype
// by name.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <utility>
#include <vector>

#include "model/safetensors.h"

namespace attend {

// A tensor to write: its bytes are produced straight into the output (no second copy of a
// model in memory).
struct TensorSource {
  std::string name;
  DType dtype = DType::f32;
  std::vector<int64_t> shape;
  std::function<void(uint8_t* out)> fill;  // writes elements · dtype_size(dtype) bytes
};

// The metadata's string pairs, in the order they are written.
using SafetensorsMetadata = std::vector<std::pair<std::string, std::string>>;

// The file's bytes. Text that is not valid UTF-8 is written with U+FFFD in its place; two
// tensors of one name are a logic error (std::invalid_argument). `fill` may throw.
std::string write_safetensors(std::vector<TensorSource> tensors, const SafetensorsMetadata& metadata);

}  // namespace attend
