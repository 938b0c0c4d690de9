#include "decode/log_probs.h"

#include <algorithm>
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

void top_candidates(const float* logits, int n, int count, float base, float lse, int64_t flat_offset,
                    std::vector<Candidate>& out) {
  // A small sorted window of the best `count` seen so far: cheap since count ≪ n.
  const size_t first = out.size();
  for (int i = 0; i < n; ++i) {
    const size_t held = out.size() - first;
    if (held == static_cast<size_t>(count) && !(logits[i] > out.back().score)) continue;
    if (held == static_cast<size_t>(count)) out.pop_back();
    Candidate c{logits[i], flat_offset + i};
    auto pos = std::upper_bound(out.begin() + first, out.end(), c, [&](const Candidate& a, const Candidate& b) {
      return a.score > b.score;  // equal logits keep scan order: lower token first
    });
    out.insert(pos, c);
  }
  for (size_t i = first; i < out.size(); ++i) out[i].score = base + (out[i].score - lse);
}

}  // namespace attend
