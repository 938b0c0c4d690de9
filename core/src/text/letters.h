// Whether text holds anything to translate, without a Unicode database (the WebAssembly module
// carries none): ASCII letters count, and so does every other code point outside the ranges of
// punctuation, symbols, emoji and spaces listed in letters.cpp.
#pragma once

#include <string_view>

namespace attend {

// `text` must be valid UTF-8.
bool contains_letter(std::string_view text);

}  // namespace attend
