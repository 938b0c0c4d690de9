#include "attend/translator.h"

namespace attend {

float confidence(const Hypothesis& h) { return h.tokens > 0 ? h.log_prob / static_cast<float>(h.tokens) : 0.f; }

}  // namespace attend
