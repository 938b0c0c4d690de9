// Reranking a beam's hypotheses by a model that translates the other way
// (TranslateOptions::reverse_model): a translation that lets the source be read back from it is
// preferred, which counters the beam's taste for short, generic sentences.
#pragma once

#include <functional>
#include <vector>

#include "attend/translator.h"
#include "decode/forced_scores.h"
#include "tokenizer/tokenizer.h"

namespace attend {

// The reverse model's Translator::score_ids of (sources[i], targets[i]), where pair i may stop once
// keep(i, its sum so far) is false, its log_prob then that sum (decode/forced_scores.h).
using ReverseScorer = std::function<std::vector<TargetScore>(
    const std::vector<std::vector<int>>& sources, const std::vector<std::vector<int>>& targets, const KeepScoring& keep)>;

// Scores the hypotheses of `translations` with `reverse` (log p(source | hypothesis text), its
// Hypothesis::reverse), adds o.reverse_weight × that / length_penalty(its tokens, o.length_penalty)
// to its score, orders each translation's hypotheses by it, best first, and keeps the o.nbest
// first. The texts are the model's own: hypotheses' text is their ids decoded, the source is
// source_ids (eos dropped) decoded by `source_tokenizer`. A hypothesis the reverse model cannot
// read gets no reverse score and score -inf.
// The search's o.nbest best of each translation are scored first; each other one is scored only
// until its score, bounded by its reverse log p so far, falls below all of theirs: it cannot be
// kept then, and is dropped (exact: the kept ones and their order are those of scoring all whole).
void rerank_by_reverse(std::vector<Translation>& translations, const Tokenizer& source_tokenizer,
                       const Translator& reverse, const ReverseScorer& score, const TranslateOptions& o);

}  // namespace attend
