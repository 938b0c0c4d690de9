// The CLI's text parsers and the metrics on any bytes. The first byte picks one: a
// `--mask-head` value (only UsageError), `attend translate --nbest` output read back (only
// invalid_input), or the lines split into hypotheses and references for corpus BLEU, chrF and
// MBR (only invalid_input for bad UTF-8; scores in [0, 100]).
#include <string>

#include "fuzz_support.h"
#include "head_spec.h"
#include "mbr.h"
#include "metrics.h"
#include "nbest_lists.h"
#include "usage_error.h"

namespace {

using attend::fuzz::require;

void head_spec(const std::string& text) {
  try {
    const attend::HeadRef head = attend::cli::parse_head_spec(text);
    require(head.layer >= 0 && head.head >= 0, "a head spec parsed to a negative index");
  } catch (const attend::cli::UsageError&) {
  }
}

void nbest(const std::vector<std::string>& lines) {
  try {
    attend::cli::parse_nbest(lines, "fuzz");
  } catch (const attend::Error& e) {
    attend::fuzz::require_code(e, {attend::ErrorCode::invalid_input}, "parse_nbest");
  }
}

// A score in [0, 100], as sacreBLEU rounds it: a perfect BLEU is exp(log(100)) = 100.00000000000004.
bool is_percentage(double score) { return score >= 0 && score <= 100 + 1e-9; }

// The first half of the lines against the second half (the odd line out dropped).
void metrics(const std::vector<std::string>& lines, bool lowercase) {
  const size_t half = lines.size() / 2;
  const std::vector<std::string> hyps(lines.begin(), lines.begin() + half);
  const std::vector<std::string> refs(lines.begin() + half, lines.begin() + 2 * half);
  try {
    const attend::eval::BleuScore bleu = attend::eval::corpus_bleu(hyps, refs, {lowercase});
    require(is_percentage(bleu.score), "BLEU outside [0, 100]");
    const attend::eval::ChrfScore chrf = attend::eval::corpus_chrf(hyps, refs);
    require(is_percentage(chrf.score), "chrF outside [0, 100]");
    if (!lines.empty()) require(attend::eval::mbr_select(lines) < lines.size(), "MBR chose outside the pool");
  } catch (const attend::Error& e) {
    attend::fuzz::require_code(e, {attend::ErrorCode::invalid_input}, "corpus_bleu / corpus_chrf / mbr_select");
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size == 0) return 0;
  const std::string text(reinterpret_cast<const char*>(data) + 1, size - 1);
  switch (data[0] % 4) {
    case 0: head_spec(text); break;
    case 1: nbest(attend::fuzz::split_lines(text)); break;
    default: metrics(attend::fuzz::split_lines(text), data[0] % 4 == 3); break;
  }
  return 0;
}
