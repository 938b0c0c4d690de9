// From a row of logits to what the searches need, without a full log-softmax per token:
//   log p(i) = x_i - lse,  lse = log Σ_j exp(x_j)  (computed as max + log Σ exp(x_j - max)).
#pragma once

#include <vector>

#include "decode/step_scorer.h"
#include "kernels/kernels.h"

namespace attend {

// lse of logits[n] whose largest value is at `best`.
float log_sum_exp(const kernels::KernelTable& k, const float* logits, int n, int best);

// lse of logits[n] (n ≥ 1), its largest value found by best_tokens' scan: two passes over the
// logits, both in the table's vector kernels.
float log_sum_exp(const kernels::KernelTable& k, const float* logits, int n);

// best[k]: the k largest of logits[n] (k ≤ n), largest first, equal values by lower index first,
// each as (index, x_i - lse). The result does not depend on the table, only the speed.
void best_tokens(const float* logits, int n, float lse, int k, TokenScore* best,
                 const kernels::KernelTable& table = kernels::best_kernels());

// What a StepScorer gives for one row (decode/step_scorer.h): best[count], the count best tokens
// once the banned ones are set to -inf, as (token, x - lse) with lse over all n logits.
// scratch: count + kMaxBannedTokens entries. logits may be left with the banned ones at -inf.
void best_allowed_tokens(const kernels::KernelTable& k, float* logits, int n, const BannedTokens& banned, int count,
                         TokenScore* scratch, TokenScore* best);

// As best_allowed_tokens over the logits of a lexical shortlist's tokens alone: logits[i] (of A)
// is token tokens[i]'s (tokens ascending; index_of [V] the inverse, -1 outside the shortlist), the
// lse over them only, as Marian's log-softmax over the shortlisted columns. Asked for more than
// A, the rest are the lowest tokens outside the shortlist, at -inf. logits may be left with the
// banned ones at -inf.
void best_shortlisted_tokens(const kernels::KernelTable& k, float* logits, const std::vector<int>& tokens,
                             const std::vector<int>& index_of, const BannedTokens& banned, int count, TokenScore* best);

}  // namespace attend
