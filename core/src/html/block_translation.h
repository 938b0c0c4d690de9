// A block's text with its sentences replaced by their translations, and its elements moved with
// them (docs/html.md): elements in the text kept around the sentences move with it; an element
// covering whole sentences covers their translations; one that starts or ends inside a sentence
// is placed by the sentence's word alignment (html/placement.h); one that does both across
// sentences is cut into one element per sentence.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "attend/html.h"
#include "html/placement.h"

namespace attend {

struct TranslatedSentence {
  size_t begin = 0, end = 0;       // bytes of the block's text
  std::string text;                // its translation
  SentenceAlignment alignment;     // needed only when holds_markup(block, begin, end)
};

// Where the block's elements start and end, sorted: for holds_markup.
std::vector<size_t> element_edges(const HtmlBlock& block);

// Whether an element of the block (`edges`: its element_edges) starts or ends strictly inside
// text [begin, end): a sentence whose translation needs a word alignment (its attention captured).
bool holds_markup(const std::vector<size_t>& edges, size_t begin, size_t end);

// `sentences` in text order, disjoint. A sentence whose translation is its text unchanged (in
// block_text(block): an unreadable one) keeps its elements where they were.
HtmlBlock translate_block(const HtmlBlock& block, const std::vector<TranslatedSentence>& sentences);

}  // namespace attend
