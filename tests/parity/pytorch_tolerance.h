// How close the C++ core must come to the PyTorch reference: the one place these live.
#pragma once

#include <algorithm>
#include <cmath>

namespace attend::testing {

// f32 logits: |got − want| ≤ 1e-4 · max(1, |want|)
inline bool logits_close(float got, float want) { return std::fabs(got - want) <= 1e-4f * std::max(1.f, std::fabs(want)); }
// attention probabilities in [0, 1]
inline bool probability_close(float got, float want) { return std::fabs(got - want) <= 1e-5f; }
// hypothesis scores (sums of up to max_length log-probabilities)
inline bool score_close(float got, float want) { return std::fabs(got - want) <= 1e-4f * std::max(1.f, std::fabs(want)); }

}  // namespace attend::testing
