// Corpus chrF as sacreBLEU 2.x (metrics/chrf.py) computes it with eps_smoothing=false.
//
// Per segment and order: character n-grams over code points of the (optionally lowercased)
// line with all whitespace removed; for chrF++ also word n-grams over the words of
// remove_punctuation(). For each order:
//   hyp   = #hypothesis n-grams, but 0 when the reference has no n-gram of that order
//   ref   = #reference n-grams
//   match = sum over n-grams g of min(count_hyp(g), count_ref(g))
// summed over the corpus. Then over the orders with hyp > 0 and ref > 0 (the effective ones):
//   P = mean(match / hyp), R = mean(match / ref)
//   chrF = 100 * (1 + beta^2) * P * R / (beta^2 * P + R), 0 when P + R = 0 or no order counts.
#include <unordered_map>

#include "attend/error.h"
#include "corpus_input.h"
#include "metrics.h"
#include "utf8.h"
#include "utf8_lower.h"

namespace attend::eval {

namespace {

using NgramCounts = std::unordered_map<std::u32string, int64_t>;

NgramCounts count_char_ngrams(const std::u32string& text, size_t n) {
  NgramCounts counts;
  for (size_t start = 0; start + n <= text.size(); ++start) ++counts[text.substr(start, n)];
  return counts;
}

NgramCounts count_word_ngrams(const std::vector<std::u32string>& words, size_t n) {
  NgramCounts counts;
  for (size_t start = 0; start + n <= words.size(); ++start) {
    std::u32string ngram = words[start];
    for (size_t k = 1; k < n; ++k) ngram += U' ' + words[start + k];
    ++counts[ngram];
  }
  return counts;
}

// Python's string.punctuation.
bool is_ascii_punctuation(char32_t c) {
  return (c >= 0x21 && c <= 0x2F) || (c >= 0x3A && c <= 0x40) || (c >= 0x5B && c <= 0x60) ||
         (c >= 0x7B && c <= 0x7E);
}

// chrF++'s word splitting: a word longer than one character loses one punctuation mark,
// its last if that is one, else its first (so "(hi)" becomes "(hi" and ")").
std::vector<std::u32string> remove_punctuation(std::u32string_view text) {
  std::vector<std::u32string> words;
  for (std::u32string& word : split_whitespace(text)) {
    if (word.size() > 1 && is_ascii_punctuation(word.back())) {
      const char32_t last = word.back();
      word.pop_back();
      words.push_back(std::move(word));
      words.emplace_back(1, last);
    } else if (word.size() > 1 && is_ascii_punctuation(word.front())) {
      words.emplace_back(1, word.front());
      words.push_back(word.substr(1));
    } else {
      words.push_back(std::move(word));
    }
  }
  return words;
}

// The n-gram counts of every order: char orders first, then word orders.
std::vector<NgramCounts> count_all_ngrams(const std::string& line, const char* stream,
                                          size_t index, const ChrfOptions& options) {
  std::u32string text = decode_line(line, stream, index);
  if (options.lowercase) text = to_lower(text);
  std::u32string chars;
  if (options.whitespace) {
    chars = text;
  } else {
    for (const char32_t c : text) {
      if (!is_python_space(c)) chars.push_back(c);
    }
  }
  std::vector<NgramCounts> all;
  for (int n = 1; n <= options.char_order; ++n) all.push_back(count_char_ngrams(chars, n));
  if (options.word_order > 0) {
    const std::vector<std::u32string> words = remove_punctuation(text);
    for (int n = 1; n <= options.word_order; ++n) all.push_back(count_word_ngrams(words, n));
  }
  return all;
}

double f_score(const std::vector<ChrfOrderStats>& stats, int beta) {
  double avg_precision = 0.0, avg_recall = 0.0;
  int effective_order = 0;
  for (const ChrfOrderStats& s : stats) {
    if (s.hyp > 0 && s.ref > 0) {
      avg_precision += static_cast<double>(s.match) / static_cast<double>(s.hyp);
      avg_recall += static_cast<double>(s.match) / static_cast<double>(s.ref);
      ++effective_order;
    }
  }
  if (effective_order == 0) return 0.0;
  avg_precision /= effective_order;
  avg_recall /= effective_order;
  if (avg_precision + avg_recall == 0.0) return 0.0;
  const double factor = static_cast<double>(beta) * beta;
  const double score = (1 + factor) * avg_precision * avg_recall;
  return 100 * (score / (factor * avg_precision + avg_recall));
}

}  // namespace

ChrfScore corpus_chrf(const std::vector<std::string>& hyps, const std::vector<std::string>& refs,
                      const ChrfOptions& options) {
  check_parallel(hyps, refs);
  if (options.char_order < 0 || options.word_order < 0 ||
      options.char_order + options.word_order == 0) {
    throw Error(ErrorCode::invalid_argument,
                "chrF needs non-negative orders, not both 0: char_order " +
                    std::to_string(options.char_order) + ", word_order " +
                    std::to_string(options.word_order));
  }
  ChrfScore result;
  result.stats.resize(static_cast<size_t>(options.char_order + options.word_order));
  for (size_t i = 0; i < hyps.size(); ++i) {
    const auto hyp_counts = count_all_ngrams(hyps[i], "hypothesis", i, options);
    const auto ref_counts = count_all_ngrams(refs[i], "reference", i, options);
    for (size_t order = 0; order < result.stats.size(); ++order) {
      int64_t hyp_total = 0, ref_total = 0, matches = 0;
      for (const auto& [ngram, count] : hyp_counts[order]) {
        hyp_total += count;
        const auto found = ref_counts[order].find(ngram);
        if (found != ref_counts[order].end()) matches += std::min(count, found->second);
      }
      for (const auto& entry : ref_counts[order]) ref_total += entry.second;
      ChrfOrderStats& s = result.stats[order];
      s.hyp += ref_counts[order].empty() ? 0 : hyp_total;
      s.ref += ref_total;
      s.match += matches;
    }
  }
  result.score = f_score(result.stats, options.beta);
  return result;
}

}  // namespace attend::eval
