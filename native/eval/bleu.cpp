// Corpus and sentence BLEU as sacreBLEU 2.x (metrics/bleu.py) computes them with its defaults.
//
// Per segment: optional lowercase, right-strip, 13a tokenization; hyp_len and ref_len are
// token counts; for n = 1..4, total[n] += #hypothesis n-grams and
// correct[n] += sum over n-grams g of min(count_hyp(g), count_ref(g)). All summed over the corpus
// (a sentence's score is that of a one-segment corpus).
//
// Then, with c = sys_len and r = ref_len:
//   BP = 1 if c >= r, else exp(1 - r / c) (0 if c = 0)
//   if every correct[n] is 0: BLEU = 0 and all precisions 0
//   for n = 1..4 (stop at the first n with total[n] = 0, leaving p_n = 0):
//     p_n = 100 * correct[n] / total[n]                   if correct[n] > 0
//     p_n = 100 / (2^k * total[n]), k = 1, 2, ... counting the orders with correct[n] = 0
//                                                         ('exp' smoothing, mteval-v13a's)
//   BLEU = BP * exp((1/N) * sum_{n<=N} log(p_n)), where log(0) is taken as -9999999999 (so 0);
//   N = 4 for the corpus, and for a sentence the effective order: the orders with total[n] > 0
//   (sacreBLEU's sentence_bleu, so a 3-token hypothesis is not 0 for lacking 4-grams).
#include <cmath>

#include "bleu_segments.h"
#include "corpus_input.h"
#include "metrics.h"
#include "tokenizer_13a.h"
#include "utf8.h"
#include "utf8_lower.h"

namespace attend::eval {

namespace {

// Counts of the n-grams of order 1..4, keyed by the tokens joined with single spaces
// (tokens hold no whitespace, so orders cannot collide).
std::array<NgramCounts, kBleuMaxOrder> count_ngrams(const std::vector<std::u32string>& tokens) {
  std::array<NgramCounts, kBleuMaxOrder> counts;
  for (size_t start = 0; start < tokens.size(); ++start) {
    std::u32string ngram;
    for (size_t n = 1; n <= kBleuMaxOrder && start + n <= tokens.size(); ++n) {
      if (n > 1) ngram += U' ';
      ngram += tokens[start + n - 1];
      ++counts[n - 1][ngram];
    }
  }
  return counts;
}

std::vector<std::u32string> preprocess(const std::string& line, const char* stream,
                                       size_t index, const BleuOptions& options) {
  std::u32string text = decode_line(line, stream, index);
  if (options.lowercase) text = to_lower(text);
  return tokenize_13a(rstrip_whitespace(text));
}

// sacreBLEU's my_log: log(0) is a large negative number rather than -inf.
double log_or_floor(double x) { return x == 0.0 ? -9999999999.0 : std::log(x); }

}  // namespace

SegmentNgrams segment_ngrams(const std::string& line, const char* stream, size_t index,
                             const BleuOptions& options) {
  const std::vector<std::u32string> tokens = preprocess(line, stream, index, options);
  return SegmentNgrams{static_cast<int64_t>(tokens.size()), count_ngrams(tokens)};
}

void add_segment(const SegmentNgrams& hyp, const SegmentNgrams& ref, BleuScore* stats) {
  stats->sys_len += hyp.length;
  stats->ref_len += ref.length;
  for (int n = 0; n < kBleuMaxOrder; ++n) {
    for (const auto& [ngram, count] : hyp.counts[n]) {
      stats->total[n] += count;
      const auto found = ref.counts[n].find(ngram);
      if (found != ref.counts[n].end()) stats->correct[n] += std::min(count, found->second);
    }
  }
}

void finish_bleu(BleuScore* result, bool effective_order) {
  const double sys_len = static_cast<double>(result->sys_len);
  const double ref_len = static_cast<double>(result->ref_len);
  result->ratio = result->ref_len > 0 ? sys_len / ref_len : 0.0;
  if (result->sys_len < result->ref_len) {
    result->brevity_penalty = result->sys_len > 0 ? std::exp(1.0 - ref_len / sys_len) : 0.0;
  } else {
    result->brevity_penalty = 1.0;
  }

  bool any_correct = false;
  for (const int64_t c : result->correct) any_correct = any_correct || c > 0;
  if (!any_correct) return;

  double smooth = 1.0;
  int orders = 0;  // orders with hypothesis n-grams
  for (int n = 0; n < kBleuMaxOrder; ++n) {
    if (result->total[n] == 0) break;
    ++orders;
    const double total = static_cast<double>(result->total[n]);
    if (result->correct[n] == 0) {
      smooth *= 2.0;
      result->precisions[n] = 100.0 / (smooth * total);
    } else {
      result->precisions[n] = 100.0 * static_cast<double>(result->correct[n]) / total;
    }
  }
  const int order = effective_order ? orders : kBleuMaxOrder;
  double log_sum = 0.0;
  for (int n = 0; n < order; ++n) log_sum += log_or_floor(result->precisions[n]);
  result->score = result->brevity_penalty * std::exp(log_sum / order);
}

BleuScore corpus_bleu(const std::vector<std::string>& hyps, const std::vector<std::string>& refs,
                      const BleuOptions& options) {
  check_parallel(hyps, refs);
  BleuScore result;
  for (size_t i = 0; i < hyps.size(); ++i) {
    add_segment(segment_ngrams(hyps[i], "hypothesis", i, options),
                segment_ngrams(refs[i], "reference", i, options), &result);
  }
  finish_bleu(&result, /*effective_order=*/false);
  return result;
}

BleuScore sentence_bleu(const std::string& hyp, const std::string& ref, const BleuOptions& options) {
  BleuScore result;
  add_segment(segment_ngrams(hyp, "hypothesis", 0, options), segment_ngrams(ref, "reference", 0, options),
              &result);
  finish_bleu(&result, /*effective_order=*/true);
  return result;
}

}  // namespace attend::eval
