// Reranking a beam's hypotheses by a model that translates the other way
// (TranslateOptions::reverse_model): a translation that lets the source be read back from it is
// preferred, which counters the beam's taste for short, generic sentences.
#pragma once

#include <vector>

#include "attend/translator.h"
#include "tokenizer/tokenizer.h"

namespace attend {

// Scores every hypothesis of `translations` with `reverse` (log p(source | hypothesis text), its
// Hypothesis::reverse), adds o.reverse_weight × that / length_penalty(its tokens, o.length_penalty)
// to its score, orders each translation's hypotheses by it, best first, and keeps the o.nbest
// first. The texts are the model's own: hypotheses' text is their ids decoded, the source is
// source_ids (eos dropped) decoded by `source_tokenizer`. A hypothesis the reverse model cannot
// read gets no reverse score and score -inf.
void rerank_by_reverse(std::vector<Translation>& translations, const Tokenizer& source_tokenizer, Translator& reverse,
                       const TranslateOptions& o);

}  // namespace attend
