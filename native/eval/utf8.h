// UTF-8 <-> code points, and whitespace exactly as Python's str.split()/str.isspace() see it.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace attend::eval {

// Strict decoding (no overlongs, surrogates or values above U+10FFFF), as Python's
// utf-8 codec. Throws attend::Error(invalid_input) naming the byte offset.
std::u32string utf8_decode(std::string_view text);
std::string utf8_encode(std::u32string_view text);

// Python's str.isspace(): \t \n \v \f \r, U+001C..U+001F, space, U+0085, U+00A0, U+1680,
// U+2000..U+200A, U+2028, U+2029, U+202F, U+205F, U+3000.
bool is_python_space(char32_t c);

// Python's str.split() with no argument: runs of whitespace separate, none kept.
std::vector<std::u32string> split_whitespace(std::u32string_view text);

// Python's str.rstrip() with no argument.
std::u32string_view rstrip_whitespace(std::u32string_view text);

}  // namespace attend::eval
