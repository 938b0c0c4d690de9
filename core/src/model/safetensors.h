// A validated view of a safetensors container: 8-byte little-endian header length, a JSON
// header {name: {dtype, shape, data_offsets: [begin, end]}, "__metadata__": {str: str}},
// then the tensor bytes. Every offset, size and shape is checked before any tensor is read.
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace attend {

enum class DType { f32, i8, u8 };

const char* dtype_name(DType dtype);
size_t dtype_size(DType dtype);

struct TensorView {
  std::string name;
  DType dtype = DType::f32;
  std::vector<int64_t> shape;
  const uint8_t* data = nullptr;  // points into the container's bytes
  uint64_t bytes = 0;

  int64_t elements() const;
};

struct SafetensorsFile {
  std::map<std::string, TensorView> tensors;
  std::map<std::string, std::string> metadata;
};

// Throws Error(invalid_model) naming the field or tensor and the sizes involved.
SafetensorsFile parse_safetensors(const uint8_t* data, size_t size);

}  // namespace attend
