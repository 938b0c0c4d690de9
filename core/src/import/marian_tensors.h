// A Marian model's items as Attend's tensors (names as training/attend_ref/export.py writes them):
// every weight W, [in, out] in Marian (y = x·W), transposed to [out, in] as nn.Linear holds it;
// biases and norms [1, d] to [d]; layers counted from 0, not 1. An intgemm8 weight with its
// activation scale (`<name>_QuantMultA`, Firefox's *.intgemm.alphas.bin) stays int8 for the
// engine to compute as Marian does (docs/marian.md §8.2): I8 `….weight` [out, in], F32
// `….weight_scale` [out] (fl(1/qB) each), `….weight_quant` [1] (qB), `….input_quant` [1] (qA);
// the embedding's scale becomes the tied output layer's `decoder.output_projection.input_quant`.
// Other intgemm8 items are dequantized to f32 as Marian dequantizes its embeddings,
// w = q · fl(1/qB) (§8.1); activation scales no weight takes are kept as F32 `marian.<item name>`.
#pragma once

#include <string_view>
#include <vector>

#include "import/marian_architecture.h"
#include "import/marian_binary.h"
#include "import/safetensors_writer.h"

namespace attend {

struct MarianTensors {
  std::vector<TensorSource> tensors;  // they read the items' bytes when written
  bool final_logits_bias = false;     // decoder_ff_logit_out_b is there (and output-omit-bias is not set)
};

// Throws Error(invalid_model) with one line naming `file_name` and the item: one missing, one
// the architecture has no place for, a shape other than it needs, a type other than float32 or
// intgemm8, an intgemm8 multiplier that is not positive. A non-finite value is refused when the
// tensors are written.
MarianTensors marian_tensors(const std::vector<MarianItem>& items, const MarianArchitecture& architecture,
                             int src_vocab_size, int tgt_vocab_size, std::string_view file_name);

}  // namespace attend
