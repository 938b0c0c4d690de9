// From a row of logits to what the searches need, without a full log-softmax per token:
//   log p(i) = x_i - lse,  lse = log Σ_j exp(x_j)  (computed as max + log Σ exp(x_j - max)).
#pragma once

#include <cstdint>
#include <vector>

#include "kernels/kernels.h"

namespace attend {

// lse of logits[n] whose largest value is at `best`.
float log_sum_exp(const kernels::KernelTable& k, const float* logits, int n, int best);

// Index of the largest value (the first one on ties).
int argmax(const float* x, int n);

struct Candidate {
  float score;   // hypothesis score + log p
  int64_t flat;  // beam · V + token: the tie-break, lower first
};

// Orders candidates best first: higher score, then lower flat index.
inline bool better(const Candidate& a, const Candidate& b) {
  return a.score > b.score || (a.score == b.score && a.flat < b.flat);
}

// Appends the `count` best tokens of one beam's row as candidates (score = base + x_i - lse).
void top_candidates(const float* logits, int n, int count, float base, float lse, int64_t flat_offset,
                    std::vector<Candidate>& out);

}  // namespace attend
