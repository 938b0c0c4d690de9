#include "decode/reverse_rerank.h"

#include <algorithm>
#include <limits>

#include "attend/error.h"
#include "decode/search.h"

namespace attend {
namespace {

// The reverse model's ids of `text`, or none when it refuses it as input it cannot read.
template <typename Encode>
std::optional<std::vector<int>> readable(Encode&& encode) {
  try {
    return encode();
  } catch (const Error& error) {
    if (error.code() != ErrorCode::empty_input && error.code() != ErrorCode::invalid_input) throw;
    return std::nullopt;
  }
}

}  // namespace

void rerank_by_reverse(std::vector<Translation>& translations, const Tokenizer& source_tokenizer, Translator& reverse,
                       const TranslateOptions& o) {
  std::vector<std::vector<int>> sources, targets;  // the reverse model's: hypothesis -> source
  std::vector<Hypothesis*> scored;
  for (Translation& t : translations) {
    const std::vector<int> source(t.source_ids.begin(), t.source_ids.end() - 1);  // without eos
    const std::optional<std::vector<int>> target = readable([&] { return reverse.target_ids(source_tokenizer.decode(source)); });
    if (!target) continue;
    for (Hypothesis& h : t.hypotheses) {
      std::optional<std::vector<int>> ids = readable([&] { return reverse.source_ids(h.text); });
      if (!ids) continue;
      sources.push_back(std::move(*ids));
      targets.push_back(*target);
      scored.push_back(&h);
    }
  }
  const std::vector<TargetScore> scores = reverse.score_ids(sources, targets);
  for (size_t i = 0; i < scored.size(); ++i) scored[i]->reverse = scores[i];

  for (Translation& t : translations) {
    for (Hypothesis& h : t.hypotheses) {
      h.score = h.reverse ? h.score + o.reverse_weight * h.reverse->log_prob / length_penalty(h.reverse->tokens, o.length_penalty)
                          : -std::numeric_limits<float>::infinity();
    }
    std::stable_sort(t.hypotheses.begin(), t.hypotheses.end(),
                     [](const Hypothesis& a, const Hypothesis& b) { return a.score > b.score; });
    if (t.hypotheses.size() > static_cast<size_t>(o.nbest)) t.hypotheses.resize(static_cast<size_t>(o.nbest));
  }
}

}  // namespace attend
