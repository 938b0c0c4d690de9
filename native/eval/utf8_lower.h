// Lowercasing that matches Python's str.lower() on the scripts we translate (see utf8_lower.cpp).
#pragma once

#include <string>
#include <string_view>

namespace attend::eval {

std::u32string to_lower(std::u32string_view text);

// UTF-8 in, UTF-8 out; throws attend::Error(invalid_input) on invalid UTF-8.
std::string utf8_lower(std::string_view text);

}  // namespace attend::eval
