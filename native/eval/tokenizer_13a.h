// The "13a" tokenizer of mteval-v13a.pl, as sacreBLEU 2.x applies it (tokenizer_13a.py +
// tokenizer_re.py).
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace attend::eval {

// The tokens of one segment (code points); the caller has lowercased and right-stripped it.
std::vector<std::u32string> tokenize_13a(std::u32string_view line);

// UTF-8 convenience: the tokens joined by single spaces, as sacreBLEU returns them.
std::string tokenize_13a(std::string_view line);

}  // namespace attend::eval
