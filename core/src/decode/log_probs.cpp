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

void best_tokens(const float* logits, int n, float lse, int k, TokenScore* best) {
  // A sorted window of the k best seen so far (raw logits while scanning): cheap since k ≪ n.
  int held = 0;
  for (int i = 0; i < n; ++i) {
    const float x = logits[i];
    if (held == k && !(x > best[k - 1].log_prob)) continue;
    int j = held < k ? held++ : k - 1;  // the last one falls out when the window is full
    for (; j > 0 && x > best[j - 1].log_prob; --j) best[j] = best[j - 1];  // after equal values
    best[j] = TokenScore{i, x};
  }
  for (int j = 0; j < held; ++j) best[j].log_prob -= lse;
}

}  // namespace attend
