// Where a sentence's inline elements go in its translation, given which target words each
// source word aligns with (docs/html.md, "Placement").
#pragma once

#include <cstddef>
#include <string_view>
#include <vector>

#include "pipeline/pass_through.h"  // ByteRange

namespace attend {

// Words of a sentence and of its translation, and which target words each source word aligns with.
struct SentenceAlignment {
  std::vector<ByteRange> source;          // bytes of the sentence, in text order, disjoint
  std::vector<ByteRange> target;          // bytes of the translation, in text order, disjoint
  std::vector<std::vector<int>> aligned;  // [source word]: indices in target, ascending (may be empty)
  bool by_position = false;               // words cut at spaces, aligned by alignment_by_words
};

// An element of the sentence: bytes [begin, end) of the sentence, inside element `parent`
// (an earlier index; -1: the one whose range is the whole translation).
struct ElementToPlace {
  size_t begin = 0, end = 0;
  int parent = -1;
};

// The bytes of `translation` (of `sentence`) each element covers:
// - an element over source words covers the smallest run of target words holding every target
//   word they align with, and the translation's closing punctuation too if the element holds the
//   sentence's own;
// - one over no word (begin == end, or only spaces) is empty, after the target words aligned
//   with the source word before it, and after the space there if the element follows one in the
//   source ("a <img> b"); at the first source word's start if none is before it;
// - each is clamped into its parent's range (if nothing is left, it takes the parent's whole
//   range); one overlapping an earlier sibling is cut to its part after that sibling, else its
//   part before it, else left empty right after it; an empty one inside a sibling moves to that
//   sibling's end.
std::vector<ByteRange> place_elements(const SentenceAlignment& alignment, std::string_view sentence, std::string_view translation,
                                      const std::vector<ElementToPlace>& elements);

// An alignment by position, when the attention's is not at hand: source word i of n aligns with
// target word i·m/n of m.
std::vector<std::vector<int>> proportional_alignment(size_t source_words, size_t target_words);

// An alignment by the words themselves, when the attention's is not at hand: words written alike
// once the ASCII punctuation around them is left out ("Smith," and "Smith") align with each other,
// as many as keep their order (a longest common subsequence); the word right before each such
// pair with the word right before it on the other side ("Mr" with "Herr" in "Dear Mr Smith," and
// "Sehr geehrter Herr Smith,"); the rest of each gap between them by position
// (proportional_alignment).
std::vector<std::vector<int>> alignment_by_words(const std::vector<std::string_view>& source,
                                                 const std::vector<std::string_view>& target);

}  // namespace attend
