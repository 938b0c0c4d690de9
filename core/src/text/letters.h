// Letters without a Unicode database (the WebAssembly module carries none).
#pragma once

#include <cstddef>
#include <string_view>

namespace attend {

// Whether text holds anything to translate: ASCII letters count, and so does every other code
// point outside the ranges of punctuation, symbols, emoji and spaces listed in letters.cpp.
// `text` must be valid UTF-8.
bool contains_letter(std::string_view text);

// Letters by case, of ASCII and Latin-1 (the shipped models' English, German and French): "A"–"Z"
// and "À"–"Þ" but "×" are upper, "a"–"z" and "ß"–"ÿ" but "÷" lower (two bytes in UTF-8 after 0xC3).
enum class Letter { none, upper, lower };

// The letter at text[i] (i < text.size()), and its length in bytes (1 when none).
Letter letter_at(std::string_view text, size_t i, size_t* length);

// The letter text starts with (none when empty).
Letter first_letter(std::string_view text);

}  // namespace attend
