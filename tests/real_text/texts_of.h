// The text of each range, in order: what the real-text rules found, for comparing with strings.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "text/words.h"

namespace attend {

inline std::vector<std::string> texts_of(std::string_view text, const std::vector<ByteRange>& ranges) {
  std::vector<std::string> out;
  for (const ByteRange& range : ranges) out.emplace_back(slice(text, range));
  return out;
}

}  // namespace attend
