// Minimum Bayes risk selection (Kumar & Byrne, 2004) over a pool of translations of one
// sentence, e.g. the n-best lists of several models: the translation that agrees best with the
// whole pool, measured by sentence BLEU. The pool stands for samples of what a good translation
// is; a translation several models (or several beams) produced counts once per appearance.
//
//   size_t best = mbr_select({"a dog runs .", "a dog is running .", "a dog runs ."});  // 0
#pragma once

#include <string>
#include <vector>

namespace attend::eval {

// The index in `pool` of the first entry of the distinct text c maximizing
// sum over entries e of sentence_bleu(c, e) (cased, 13a). An empty pool throws
// attend::Error(invalid_argument); invalid UTF-8 throws attend::Error(invalid_input).
size_t mbr_select(const std::vector<std::string>& pool);

}  // namespace attend::eval
