// sacreBLEU-style signatures and score lines (sacreBLEU's metrics/base.py and bleu.py).
#include <cstdio>

#include "metrics.h"

namespace attend::eval {

namespace {

// Names this implementation; it follows sacreBLEU 2.x but is not sacreBLEU.
constexpr const char* kVersion = "attend-sacrebleu2-compatible";

// Python's f"{value:.{digits}f}" (both round the exact binary value half to even).
std::string fixed(double value, int digits) {
  char buffer[64];
  std::snprintf(buffer, sizeof buffer, "%.*f", digits, value);
  return buffer;
}

}  // namespace

std::string bleu_signature(const BleuOptions& options) {
  return std::string("nrefs:1|case:") + (options.lowercase ? "lc" : "mixed") +
         "|eff:no|tok:13a|smooth:exp|version:" + kVersion;
}

std::string chrf_signature(const ChrfOptions& options) {
  return std::string("nrefs:1|case:") + (options.lowercase ? "lc" : "mixed") +
         "|eff:yes|nc:" + std::to_string(options.char_order) +
         "|nw:" + std::to_string(options.word_order) +
         "|space:" + (options.whitespace ? "yes" : "no") + "|version:" + kVersion;
}

// BLEU = 34.21 65.1/41.2/28.0/19.7 (BP = 0.987 ratio = 0.987 hyp_len = 12001 ref_len = 12160)
std::string format_bleu(const BleuScore& score) {
  std::string line = "BLEU = " + fixed(score.score, 2) + " ";
  for (int n = 0; n < kBleuMaxOrder; ++n) {
    if (n > 0) line += "/";
    line += fixed(score.precisions[n], 1);
  }
  line += " (BP = " + fixed(score.brevity_penalty, 3) + " ratio = " + fixed(score.ratio, 3) +
          " hyp_len = " + std::to_string(score.sys_len) +
          " ref_len = " + std::to_string(score.ref_len) + ")";
  return line;
}

// chrF2 = 61.58, chrF2++ = ... (one '+' per word order, as sacreBLEU names it)
std::string format_chrf(const ChrfScore& score, const ChrfOptions& options) {
  return "chrF" + std::to_string(options.beta) + std::string(options.word_order, '+') + " = " +
         fixed(score.score, 2);
}

}  // namespace attend::eval
