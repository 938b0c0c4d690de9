// The architecture a Marian model's model.yml describes (docs/marian.md §1-§4), as far as Attend
// runs it: a post-norm transformer with sinusoidal positions whose decoder layers use
// self-attention or an SSRU. Every other architecture is refused naming the key that asks for
// it, never run as something close to it.
#pragma once

#include <string>
#include <vector>

#include "import/marian_yml.h"

namespace attend {

struct MarianArchitecture {
  int d_model = 0;          // dim-emb
  int num_heads = 0;        // transformer-heads
  int d_ff = 0;             // transformer-dim-ffn (the decoder's the same)
  int encoder_layers = 0;   // enc-depth
  int decoder_layers = 0;   // dec-depth
  std::string activation;   // transformer-ffn-activation: "relu" or "swish"
  bool ssru = false;        // transformer-decoder-autoreg: rnn with dec-cell: ssru
  bool shared_embedding = false;  // one `Wemb` for both sides: tied-embeddings-src or -all
  bool tied_output = false;       // the output layer reads the target embedding: tied-embeddings or -all
  bool output_bias = true;        // not output-omit-bias
  std::vector<int> dim_vocabs;    // as stated: empty, or source and target sizes (0: not stated)
};

// Throws Error(invalid_model) through yml.refuse: "<file>: model.yml 'key' <what>".
MarianArchitecture read_marian_architecture(const MarianYml& yml);

}  // namespace attend
