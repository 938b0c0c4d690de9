#include "model/head_mask.h"

#include <string>

#include "attend/error.h"

namespace attend {

HeadMask HeadMask::from_refs(const ModelConfig& c, const std::vector<HeadRef>& refs) {
  HeadMask mask;
  for (const HeadRef& ref : refs) {
    const int layers = ref.kind == AttentionKind::encoder ? c.encoder_layers : c.decoder_layers;
    const char* kind = ref.kind == AttentionKind::encoder ? "encoder" : ref.kind == AttentionKind::decoder ? "decoder" : "cross";
    if (ref.layer < 0 || ref.layer >= layers || ref.head < 0 || ref.head >= c.num_heads) {
      throw Error(ErrorCode::invalid_argument, std::string("masked head ") + kind + ":" + std::to_string(ref.layer) +
                                                   ":" + std::to_string(ref.head) + " does not exist (the model has " +
                                                   std::to_string(layers) + " layers of " +
                                                   std::to_string(c.num_heads) + " heads)");
    }
    auto& flags = ref.kind == AttentionKind::encoder ? mask.encoder
                  : ref.kind == AttentionKind::decoder ? mask.decoder : mask.cross;
    flags.resize(static_cast<size_t>(layers) * c.num_heads, 0);
    flags[static_cast<size_t>(ref.layer) * c.num_heads + ref.head] = 1;
  }
  return mask;
}

const uint8_t* HeadMask::layer(AttentionKind kind, int layer, int heads) const {
  const auto& flags = kind == AttentionKind::encoder ? encoder : kind == AttentionKind::decoder ? decoder : cross;
  return flags.empty() ? nullptr : flags.data() + static_cast<size_t>(layer) * heads;
}

}  // namespace attend
