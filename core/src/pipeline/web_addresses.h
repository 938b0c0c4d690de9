// Web addresses and handles: the shipped models have never seen one and drop or mangle it
// ("Visit https://example.com/page?id=3 for more info." gave "Blick auf einen Motorradfahrer, …"),
// so they pass through like unknown pieces (pipeline/pass_through.h).
#pragma once

#include <string_view>
#include <vector>

#include "pipeline/pass_through.h"

namespace attend {

// The words of `text` (between whitespace, no-break spaces included, without the brackets and
// quotes before them and the quotes and punctuation that end a sentence or close a bracket after
// them) that are a URL ("://" after a
// letter, or "www." first), an e-mail address (something, "@", a domain with a dot inside), a
// handle ("@" and a letter, digit or "_") or a hashtag ("#" and a letter). In text order.
std::vector<ByteRange> web_addresses(std::string_view text);

}  // namespace attend
