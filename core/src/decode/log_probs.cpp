#include "decode/log_probs.h"

#include <cmath>

namespace attend {

float log_sum_exp(const kernels::KernelTable& k, const float* logits, int n, int best) {
  return logits[best] + std::log(k.sum_exp_f32(logits, n, logits[best]));
}

int argmax(const float* x, int n) {
  // The largest value with 8 independent running maxima (8 compare chains in flight instead
  // of one), then its first position.
  constexpr int kLanes = 8;
  float lane_max[kLanes];
  for (int l = 0; l < kLanes; ++l) lane_max[l] = x[0];
  int i = 0;
  for (; i + kLanes <= n; i += kLanes) {
    for (int l = 0; l < kLanes; ++l) lane_max[l] = x[i + l] > lane_max[l] ? x[i + l] : lane_max[l];
  }
  float largest = lane_max[0];
  for (int l = 1; l < kLanes; ++l) largest = lane_max[l] > largest ? lane_max[l] : largest;
  for (; i < n; ++i) largest = x[i] > largest ? x[i] : largest;
  i = 0;
  while (i + 1 < n && x[i] != largest) ++i;  // bounded even if a NaN slipped in
  return i;
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
    best[j] = TokenScore{i, x};
  };
  int i = 0;
  for (; i < n && held < k; ++i) offer(i);
  while (i < n) {
    i += table.first_above_f32(logits + i, n - i, best[k - 1].log_prob);
    if (i < n) offer(i++);
  }
  for (int j = 0; j < held; ++j) best[j].log_prob -= lse;
}

void best_allowed_tokens(const kernels::KernelTable& k, float* logits, int n, const BannedTokens& banned, int count,
                         TokenScore* scratch, TokenScore* best) {
  if (count + banned.count > n) {  // a vocabulary too small to step over the banned tokens
    const float lse = log_sum_exp(k, logits, n, argmax(logits, n));
    banned.mask(logits);
    best_tokens(logits, n, lse, count, best, k);
    return;
  }
  // One pass for both: the count + banned best of the unmasked logits start with the largest
  // (the lse's shift), and without the banned ones they are the best of the masked logits.
  best_tokens(logits, n, 0.f, count + banned.count, scratch, k);
  const float lse = log_sum_exp(k, logits, n, scratch[0].token);
  for (int j = 0, kept = 0; kept < count; ++j) {
    if (!banned.contains(scratch[j].token)) best[kept++] = TokenScore{scratch[j].token, scratch[j].log_prob - lse};
  }
}

}  // namespace attend
