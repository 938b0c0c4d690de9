// The bytes of a model file: memory-mapped from a path where the platform allows, or owned.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace attend {

class ByteStorage {
 public:
  virtual ~ByteStorage() = default;
  virtual const uint8_t* data() const = 0;
  virtual size_t size() const = 0;

  static std::unique_ptr<ByteStorage> from_file(const std::string& path);  // throws Error(io)
  static std::unique_ptr<ByteStorage> from_vector(std::vector<uint8_t> bytes);
};

}  // namespace attend
