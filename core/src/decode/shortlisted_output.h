// The output layer over a lexical shortlist's tokens alone, as Marian computes it (its output
// layer's columns selected once per batch): a step multiplies the hidden states by A rows of the
// output weights, not V, and each logit has the bits the whole layer gives that token.
#pragma once

#include <cstdint>
#include <vector>

#include "model/weights.h"

namespace attend {

struct ShortlistedOutput {
  // allowed [V]: 1 for the tokens the batch's shortlist allows.
  ShortlistedOutput(const Linear& output, const uint8_t* allowed, int vocab, const KernelTable& k);

  std::vector<int> tokens;    // [A] the allowed tokens, ascending
  std::vector<int> index_of;  // [V] a token's position in tokens, or -1
  OwnedTensors owned;
  Linear layer;               // [A, D] the output's rows of tokens
};

}  // namespace attend
