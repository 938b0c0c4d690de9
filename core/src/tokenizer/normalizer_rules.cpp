#include "tokenizer/normalizer_rules.h"

#include <cstdint>
#include <string>

#include "tokenizer/protobuf_fields.h"

namespace attend {
namespace {

// sentencepiece_model.proto
constexpr uint64_t kModelNormalizerSpec = 3, kModelDenormalizerSpec = 5, kSpecPrecompiledCharsmap = 2;
// darts-clone's DoubleArrayUnit.
struct TrieUnit {
  uint32_t bits;
  bool has_leaf() const { return (bits >> 8) & 1; }
  uint32_t value() const { return bits & ((1u << 31) - 1); }
  uint32_t label() const { return bits & ((1u << 31) | 0xFF); }
  uint32_t offset() const { return (bits >> 10) << ((bits & (1u << 9)) >> 6); }
};

}  // namespace

std::vector<std::string_view> precompiled_charsmaps(std::string_view model_proto) {
  std::vector<std::string_view> charsmaps;
  for (const uint64_t spec : {kModelNormalizerSpec, kModelDenormalizerSpec}) {
    // Protobuf merges every occurrence of a message field, and the last value of a bytes field
    // in them wins: that one is what SentencePiece will use.
    std::string_view charsmap;
    for_each_field(model_proto, spec, [&](std::string_view spec_bytes) {
      for_each_field(spec_bytes, kSpecPrecompiledCharsmap, [&](std::string_view bytes) { charsmap = bytes; });
    });
    if (!charsmap.empty()) charsmaps.push_back(charsmap);
  }
  return charsmaps;
}

// Layout (SentencePiece's Normalizer::DecodePrecompiledCharsMap): uint32 little-endian trie
// size in bytes, the trie's 32-bit units, then the replacement strings. A lookup starts at
// unit 0; from unit p it reads unit (p ^ offset(p)) ^ byte for the next input byte, follows
// it if that unit's label is the byte, and there finds a leaf's value (an offset into the
// strings, read up to a NUL) at unit (child ^ offset(child)).
void check_precompiled_charsmap(std::string_view charsmap) {
  if (charsmap.size() <= 4) fail_damaged_model("its normalization rules are " + std::to_string(charsmap.size()) + " bytes");
  uint32_t trie_bytes = 0;
  for (int i = 3; i >= 0; --i) trie_bytes = (trie_bytes << 8) | static_cast<uint8_t>(charsmap[i]);
  if (trie_bytes > charsmap.size() - 4 || trie_bytes < 4) {
    fail_damaged_model("its normalization trie claims " + std::to_string(trie_bytes) + " of " + std::to_string(charsmap.size() - 4) +
         " bytes");
  }
  const size_t units = trie_bytes / 4;
  const std::string_view strings = charsmap.substr(4 + trie_bytes);
  const size_t last_nul = strings.rfind('\0');
  auto unit = [&](size_t index) {
    uint32_t bits = 0;
    for (int i = 3; i >= 0; --i) bits = (bits << 8) | static_cast<uint8_t>(charsmap[4 + 4 * index + i]);
    return TrieUnit{bits};
  };

  std::vector<bool> visited(units, false);
  std::vector<size_t> pending = {0};
  visited[0] = true;
  while (!pending.empty()) {
    const size_t node = pending.back();
    pending.pop_back();
    const size_t children = node ^ unit(node).offset();
    if ((children | 0xFF) >= units) fail_damaged_model("its normalization trie points past its " + std::to_string(units) + " units");
    for (uint32_t byte = 0; byte <= 0xFF; ++byte) {
      const size_t child = children ^ byte;
      const TrieUnit child_unit = unit(child);
      if (child_unit.label() != byte) continue;
      if (child_unit.has_leaf()) {
        const size_t leaf = child ^ child_unit.offset();
        if (leaf >= units) fail_damaged_model("a leaf of its normalization trie is past its " + std::to_string(units) + " units");
        if (last_nul == std::string_view::npos || unit(leaf).value() > last_nul) {
          fail_damaged_model("a normalization rule points past the replacement strings");
        }
      }
      if (!visited[child]) {
        visited[child] = true;
        pending.push_back(child);
      }
    }
  }
}

}  // namespace attend
