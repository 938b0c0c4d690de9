// A multilingual model's target-language token (TranslateOptions::target_token, OPUS-MT's
// ">>fra<<"), read before the sentences translate_prepared gives the model.
#pragma once

#include <string>
#include <vector>

#include "attend/translator.h"

namespace attend {

// The ">>xxx<<" pieces of the model's source vocabulary (a multilingual OPUS-MT model's target-language
// tokens, one per language it writes), in id order; none for other models.
std::vector<std::string> target_tokens(const Model& model);

// `ids` (a prepared sentence's, eos included) with `token` before them, unless they open with it
// (the text did: Tokenizer::target_token_length). `token` < 0: none, `ids` as they are.
std::vector<int> with_target_token(std::vector<int> ids, int token);

// The maps without their first source position (a target token the pipeline put before the
// sentence), for placing the sentence's pass-through spans by its own pieces: source_pieces and
// cross only (the encoder's maps are dropped).
AttentionMaps without_first_source(const AttentionMaps& maps);

}  // namespace attend
