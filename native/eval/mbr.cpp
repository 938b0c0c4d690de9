// Minimum Bayes risk selection: each distinct candidate scored against every pool entry.
#include "mbr.h"

#include <unordered_map>

#include "attend/error.h"
#include "bleu_segments.h"

namespace attend::eval {

size_t mbr_select(const std::vector<std::string>& pool) {
  if (pool.empty()) throw Error(ErrorCode::invalid_argument, "MBR selection needs at least one translation");
  std::vector<SegmentNgrams> entries;
  entries.reserve(pool.size());
  for (size_t i = 0; i < pool.size(); ++i) entries.push_back(segment_ngrams(pool[i], "translation", i, {}));

  std::unordered_map<std::string, size_t> first_of;  // text -> index of its first entry
  size_t best = 0;
  double best_gain = -1.0;
  for (size_t c = 0; c < pool.size(); ++c) {
    if (!first_of.emplace(pool[c], c).second) continue;
    double gain = 0.0;
    for (const SegmentNgrams& evidence : entries) {
      BleuScore stats;
      add_segment(entries[c], evidence, &stats);
      finish_bleu(&stats, /*effective_order=*/true);
      gain += stats.score;
    }
    if (gain > best_gain) {
      best_gain = gain;
      best = c;
    }
  }
  return best;
}

}  // namespace attend::eval
