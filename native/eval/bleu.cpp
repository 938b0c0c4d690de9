// Corpus BLEU as sacreBLEU 2.x (metrics/bleu.py) computes it with its defaults.
//
// Per segment: optional lowercase, right-strip, 13a tokenization; hyp_len and ref_len are
// token counts; for n = 1..4, total[n] += #hypothesis n-grams and
// correct[n] += sum over n-grams g of min(count_hyp(g), count_ref(g)). All summed over the corpus.
//
// Then, with c = sys_len and r = ref_len:
//   BP = 1 if c >= r, else exp(1 - r / c) (0 if c = 0)
//   if every correct[n] is 0: BLEU = 0 and all precisions 0
//   for n = 1..4 (stop at the first n with total[n] = 0, leaving p_n = 0):
//     p_n = 100 * correct[n] / total[n]                   if correct[n] > 0
//     p_n = 100 / (2^k * total[n]), k = 1, 2, ... counting the orders with correct[n] = 0
//                                                         ('exp' smoothing, mteval-v13a's)
//   BLEU = BP * exp((1/4) * sum_n log(p_n)), where log(0) is taken as -9999999999 (so 0).
#include <cmath>
#include <unordered_map>

#include "corpus_input.h"
#include "metrics.h"
#include "tokenizer_13a.h"
#include "utf8.h"
#include "utf8_lower.h"

namespace attend::eval {

namespace {

using NgramCounts = std::unordered_map<std::u32string, int64_t>;

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

BleuScore corpus_bleu(const std::vector<std::string>& hyps, const std::vector<std::string>& refs,
                      const BleuOptions& options) {
  check_parallel(hyps, refs);
  BleuScore result;
  for (size_t i = 0; i < hyps.size(); ++i) {
    const std::vector<std::u32string> hyp_tokens = preprocess(hyps[i], "hypothesis", i, options);
    const std::vector<std::u32string> ref_tokens = preprocess(refs[i], "reference", i, options);
    result.sys_len += static_cast<int64_t>(hyp_tokens.size());
    result.ref_len += static_cast<int64_t>(ref_tokens.size());
    const auto hyp_counts = count_ngrams(hyp_tokens);
    const auto ref_counts = count_ngrams(ref_tokens);
    for (int n = 0; n < kBleuMaxOrder; ++n) {
      for (const auto& [ngram, count] : hyp_counts[n]) {
        result.total[n] += count;
        const auto found = ref_counts[n].find(ngram);
        if (found != ref_counts[n].end()) result.correct[n] += std::min(count, found->second);
      }
    }
  }

  const double sys_len = static_cast<double>(result.sys_len);
  const double ref_len = static_cast<double>(result.ref_len);
  result.ratio = result.ref_len > 0 ? sys_len / ref_len : 0.0;
  if (result.sys_len < result.ref_len) {
    result.brevity_penalty = result.sys_len > 0 ? std::exp(1.0 - ref_len / sys_len) : 0.0;
  } else {
    result.brevity_penalty = 1.0;
  }

  bool any_correct = false;
  for (const int64_t c : result.correct) any_correct = any_correct || c > 0;
  if (!any_correct) return result;

  double smooth = 1.0;
  for (int n = 0; n < kBleuMaxOrder; ++n) {
    if (result.total[n] == 0) break;
    const double total = static_cast<double>(result.total[n]);
    if (result.correct[n] == 0) {
      smooth *= 2.0;
      result.precisions[n] = 100.0 / (smooth * total);
    } else {
      result.precisions[n] = 100.0 * static_cast<double>(result.correct[n]) / total;
    }
  }
  double log_sum = 0.0;
  for (const double p : result.precisions) log_sum += log_or_floor(p);
  result.score = result.brevity_penalty * std::exp(log_sum / kBleuMaxOrder);
  return result;
}

}  // namespace attend::eval
