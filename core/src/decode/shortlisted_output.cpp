#include "decode/shortlisted_output.h"

namespace attend {

ShortlistedOutput::ShortlistedOutput(const Linear& output, const uint8_t* allowed, int vocab, const KernelTable& k)
    : index_of(static_cast<size_t>(vocab), -1) {
  for (int t = 0; t < vocab; ++t) {
    if (!allowed[t]) continue;
    index_of[t] = static_cast<int>(tokens.size());
    tokens.push_back(t);
  }
  layer = select_rows(output, tokens, k, owned);
}

}  // namespace attend
