// Strict UTF-8 validation (Unicode 15, Table 3-7 "Well-Formed UTF-8 Byte Sequences").
// Rejects overlong forms, UTF-16 surrogates (U+D800..U+DFFF), code points above U+10FFFF,
// stray continuation bytes and sequences cut short.
#pragma once

#include <cstddef>
#include <optional>
#include <string_view>

namespace attend {

// Offset of the first byte of the first ill-formed sequence in `text`, or nullopt if
// `text` is entirely well-formed UTF-8.
std::optional<std::size_t> find_invalid_utf8(std::string_view text);

// Throws Error(invalid_input, "input is not valid UTF-8 at byte N") unless `text` is
// well-formed UTF-8.
void require_valid_utf8(std::string_view text);

}  // namespace attend
