// Letter case, byte for byte: text in capitals told apart, lowercased, or capitalised.
#pragma once

#include <string>
#include <string_view>

namespace attend {

// Whether `text` is written in capitals: no lowercase letter, and at least two words of two or
// more capitals ("NEW YORK", not "A dog" or a lone acronym in other text). Letters are ASCII and
// Latin-1 (the shipped models' English, German and French); other scripts are left alone.
bool is_all_caps(std::string_view text);

// `text` with its capitals (ASCII and Latin-1) lowercased. Byte offsets are the same.
std::string to_lowercase(std::string_view text);

// `text` with its first character capitalised when it is a lowercase letter with a capital of
// ASCII or Latin-1 ("à 17 h" -> "À 17 h"; not "ß" or "ÿ"). Byte offsets are the same.
std::string with_first_capital(std::string_view text);

}  // namespace attend
