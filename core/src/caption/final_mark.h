// A question or an exclamation stays one. Multi30k's captions hardly ever end in "?" or "!", and
// the shipped en-de models end nearly every sentence with a full stop ("Look at that!" came out
// as "Blick auf das Wasser."). When a source ends in question or exclamation marks and a
// hypothesis ends in neither, its final full stop gives way to the source's marks, or they are
// added; a hypothesis the model ended with its own mark ("balle !") is left alone.
#pragma once

#include <string>
#include <vector>

#include "attend/translator.h"
#include "tokenizer/tokenizer.h"

namespace attend {

// The run of "?" and "!" the source's last pieces spell ("?!" for "Really?!"), a final `eos_id`
// and each piece's leading "▁" skipped; empty if its last piece is anything else.
std::string final_mark(const std::vector<int>& source_ids, int eos_id, const Tokenizer& source);

// Each finished hypothesis of one sentence's list (best first) made to end in `mark`: its final
// "." piece dropped and the pieces of the mark's characters appended. Left as it is: a hypothesis
// that is empty, ends in a piece made of "?" and "!" already, or did not end with eos; one the
// mark would take past `max_ids` ids or make a copy of another hypothesis of the list; all of them
// if `mark` is empty or `target` has no piece for one of its characters.
void end_with_mark(std::vector<Hypothesis>& hypotheses, const std::string& mark, const Tokenizer& target,
                   size_t max_ids);

}  // namespace attend
