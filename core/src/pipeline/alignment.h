// Source→target word alignment read from cross-attention: which target word each source word
// was translated into. Used to carry untranslatable source spans to their place in the
// translation (pipeline/pass_through.h); works on any piece sequences (e.g. markup placement).
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "attend/translator.h"
#include "tokenizer/pieces.h"

namespace attend {

// The cross-attention the alignment reads: the mean over all heads of the upper half of the
// decoder layers (layers L/2 … L−1). On 86 tagged Multi30k val sentences it names the expected
// target word for 98.8% of them over the four shipped models, the best of every single head,
// single layer and the all-layer mean (docs/alignment.md; scripts/measure_alignment.py).
// Returns [tgt_len][src_len], row t being the step that produced target piece t.
std::vector<float> alignment_attention(const AttentionMaps& maps);

// For each source word, the index of the target word it aligns with: the target word u
// maximising  max over u's pieces t of  Σ over the source word's pieces s of attention[t][s].
// attention is [tgt_len][src_len] (rows past the target words' pieces, e.g. eos, are ignored);
// -1 for every source word when there is no target word.
std::vector<int> align_words(const std::vector<float>& attention, int src_len,
                             const std::vector<WordSpan>& source_words, const std::vector<WordSpan>& target_words);

}  // namespace attend
