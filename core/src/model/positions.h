// Sinusoidal position encodings, as training/attend_ref/model.py defines them.
#pragma once

#include <vector>

namespace attend {

// [max_positions, d_model], row-major.
// Interleaved (the paper): PE[p, 2i] = sin(p / 10000^(2i/D)), PE[p, 2i+1] = cos(p / 10000^(2i/D)).
// Half split (Marian, fairseq): PE[p] = [sin(p·f_i) | cos(p·f_i)], f_i = 10000^(-i/(D/2-1)).
std::vector<float> sinusoid_table(int max_positions, int d_model, bool half_split);

}  // namespace attend
