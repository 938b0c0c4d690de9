// The normalization rules inside a SentencePiece .model (NormalizerSpec.precompiled_charsmap:
// a darts-clone double-array trie over input bytes and the NUL-terminated replacement strings
// its leaves point to). SentencePiece trusts them: a damaged trie makes Encode read outside
// the rules. This checks, before SentencePiece sees them, that every transition an input can
// take from the root and every replacement string a leaf names lies inside the rules.
#pragma once

#include <string_view>
#include <vector>

namespace attend {

// The precompiled_charsmap of the normalizer and denormalizer specs of a serialized
// ModelProto as the protobuf parser will see them (several occurrences of a spec merged, the
// last charsmap winning; absent or empty ones left out), as views into `model_proto`.
// Throws Error(invalid_model) if the protobuf wire format is broken.
std::vector<std::string_view> precompiled_charsmaps(std::string_view model_proto);

// Throws Error(invalid_model) naming the damage if `charsmap` (non-empty) would make
// SentencePiece read outside it.
void check_precompiled_charsmap(std::string_view charsmap);

}  // namespace attend
