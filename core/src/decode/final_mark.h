// A question or an exclamation stays one. Multi30k's captions hardly ever end in "?" or "!", and
// the shipped en-de models end nearly every sentence with a full stop ("Look at that!" came out
// as "Blick auf das Wasser."). When a source ends in question or exclamation marks and a
// hypothesis ends in neither, its final full stop gives way to the source's marks, or they are
// added; a hypothesis the model ended with its own mark ("balle !") is left alone.
#pragma once

#include <string>
#include <vector>

#include "tokenizer/tokenizer.h"

namespace attend {

// The run of "?" and "!" the source's last pieces spell ("?!" for "Really?!"), eos and a piece's
// leading "▁" skipped; empty if its last piece is anything else.
std::string final_mark(const std::vector<int>& source_ids, const Tokenizer& source);

// `ids` (a finished hypothesis, without eos) ending in `mark`: unchanged if it is empty or its
// last piece is made of "?" and "!" already, or if `mark` is empty, has a character `target` holds
// no piece for, or would take `ids` past `max_ids`; otherwise a final "." piece is dropped and the
// mark's pieces appended. Returns whether `ids` changed.
bool end_with_mark(std::vector<int>& ids, const std::string& mark, const Tokenizer& target, size_t max_ids);

}  // namespace attend
