// Parsing and checking of head references (`kind:layer:head`).
#include "head_spec.h"

#include <cctype>

#include "usage_error.h"

namespace attend::cli {

namespace {

constexpr AttentionKind kKinds[] = {AttentionKind::encoder, AttentionKind::decoder,
                                    AttentionKind::cross};

const char* attention_kind_name(AttentionKind kind) {
  switch (kind) {
    case AttentionKind::encoder: return "encoder";
    case AttentionKind::decoder: return "decoder";
    case AttentionKind::cross: return "cross";
  }
  return "unknown";
}

// A non-negative decimal index of at most 6 digits.
bool parse_index(const std::string& text, int* value) {
  if (text.empty() || text.size() > 6) return false;
  for (char c : text) {
    if (!std::isdigit(static_cast<unsigned char>(c))) return false;
  }
  *value = std::stoi(text);
  return true;
}

std::string spec_text(const HeadRef& head) {
  return std::string(attention_kind_name(head.kind)) + ":" + std::to_string(head.layer) + ":" +
         std::to_string(head.head);
}

}  // namespace

HeadRef parse_head_spec(const std::string& text) {
  const std::string expected =
      "--mask-head expects kind:layer:head (kind encoder, decoder or cross), got '" + text + "'";
  size_t first = text.find(':');
  size_t second = first == std::string::npos ? first : text.find(':', first + 1);
  if (second == std::string::npos) throw UsageError(expected);
  HeadRef head;
  std::string kind = text.substr(0, first);
  bool known = false;
  for (AttentionKind candidate : kKinds) {
    if (kind == attention_kind_name(candidate)) {
      head.kind = candidate;
      known = true;
    }
  }
  if (!known || !parse_index(text.substr(first + 1, second - first - 1), &head.layer) ||
      !parse_index(text.substr(second + 1), &head.head)) {
    throw UsageError(expected);
  }
  return head;
}

void check_heads_exist(const std::vector<HeadRef>& heads, const ModelConfig& config) {
  for (const HeadRef& head : heads) {
    bool encoder = head.kind == AttentionKind::encoder;  // cross-attention is in decoder layers
    int layers = encoder ? config.encoder_layers : config.decoder_layers;
    if (head.layer >= layers || head.head >= config.num_heads) {
      throw UsageError("--mask-head " + spec_text(head) + ": the model has " +
                       std::to_string(layers) + (encoder ? " encoder" : " decoder") +
                       " layers of " + std::to_string(config.num_heads) + " heads");
    }
  }
}

}  // namespace attend::cli
