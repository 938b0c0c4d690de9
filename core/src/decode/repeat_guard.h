// The search's guard against degenerate repetition (TranslateOptions::max_repeats): the tokens a
// hypothesis may not take next because they would make one of its n-grams (n = 1 to
// kRepeatGuardMaxN) occur more than max_repeats times back to back. The reference's rule
// (training/attend_ref/search.py: repeat_banned).
#pragma once

#include "attend/translator.h"

namespace attend {

// The most tokens a hypothesis may be banned from: one per n, and the unknown token.
inline constexpr int kMaxBannedTokens = kRepeatGuardMaxN + 1;

// The banned next tokens of a hypothesis, at most one per n (none when the guard is off), and
// the unknown token under Marian's rules (SearchRules::marian).
struct BannedTokens {
  int ids[kMaxBannedTokens];
  int count = 0;

  void add(int token) { ids[count++] = token; }
  bool contains(int token) const;
  // Sets these tokens' entries of a row of logits to -inf.
  void mask(float* logits) const;
};

// history: the hypothesis's tokens (without bos), `length` of them; max_repeats 0 = off.
BannedTokens repeat_banned(const int* history, int length, int max_repeats);

}  // namespace attend
