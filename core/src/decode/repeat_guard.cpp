#include "decode/repeat_guard.h"

#include <limits>

namespace attend {

bool BannedTokens::contains(int token) const {
  for (int i = 0; i < count; ++i) {
    if (ids[i] == token) return true;
  }
  return false;
}

void BannedTokens::mask(float* logits) const {
  for (int i = 0; i < count; ++i) logits[ids[i]] = -std::numeric_limits<float>::infinity();
}

BannedTokens repeat_banned(const int* history, int length, int max_repeats) {
  BannedTokens banned;
  if (max_repeats <= 0) return banned;
  for (int n = 1; n <= kRepeatGuardMaxN; ++n) {
    // Taking history[length - n] next would make max_repeats + 1 copies of the last n-gram when the
    // last max_repeats · n − 1 tokens each equal the token n before them.
    const int span = max_repeats * n - 1;
    if (length < span + n) break;  // too short for this n and every longer one
    int j = length - 1;
    while (j >= length - span && history[j] == history[j - n]) --j;
    if (j < length - span) banned.ids[banned.count++] = history[length - n];
  }
  return banned;
}

}  // namespace attend
