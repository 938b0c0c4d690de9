#pragma once

#include <string_view>

namespace attend {

// Whether the JSON text opens more than `limit` arrays/objects inside one another (strings
// skipped). nlohmann's parser and dump() recurse once per level: bound the depth of untrusted
// text before parsing it.
bool json_nests_deeper_than(std::string_view text, int limit);

}  // namespace attend
