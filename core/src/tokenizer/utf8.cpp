#include "tokenizer/utf8.h"

#include <string>

#include "attend/error.h"

namespace attend {
namespace {

// Length of the well-formed sequence starting at text[i], or 0 if it is ill-formed.
// Each row of Table 3-7 fixes the range of the lead byte and of the second byte; every
// later byte is a plain continuation byte 0x80..0xBF.
std::size_t well_formed_length(std::string_view text, std::size_t i) {
  const auto byte = [&](std::size_t k) { return static_cast<unsigned char>(text[k]); };
  const unsigned char lead = byte(i);
  std::size_t length;
  unsigned char second_min = 0x80, second_max = 0xBF;
  if (lead < 0x80) {
    return 1;
  } else if (lead >= 0xC2 && lead <= 0xDF) {
    length = 2;
  } else if (lead >= 0xE0 && lead <= 0xEF) {
    length = 3;
    if (lead == 0xE0) second_min = 0xA0;  // below: overlong
    if (lead == 0xED) second_max = 0x9F;  // above: surrogates
  } else if (lead >= 0xF0 && lead <= 0xF4) {
    length = 4;
    if (lead == 0xF0) second_min = 0x90;  // below: overlong
    if (lead == 0xF4) second_max = 0x8F;  // above: beyond U+10FFFF
  } else {
    return 0;  // 0x80..0xC1 (continuation or overlong lead), 0xF5..0xFF
  }
  if (text.size() - i < length) return 0;
  if (byte(i + 1) < second_min || byte(i + 1) > second_max) return 0;
  for (std::size_t k = 2; k < length; ++k) {
    if (byte(i + k) < 0x80 || byte(i + k) > 0xBF) return 0;
  }
  return length;
}

}  // namespace

std::optional<std::size_t> find_invalid_utf8(std::string_view text) {
  std::size_t i = 0;
  while (i < text.size()) {
    const std::size_t length = well_formed_length(text, i);
    if (length == 0) return i;
    i += length;
  }
  return std::nullopt;
}

void require_valid_utf8(std::string_view text) {
  if (const auto offset = find_invalid_utf8(text)) {
    throw Error(ErrorCode::invalid_input,
                "input is not valid UTF-8 at byte " + std::to_string(*offset));
  }
}

}  // namespace attend
