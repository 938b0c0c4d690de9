// Marian's binary lexical shortlist (lex.50.50.xxyy.s2t.bin in Firefox Translations' model folders:
// browsermt/marian-dev src/data/shortlist.{h,cpp} BinaryShortlistGenerator at e88c1aa5; docs/marian.md
// §9): for each source piece, the target pieces worth scoring, so that each batch's output layer
// covers only the union of its words' lists. Little-endian: a 48-byte header {magic
// 0xF11A48D5013417F5, checksum, firstNum, bestNum, wordToOffsetSize = source vocabulary + 1,
// shortListsSize}, uint64 wordToOffset[wordToOffsetSize], uint32 shortLists[shortListsSize].
// Read from bytes in memory, never trusted; training/attend_ref/marian_shortlist.py writes them.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace attend {

class MarianShortlist {
 public:
  // Target ids [0, first_num) are in every batch's shortlist (the most frequent pieces).
  uint64_t first_num() const { return first_num_; }
  // At most this many target ids per source id (the file's bestNum: "lex.50.50" is 50 and 50).
  uint64_t best_num() const { return best_num_; }
  int src_vocab() const { return src_vocab_; }
  int tgt_vocab() const { return tgt_vocab_; }

  // The target ids listed for source id `src` (0 ≤ src < src_vocab()), ascending.
  std::vector<int> list(int src) const;

  // The target ids BinaryShortlistGenerator::generate gives a batch of `sources` (ids, each ≥ 0
  // and < src_vocab()), ascending: [0, first_num), the lists of every source id in the batch and
  // of `eos_id` (Bergamot ends every source with EOS and pads the batch with EOS; it is added here
  // whether or not the sources hold it), with `shared_vocab` (one vocabulary for source and
  // target, as Bergamot's when the model has one .spm) the source ids themselves, then the
  // smallest ids ≥ first_num not yet in until the count is a multiple of 8 (or the vocabulary
  // runs out). Throws Error(invalid_argument) naming an id out of range.
  std::vector<int> for_batch(const std::vector<std::vector<int>>& sources, int eos_id, bool shared_vocab) const;

 private:
  friend MarianShortlist read_marian_shortlist(std::string_view, std::string_view, int, int);
  uint64_t first_num_ = 0, best_num_ = 0;
  int src_vocab_ = 0, tgt_vocab_ = 0;
  std::vector<size_t> offsets_;    // src_vocab + 1, from 0 to ids_.size(), never decreasing
  std::vector<uint32_t> ids_;      // each list ascending, every id < tgt_vocab
};

// The shortlist in `bytes`, made for a source vocabulary of `src_vocab` pieces and a target one
// of `tgt_vocab` (both ≥ 1). The checksum may be either of marian_shortlist_checksum's. Throws
// Error(invalid_model) with one line naming `file_name` and the field: the size (under the header,
// or not the one the header gives), the magic, the checksum,
// wordToOffsetSize (not src_vocab + 1), shortListsSize, an offset (not from 0, decreasing, the
// last not shortListsSize), a list longer than bestNum, a target id ≥ tgt_vocab or out of order.
// Stricter than Marian, which checks only the size and magic unless `check` is on; and where its
// check refuses a well-formed file whose last source ids have empty lists (contentCheck wants
// every offset but the last below shortListsSize), this reads it. Throws
// Error(invalid_argument) for a vocabulary size under 1.
MarianShortlist read_marian_shortlist(std::string_view bytes, std::string_view file_name, int src_vocab, int tgt_vocab);

// Marian's checksum of a shortlist file's bytes: util::hashMem<uint64_t, uint64_t> over the uint64
// words from byte 16 (firstNum) on, (size-16)/8 of them (a trailing 4-byte remainder is not hashed):
// seed = 0, then seed ^= std::hash<uint64_t>(w) + 0x9e3779b9 + (seed << 6) + (seed >> 2). std::hash is
// the identity in libstdc++ (x86-64: what marian-conv writes, Firefox's files); with `wasm32` it is
// libc++'s murmur2 of a 32-bit size_t, what Bergamot's wasm compares with check-bytearray: true
// (docs/marian.md §9).
uint64_t marian_shortlist_checksum(std::string_view bytes, bool wasm32 = false);

// The bytes of a shortlist holding `lists` (one per source id; each list's ids sorted here,
// distinct), as BinaryShortlistGenerator::import lays it out and dump writes it, with the x86-64
// checksum. For tests and seeds.
std::string marian_shortlist_bytes(uint64_t first_num, uint64_t best_num, const std::vector<std::vector<uint32_t>>& lists);

}  // namespace attend
