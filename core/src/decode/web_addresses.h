// Web addresses and handles: the shipped models have never seen one and drop or mangle it
// ("Visit https://example.com/page?id=3 for more info." gave "Blick auf einen Motorradfahrer, …"),
// so they pass through like unknown pieces (decode/pass_through.h).
#pragma once

#include <string_view>
#include <vector>

#include "decode/pass_through.h"

namespace attend {

// The words of `text` (between whitespace, without the brackets and quotes before them and the
// punctuation that ends a sentence or closes a bracket after them) that are a URL ("://" after a
// letter, or "www." first), an e-mail address (something, "@", a domain with a dot inside), a
// handle ("@" and a letter, digit or "_") or a hashtag ("#" and a letter). In text order.
std::vector<ByteRange> web_addresses(std::string_view text);

}  // namespace attend
