#include "model/positions.h"

#include <algorithm>
#include <cmath>

namespace attend {

std::vector<float> sinusoid_table(int max_positions, int d_model, bool half_split) {
  std::vector<float> table(static_cast<size_t>(max_positions) * d_model);
  const int half = d_model / 2;
  const double log_base = std::log(10000.0);
  for (int p = 0; p < max_positions; ++p) {
    float* row = table.data() + static_cast<size_t>(p) * d_model;
    for (int i = 0; i < half; ++i) {
      // Computed in double and rounded once, as the reference does.
      const double freq = half_split ? std::exp(-log_base * i / std::max(half - 1, 1))
                                     : std::exp(-log_base * (2.0 * i) / d_model);
      const double angle = p * freq;
      row[half_split ? i : 2 * i] = static_cast<float>(std::sin(angle));
      row[half_split ? half + i : 2 * i + 1] = static_cast<float>(std::cos(angle));
    }
  }
  return table;
}

}  // namespace attend
