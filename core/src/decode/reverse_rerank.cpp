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

// Hypotheses to score, as the reverse model's (source, target) pairs: hypothesis -> source.
struct Pairs {
  std::vector<std::vector<int>> sources, targets;
  std::vector<Hypothesis*> hypotheses;
  std::vector<size_t> translations;  // of each pair, in the caller's translations

  void add(std::vector<int> source, std::vector<int> target, Hypothesis* h, size_t translation) {
    sources.push_back(std::move(source));
    targets.push_back(std::move(target));
    hypotheses.push_back(h);
    translations.push_back(translation);
  }
};

// The pairs of every hypothesis the reverse model can read, the search's o.nbest best of each
// translation in `first`, the others in `rest`.
void pair_up(std::vector<Translation>& translations, const Tokenizer& source_tokenizer, const Translator& reverse,
             const TranslateOptions& o, Pairs& first, Pairs& rest) {
  for (size_t i = 0; i < translations.size(); ++i) {
    Translation& t = translations[i];
    const std::vector<int> source(t.source_ids.begin(), t.source_ids.end() - 1);  // without eos
    const std::optional<std::vector<int>> target = readable([&] { return reverse.target_ids(source_tokenizer.decode(source)); });
    if (!target) continue;
    for (size_t k = 0; k < t.hypotheses.size(); ++k) {
      Hypothesis& h = t.hypotheses[k];
      std::optional<std::vector<int>> ids = readable([&] { return reverse.source_ids(h.text); });
      if (ids) (k < static_cast<size_t>(o.nbest) ? first : rest).add(std::move(*ids), *target, &h, i);
    }
  }
}

// A hypothesis' score once reranked, given the reverse model's log p of the source: monotone in it,
// so that a bound of the log p bounds the score.
float reranked(const Hypothesis& h, float reverse_log_prob, int reverse_tokens, const TranslateOptions& o) {
  return h.score + o.reverse_weight * reverse_log_prob / length_penalty(reverse_tokens, o.length_penalty);
}

float reranked(const Hypothesis& h, const TranslateOptions& o) {
  return h.reverse ? reranked(h, h.reverse->log_prob, h.reverse->tokens, o) : -std::numeric_limits<float>::infinity();
}

// Per translation, what another hypothesis must reach to be kept: the lowest reranked score of the
// search's o.nbest best, once scored (-inf if one is unreadable: then every hypothesis is kept).
std::vector<float> floors(const std::vector<Translation>& translations, const TranslateOptions& o) {
  std::vector<float> floor(translations.size(), std::numeric_limits<float>::infinity());
  for (size_t i = 0; i < translations.size(); ++i) {
    const std::vector<Hypothesis>& hypotheses = translations[i].hypotheses;
    for (size_t k = 0; k < hypotheses.size() && k < static_cast<size_t>(o.nbest); ++k) {
      floor[i] = std::min(floor[i], reranked(hypotheses[k], o));
    }
  }
  return floor;
}

}  // namespace

void rerank_by_reverse(std::vector<Translation>& translations, const Tokenizer& source_tokenizer,
                       const Translator& reverse, const ReverseScorer& score, const TranslateOptions& o) {
  Pairs first, rest;
  pair_up(translations, source_tokenizer, reverse, o, first, rest);
  const std::vector<TargetScore> first_scores = score(first.sources, first.targets, {});
  for (size_t p = 0; p < first.hypotheses.size(); ++p) first.hypotheses[p]->reverse = first_scores[p];

  const std::vector<float> floor = floors(translations, o);
  // Whether pair p of `pairs` can still be kept, its reverse log p being at most `log_prob_bound`.
  auto can_be_kept = [&](const Pairs& pairs, size_t p, double log_prob_bound) {
    const int tokens = static_cast<int>(pairs.targets[p].size()) + 1;
    return reranked(*pairs.hypotheses[p], static_cast<float>(log_prob_bound), tokens, o) >= floor[pairs.translations[p]];
  };
  Pairs worth;  // of the rest, those the search scored high enough to be kept even at log p 0
  for (size_t p = 0; p < rest.hypotheses.size(); ++p) {
    if (can_be_kept(rest, p, 0.0)) {
      worth.add(std::move(rest.sources[p]), std::move(rest.targets[p]), rest.hypotheses[p], rest.translations[p]);
    }
  }
  const std::vector<TargetScore> worth_scores = score(
      worth.sources, worth.targets, [&](int p, double sum) { return can_be_kept(worth, static_cast<size_t>(p), sum); });
  for (size_t p = 0; p < worth.hypotheses.size(); ++p) {
    if (can_be_kept(worth, p, worth_scores[p].log_prob)) worth.hypotheses[p]->reverse = worth_scores[p];  // else dropped
  }

  for (Translation& t : translations) {
    for (Hypothesis& h : t.hypotheses) h.score = reranked(h, o);
    std::stable_sort(t.hypotheses.begin(), t.hypotheses.end(),
                     [](const Hypothesis& a, const Hypothesis& b) { return a.score > b.score; });
    if (t.hypotheses.size() > static_cast<size_t>(o.nbest)) t.hypotheses.resize(static_cast<size_t>(o.nbest));
  }
}

}  // namespace attend
