#include "decode/log_probs.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace attend {

float log_sum_exp(const kernels::KernelTable& k, const float* logits, int n, int best) {
  return logits[best] + std::log(k.sum_exp_f32(logits, n, logits[best]));
}

void best_tokens(const float* logits, int n, float lse, int k, TokenScore* best, const kernels::KernelTable& table) {
  // A sorted window of the k best seen so far (raw logits while scanning). Once it is full, only
  // a value above its last can enter, and the kernel skips to the next one: only ~k·ln(n/k)
  // values ever enter it.
  if (k <= 0) return;
  int held = 0;
  auto offer = [&](int i) {
    const float x = logits[i];
    int j = held < k ? held++ : k - 1;  // the last one falls out when the window is full
    for (; j > 0 && x > best[j - 1].log_prob; --j) best[j] = best[j - 1];  // after equal values
    best[j] = TokenScore{i, x, x};
  };
  int i = 0;
  for (; i < n && held < k; ++i) offer(i);
  while (i < n) {
    i += table.first_above_f32(logits + i, n - i, best[k - 1].log_prob);
    if (i < n) offer(i++);
  }
  for (int j = 0; j < held; ++j) best[j].log_prob -= lse;  // .logit keeps x
}

float log_sum_exp(const kernels::KernelTable& k, const float* logits, int n) {
  TokenScore largest;
  best_tokens(logits, n, 0.f, 1, &largest, k);  // its log_prob is the raw logit: x - 0
  return largest.log_prob + std::log(k.sum_exp_f32(logits, n, largest.log_prob));
}

void best_allowed_tokens(const kernels::KernelTable& k, float* logits, int n, const BannedTokens& banned, int count,
                         TokenScore* scratch, TokenScore* best) {
  if (count + banned.count > n) {  // a vocabulary too small to step over the banned tokens
    const float lse = log_sum_exp(k, logits, n);
    banned.mask(logits);
    best_tokens(logits, n, lse, count, best, k);
    return;
  }
  // One pass for both: the count + banned best of the unmasked logits start with the largest
  // (the lse's shift), and without the banned ones they are the best of the masked logits.
  best_tokens(logits, n, 0.f, count + banned.count, scratch, k);
  const float lse = log_sum_exp(k, logits, n, scratch[0].token);
  for (int j = 0, kept = 0; kept < count; ++j) {
    if (!banned.contains(scratch[j].token)) {
      best[kept++] = TokenScore{scratch[j].token, scratch[j].log_prob - lse, scratch[j].logit};
    }
  }
}

void best_shortlisted_tokens(const kernels::KernelTable& k, float* logits, const std::vector<int>& tokens,
                             const std::vector<int>& index_of, const BannedTokens& banned, int count, TokenScore* best) {
  const int n = static_cast<int>(tokens.size());
  const float lse = log_sum_exp(k, logits, n);  // over the shortlist's tokens only, as Marian's log-softmax
  for (int b = 0; b < banned.count; ++b) {
    const int i = index_of[banned.ids[b]];
    if (i >= 0) logits[i] = -std::numeric_limits<float>::infinity();
  }
  const int listed = std::min(count, n);
  best_tokens(logits, n, lse, listed, best, k);  // equal values: lower index, so lower token, first
  for (int j = 0; j < listed; ++j) best[j].token = tokens[best[j].token];
  const float none = -std::numeric_limits<float>::infinity();
  for (int t = 0, j = listed; j < count; ++t) {
    if (index_of[t] < 0) best[j++] = TokenScore{t, none, none};
  }
}

}  // namespace attend
