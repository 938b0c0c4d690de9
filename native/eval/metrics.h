// Corpus BLEU and chrF (and sentence BLEU), computed as sacreBLEU 2.x computes them with its defaults, for one
// reference per segment. Inputs are UTF-8; invalid UTF-8 throws attend::Error(invalid_input)
// naming the line, and hypothesis/reference streams of different lengths throw
// attend::Error(invalid_argument).
//
//   BleuScore bleu = corpus_bleu(hyps, refs);
//   std::cout << format_bleu(bleu) << "\n" << bleu_signature(BleuOptions{}) << "\n";
//   // BLEU = 34.21 65.1/41.2/28.0/19.7 (BP = 0.987 ratio = 0.987 hyp_len = 12001 ref_len = 12160)
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <vector>

namespace attend::eval {

// BLEU with the 13a tokenizer, 'exp' smoothing, n-grams up to 4, no effective order.
constexpr int kBleuMaxOrder = 4;

struct BleuOptions {
  bool lowercase = false;  // Python-style str.lower() before tokenizing (see utf8_lower.cpp)
};

struct BleuScore {
  double score = 0.0;                              // 0..100
  std::array<int64_t, kBleuMaxOrder> correct{};    // clipped n-gram matches, n = 1..4
  std::array<int64_t, kBleuMaxOrder> total{};      // hypothesis n-grams, n = 1..4
  std::array<double, kBleuMaxOrder> precisions{};  // 0..100, after smoothing
  double brevity_penalty = 0.0;
  double ratio = 0.0;  // sys_len / ref_len, 0 when ref_len is 0
  int64_t sys_len = 0;
  int64_t ref_len = 0;
};

BleuScore corpus_bleu(const std::vector<std::string>& hyps, const std::vector<std::string>& refs,
                      const BleuOptions& options = {});

// One segment's BLEU as sacreBLEU's sentence_bleu() computes it: 'exp' smoothing and the
// effective order (orders the hypothesis has no n-grams of are left out of the mean).
BleuScore sentence_bleu(const std::string& hyp, const std::string& ref, const BleuOptions& options = {});

// chrF: character n-grams up to char_order with whitespace removed, optional word n-grams
// (word_order 2 = chrF++), F-beta of precision and recall averaged over the orders that
// occur ("eff:yes", sacreBLEU's default eps_smoothing=false).
struct ChrfOptions {
  int char_order = 6;
  int word_order = 0;
  int beta = 2;
  bool lowercase = false;
  bool whitespace = false;  // keep whitespace inside character n-grams
};

struct ChrfOrderStats {
  int64_t hyp = 0;    // hypothesis n-grams (0 for a segment whose reference has none)
  int64_t ref = 0;    // reference n-grams
  int64_t match = 0;  // clipped matches
};

struct ChrfScore {
  double score = 0.0;                // 0..100
  std::vector<ChrfOrderStats> stats;  // char orders 1..char_order, then word orders 1..word_order
};

ChrfScore corpus_chrf(const std::vector<std::string>& hyps, const std::vector<std::string>& refs,
                      const ChrfOptions& options = {});

// sacreBLEU-style reports. The version field names this implementation, not sacreBLEU:
//   nrefs:1|case:mixed|eff:no|tok:13a|smooth:exp|version:attend-sacrebleu2-compatible
//   nrefs:1|case:mixed|eff:yes|nc:6|nw:0|space:no|version:attend-sacrebleu2-compatible
std::string bleu_signature(const BleuOptions& options);
std::string chrf_signature(const ChrfOptions& options);
std::string format_bleu(const BleuScore& score);                            // "BLEU = 34.21 ..."
std::string format_chrf(const ChrfScore& score, const ChrfOptions& options);  // "chrF2 = 61.58"

}  // namespace attend::eval
