// Reading code points out of valid UTF-8 without a Unicode library (the WebAssembly module
// carries none).
#pragma once

#include <cstddef>
#include <cstdint>
#include <string_view>

namespace attend {

struct CodePoint {
  uint32_t value = 0;
  size_t length = 0;  // bytes
};

// The code point starting at text[at] (at < text.size(); a lead byte of valid UTF-8).
inline CodePoint code_point_at(std::string_view text, size_t at) {
  const auto lead = static_cast<unsigned char>(text[at]);
  const size_t length = lead < 0x80 ? 1 : lead < 0xE0 ? 2 : lead < 0xF0 ? 3 : 4;
  uint32_t value = length == 1 ? lead : lead & (0x3F >> (length - 1));
  for (size_t k = 1; k < length && at + k < text.size(); ++k) {
    value = (value << 6) | (static_cast<unsigned char>(text[at + k]) & 0x3F);
  }
  return CodePoint{value, length};
}

}  // namespace attend
