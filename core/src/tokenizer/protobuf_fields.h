// A serialized SentencePiece ModelProto read field by field (protobuf's wire format), every length
// checked: for the checks Attend makes before SentencePiece, which trusts the file, sees it.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "attend/error.h"

namespace attend {

[[noreturn]] inline void fail_damaged_model(const std::string& message) {
  throw Error(ErrorCode::invalid_model, "tokenizer: damaged SentencePiece model: " + message);
}

inline uint64_t read_varint(std::string_view& in) {
  uint64_t value = 0;
  for (int shift = 0; shift < 64; shift += 7) {
    if (in.empty()) fail_damaged_model("a protobuf varint runs past the end");
    const auto byte = static_cast<uint8_t>(in.front());
    in.remove_prefix(1);
    value |= static_cast<uint64_t>(byte & 0x7F) << shift;
    if (!(byte & 0x80)) return value;
  }
  fail_damaged_model("a protobuf varint is longer than 10 bytes");
}

inline std::string_view take_bytes(std::string_view& in, uint64_t size) {
  if (size > in.size()) fail_damaged_model("a protobuf field runs past the end");
  const std::string_view taken = in.substr(0, size);
  in.remove_prefix(size);
  return taken;
}

// Calls visit(bytes) for every length-delimited field numbered `number` of `message`, in order.
template <typename Visit>
void for_each_field(std::string_view message, uint64_t number, Visit&& visit) {
  constexpr uint64_t kWireVarint = 0, kWireFixed64 = 1, kWireLengthDelimited = 2, kWireFixed32 = 5;
  while (!message.empty()) {
    const uint64_t tag = read_varint(message);
    switch (tag & 7) {
      case kWireVarint: read_varint(message); break;
      case kWireFixed64: take_bytes(message, 8); break;
      case kWireFixed32: take_bytes(message, 4); break;
      case kWireLengthDelimited: {
        const std::string_view bytes = take_bytes(message, read_varint(message));
        if (tag >> 3 == number) visit(bytes);
        break;
      }
      default: fail_damaged_model("protobuf wire type " + std::to_string(tag & 7) + " (SentencePiece writes 0, 1, 2 and 5)");
    }
  }
}

}  // namespace attend
