// Marian's binary model file (.bin: browsermt/marian-dev src/common/binary.cpp; docs/marian.md §7),
// the format of Firefox Translations' models and of Bergamot's WebAssembly: little-endian, a
// version (1), an item count, then per item its name's length, type, rank and payload length;
// the names (NUL-terminated), the shapes (int32 dims), a padding count and its zero bytes, then
// the payloads back to back. Read from bytes in memory, never trusted: every length is checked
// against what the file holds before it is used.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace attend {

// Marian's element types (src/common/types.h): a class bit ORed with the size in bytes.
enum class MarianType : uint64_t {
  int8 = 0x0101,
  int16 = 0x0102,
  int32 = 0x0104,
  int64 = 0x0108,
  uint8 = 0x0201,
  uint16 = 0x0202,
  uint32 = 0x0204,
  uint64 = 0x0208,
  float16 = 0x0402,
  float32 = 0x0404,
  float64 = 0x0408,
  packed16 = 0x0802,
  packed8avx2 = 0x1801,
  packed8avx512 = 0x2801,
  intgemm8 = 0x4101,
  intgemm16 = 0x4102,
};

// The name Marian's source gives a type ("float32", "intgemm8").
std::string_view marian_type_name(MarianType type);

struct MarianItem {
  std::string name;            // "encoder_l1_self_Wq", "special:model.yml"
  MarianType type = MarianType::float32;
  std::vector<int64_t> shape;  // each dim ≥ 1
  std::string_view bytes;      // the payload, into the bytes read: at least what the shape needs
};

// The items of a whole .bin file, in file order. Throws Error(invalid_model) with one line naming
// `file_name` and what is wrong (the field, the item): a file too short for what its header
// says, another version, a name without its NUL or twice, an unknown type, a rank over 8 or a
// dim of 0, a payload shorter than its shape needs (intgemm types: one byte per element and the
// float multiplier after them; float16: 2 bytes; …; fbgemm's packed types are not sized here).
std::vector<MarianItem> read_marian_binary(std::string_view bytes, std::string_view file_name);

// The YAML text of the "special:model.yml" item (its NUL dropped), or empty when there is none.
std::string_view marian_model_yml(const std::vector<MarianItem>& items);

}  // namespace attend
