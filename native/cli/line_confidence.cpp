#include "line_confidence.h"

#include <algorithm>

namespace attend::cli {

std::optional<float> line_confidence(const LineOutcome& outcome) {
  std::optional<float> lowest;
  for (const Translation* sentence : outcome.sentences) {
    if (sentence == nullptr || sentence->status != TranslationStatus::translated || sentence->hypotheses.empty()) continue;
    const float c = confidence(sentence->hypotheses[0]);
    lowest = lowest ? std::min(*lowest, c) : c;
  }
  return lowest;
}

}  // namespace attend::cli
