// read_marian_shortlist and MarianShortlist::for_batch on any bytes (core/src/model/marian_shortlist.h).
// Input: a flags byte (bit 0: make the checksum right before reading, so that the checks behind
// it are reached, with bit 3 as Marian in wasm32 computes it; bit 1: take the source vocabulary
// from the file's wordToOffsetSize, else from byte 3; bit 2: a shared vocabulary), the target
// vocabulary - 1 (uint16), the source one - 1 (one byte), four source ids (one byte each, taken
// modulo the vocabulary), then the file.
// Oracle: reading returns a shortlist or throws invalid_model (invalid_argument never: the
// vocabularies are ≥ 1), nothing else; a shortlist read has every list ascending and below the
// target vocabulary; for_batch of the four ids returns ascending distinct ids below the target
// vocabulary, holding [0, firstNum), the lists of the ids and of EOS 0 (and with a shared
// vocabulary the ids), and a multiple of 8 of them unless every id from firstNum on is in.
#include <algorithm>
#include <cstring>
#include <string>
#include <string_view>
#include <vector>

#include "attend/error.h"
#include "fuzz_support.h"
#include "model/marian_shortlist.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  constexpr size_t kPrefix = 8;
  if (size < kPrefix) return 0;
  const uint8_t flags = data[0];
  const int tgt_vocab = 1 + (data[1] | (data[2] << 8));
  int src_vocab = 1 + data[3];
  std::string bytes(reinterpret_cast<const char*>(data) + kPrefix, size - kPrefix);
  if ((flags & 2) && bytes.size() >= 40) {
    uint64_t offsets = 0;
    std::memcpy(&offsets, bytes.data() + 32, sizeof offsets);
    if (offsets >= 2 && offsets <= (1u << 16)) src_vocab = static_cast<int>(offsets - 1);
  }
  if ((flags & 1) && bytes.size() >= 16) {
    const uint64_t checksum = attend::marian_shortlist_checksum(bytes, (flags & 8) != 0);
    std::memcpy(bytes.data() + 8, &checksum, sizeof checksum);
  }
  const bool shared = (flags & 4) && src_vocab <= tgt_vocab;
  try {
    const attend::MarianShortlist shortlist = attend::read_marian_shortlist(bytes, "fuzzed.bin", src_vocab, tgt_vocab);
    attend::fuzz::require(shortlist.src_vocab() == src_vocab && shortlist.tgt_vocab() == tgt_vocab, "vocabularies changed");
    std::vector<int> sources;
    for (size_t k = 4; k < kPrefix; ++k) sources.push_back(data[k] % src_vocab);
    const std::vector<int> batch = shortlist.for_batch({sources}, 0, shared);
    attend::fuzz::require(std::adjacent_find(batch.begin(), batch.end(), [](int a, int b) { return a >= b; }) == batch.end(),
                          "for_batch not strictly ascending");
    attend::fuzz::require(batch.empty() || (batch.front() >= 0 && batch.back() < tgt_vocab), "for_batch id out of range");
    const auto in = [&](int id) { return std::binary_search(batch.begin(), batch.end(), id); };
    for (uint64_t i = 0; i < shortlist.first_num() && i < static_cast<uint64_t>(tgt_vocab); ++i) {
      attend::fuzz::require(in(static_cast<int>(i)), "for_batch misses an id under firstNum");
    }
    sources.push_back(0);
    for (int src : sources) {
      const std::vector<int> list = shortlist.list(src);
      attend::fuzz::require(list.size() <= shortlist.best_num(), "a list longer than bestNum");
      attend::fuzz::require(std::is_sorted(list.begin(), list.end()), "a list not ascending");
      for (int id : list) attend::fuzz::require(id >= 0 && id < tgt_vocab && in(id), "for_batch misses a listed id");
      if (shared) attend::fuzz::require(in(src), "for_batch misses a source id with a shared vocabulary");
    }
    if (batch.size() % 8 != 0) {
      for (uint64_t i = shortlist.first_num(); i < static_cast<uint64_t>(tgt_vocab); ++i) {
        attend::fuzz::require(in(static_cast<int>(i)), "for_batch not a multiple of 8 with ids from firstNum left out");
      }
    }
  } catch (const attend::Error& e) {
    attend::fuzz::require_code(e, {attend::ErrorCode::invalid_model}, "read_marian_shortlist");
  }
  return 0;
}
