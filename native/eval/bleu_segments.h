// The per-segment half of BLEU (bleu.cpp), for callers that score one segment against many:
// count a segment's n-grams once, then add any (hypothesis, reference) pair's statistics.
//
//   SegmentNgrams a = segment_ngrams(text_a, "hypothesis", 0, options);
//   BleuScore stats;
//   add_segment(a, segment_ngrams(text_b, "reference", 0, options), &stats);
//   finish_bleu(&stats, /*effective_order=*/true);  // stats.score = sentence BLEU of a against b
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <unordered_map>

#include "metrics.h"

namespace attend::eval {

using NgramCounts = std::unordered_map<std::u32string, int64_t>;

struct SegmentNgrams {
  int64_t length = 0;                               // 13a tokens
  std::array<NgramCounts, kBleuMaxOrder> counts;  // orders 1..4
};

// Tokenizes one line as BLEU does; invalid UTF-8 throws naming `stream` and line index + 1.
SegmentNgrams segment_ngrams(const std::string& line, const char* stream, size_t index,
                             const BleuOptions& options);

// Adds the pair's lengths, clipped matches and hypothesis n-gram totals to `stats`.
void add_segment(const SegmentNgrams& hyp, const SegmentNgrams& ref, BleuScore* stats);

// Fills ratio, brevity penalty, precisions and score from the summed statistics; with
// effective_order the mean is over the orders the hypothesis has (sentence BLEU).
void finish_bleu(BleuScore* stats, bool effective_order);

}  // namespace attend::eval
