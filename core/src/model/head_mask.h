// Which attention heads are switched off: flags [layers][heads] per attention kind.
#pragma once

#include <cstdint>
#include <vector>

#include "attend/model.h"
#include "attend/translator.h"

namespace attend {

struct HeadMask {
  std::vector<uint8_t> encoder, decoder, cross;  // [layers · heads], 1 = output zeroed

  // Validates every HeadRef against the config (Error(invalid_argument) naming it).
  static HeadMask from_refs(const ModelConfig& config, const std::vector<HeadRef>& refs);

  // [heads] flags of one layer, or null when nothing is masked there.
  const uint8_t* layer(AttentionKind kind, int layer, int heads) const;
};

}  // namespace attend
