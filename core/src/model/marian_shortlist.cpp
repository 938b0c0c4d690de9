#include "model/marian_shortlist.h"

#include <algorithm>
#include <cstring>
#include <initializer_list>

#include "attend/error.h"

namespace attend {
namespace {

constexpr uint64_t kMagic = 0xF11A48D5013417F5ull;
constexpr size_t kHeaderBytes = 6 * sizeof(uint64_t);

uint64_t load_u64(const char* at) {
  uint64_t value;
  std::memcpy(&value, at, sizeof value);  // little-endian hosts only (x86, wasm)
  return value;
}

uint32_t load_u32(const char* at) {
  uint32_t value;
  std::memcpy(&value, at, sizeof value);
  return value;
}

void append_u64(std::string& out, uint64_t value) {
  char bytes[sizeof value];
  std::memcpy(bytes, &value, sizeof value);
  out.append(bytes, sizeof value);
}

// std::hash<uint64_t> of libc++ with a 32-bit size_t (wasm32): __scalar_hash<uint64_t, 2>, that is
// __murmur2_or_cityhash<uint32_t, 32> (murmur2) over the value's 8 bytes.
uint64_t libcxx_wasm32_hash(uint64_t value) {
  constexpr uint32_t m = 0x5bd1e995;
  uint32_t h = 8;
  for (uint32_t k : {static_cast<uint32_t>(value), static_cast<uint32_t>(value >> 32)}) {
    k *= m;
    k ^= k >> 24;
    k *= m;
    h *= m;
    h ^= k;
  }
  h ^= h >> 13;
  h *= m;
  h ^= h >> 15;
  return h;
}

}  // namespace

uint64_t marian_shortlist_checksum(std::string_view bytes, bool wasm32) {
  // util::hash_combine (src/common/hash.h): seed ^= hash(w) + 0x9e3779b9 + (seed << 6) + (seed >> 2).
  uint64_t seed = 0;
  const size_t words = bytes.size() < 16 ? 0 : (bytes.size() - 16) / sizeof(uint64_t);
  for (size_t k = 0; k < words; ++k) {
    const uint64_t word = load_u64(bytes.data() + 16 + k * sizeof(uint64_t));
    seed ^= (wasm32 ? libcxx_wasm32_hash(word) : word) + 0x9e3779b9ull + (seed << 6) + (seed >> 2);
  }
  return seed;
}

MarianShortlist read_marian_shortlist(std::string_view bytes, std::string_view file_name, int src_vocab, int tgt_vocab) {
  const auto fail = [&](const std::string& what) {
    throw Error(ErrorCode::invalid_model, std::string(file_name) + ": not a Marian shortlist: " + what);
  };
  if (src_vocab < 1 || tgt_vocab < 1) {
    throw Error(ErrorCode::invalid_argument, std::string(file_name) + ": a shortlist needs vocabularies of 1 or more pieces, not " +
                                                 std::to_string(src_vocab) + " and " + std::to_string(tgt_vocab));
  }
  if (bytes.size() < kHeaderBytes) {
    fail("the file is " + std::to_string(bytes.size()) + " bytes, shorter than the 48-byte header");
  }
  const uint64_t magic = load_u64(bytes.data());
  const uint64_t checksum = load_u64(bytes.data() + 8);
  const uint64_t first_num = load_u64(bytes.data() + 16);
  const uint64_t best_num = load_u64(bytes.data() + 24);
  const uint64_t offsets_size = load_u64(bytes.data() + 32);
  const uint64_t ids_size = load_u64(bytes.data() + 40);
  if (magic != kMagic) fail("the magic is " + std::to_string(magic) + ", not 0xF11A48D5013417F5");
  if (offsets_size != static_cast<uint64_t>(src_vocab) + 1) {
    fail("wordToOffsetSize is " + std::to_string(offsets_size) + ", the source vocabulary of " + std::to_string(src_vocab) +
         " pieces wants " + std::to_string(static_cast<uint64_t>(src_vocab) + 1));
  }
  const uint64_t after_offsets = kHeaderBytes + offsets_size * sizeof(uint64_t);  // src_vocab < 2^31: no overflow
  if (after_offsets > bytes.size() || ids_size > (bytes.size() - after_offsets) / sizeof(uint32_t)) {
    fail("shortListsSize " + std::to_string(ids_size) + " and wordToOffsetSize " + std::to_string(offsets_size) +
         " need more than the file's " + std::to_string(bytes.size()) + " bytes");
  }
  const uint64_t expected = after_offsets + ids_size * sizeof(uint32_t);
  if (expected != bytes.size()) {
    fail("the header gives a file of " + std::to_string(expected) + " bytes, the file is " + std::to_string(bytes.size()));
  }
  const uint64_t actual = marian_shortlist_checksum(bytes);
  if (actual != checksum && marian_shortlist_checksum(bytes, true) != checksum) {
    fail("the checksum is " + std::to_string(checksum) + ", the bytes hash to " + std::to_string(actual) + " (wasm32's hash: " +
         std::to_string(marian_shortlist_checksum(bytes, true)) + ")");
  }

  MarianShortlist out;
  out.first_num_ = first_num;
  out.best_num_ = best_num;
  out.src_vocab_ = src_vocab;
  out.tgt_vocab_ = tgt_vocab;
  std::vector<uint64_t> offsets(static_cast<size_t>(offsets_size));
  for (size_t k = 0; k < offsets.size(); ++k) offsets[k] = load_u64(bytes.data() + kHeaderBytes + k * sizeof(uint64_t));
  if (offsets[0] != 0) fail("wordToOffset[0] is " + std::to_string(offsets[0]) + ", not 0");
  for (size_t k = 1; k < offsets.size(); ++k) {
    if (offsets[k] < offsets[k - 1] || offsets[k] > ids_size) {
      fail("wordToOffset[" + std::to_string(k) + "] is " + std::to_string(offsets[k]) + " after " + std::to_string(offsets[k - 1]) +
           " (offsets never decrease and stay within shortListsSize " + std::to_string(ids_size) + ")");
    }
    if (offsets[k] - offsets[k - 1] > best_num) {
      fail("source id " + std::to_string(k - 1) + " lists " + std::to_string(offsets[k] - offsets[k - 1]) +
           " target ids, more than bestNum " + std::to_string(best_num));
    }
  }
  if (offsets.back() != ids_size) {
    fail("the last wordToOffset is " + std::to_string(offsets.back()) + ", not shortListsSize " + std::to_string(ids_size));
  }
  // Every offset is now ≤ shortListsSize ≤ the file's size / 4: a size_t.
  out.offsets_.assign(offsets.begin(), offsets.end());
  out.ids_.resize(static_cast<size_t>(ids_size));
  for (size_t j = 0; j < out.ids_.size(); ++j) out.ids_[j] = load_u32(bytes.data() + after_offsets + j * sizeof(uint32_t));
  for (size_t src = 0; src + 1 < out.offsets_.size(); ++src) {
    for (size_t j = out.offsets_[src]; j < out.offsets_[src + 1]; ++j) {
      const uint32_t id = out.ids_[j];
      if (id >= static_cast<uint32_t>(tgt_vocab)) {
        fail("source id " + std::to_string(src) + " lists target id " + std::to_string(id) + ", the target vocabulary has " +
             std::to_string(tgt_vocab) + " pieces");
      }
      if (j > out.offsets_[src] && id <= out.ids_[j - 1]) {
        fail("source id " + std::to_string(src) + "'s list is not ascending (" + std::to_string(out.ids_[j - 1]) + " then " +
             std::to_string(id) + ")");
      }
    }
  }
  return out;
}

std::vector<int> MarianShortlist::list(int src) const {
  if (src < 0 || src >= src_vocab_) {
    throw Error(ErrorCode::invalid_argument,
                "source id " + std::to_string(src) + " is outside the shortlist's " + std::to_string(src_vocab_) + " pieces");
  }
  const size_t at = static_cast<size_t>(src);
  return std::vector<int>(ids_.begin() + static_cast<std::ptrdiff_t>(offsets_[at]),
                          ids_.begin() + static_cast<std::ptrdiff_t>(offsets_[at + 1]));
}

std::vector<int> MarianShortlist::for_batch(const std::vector<std::vector<int>>& sources, int eos_id, bool shared_vocab) const {
  // BinaryShortlistGenerator::generate (src/data/shortlist.cpp at e88c1aa5), one truth table per side.
  std::vector<char> target(static_cast<size_t>(tgt_vocab_), 0);
  std::vector<char> seen(static_cast<size_t>(src_vocab_), 0);
  const uint64_t first = std::min<uint64_t>(first_num_, static_cast<uint64_t>(tgt_vocab_));
  std::fill(target.begin(), target.begin() + static_cast<std::ptrdiff_t>(first), 1);
  const auto add = [&](int src) {
    if (src < 0 || src >= src_vocab_) {
      throw Error(ErrorCode::invalid_argument,
                  "source id " + std::to_string(src) + " is outside the shortlist's " + std::to_string(src_vocab_) + " pieces");
    }
    if (shared_vocab) {
      if (src >= tgt_vocab_) {
        throw Error(ErrorCode::invalid_argument, "source id " + std::to_string(src) + " is outside the shared vocabulary's " +
                                                     std::to_string(tgt_vocab_) + " target pieces");
      }
      target[static_cast<size_t>(src)] = 1;
    }
    if (seen[static_cast<size_t>(src)]) return;
    seen[static_cast<size_t>(src)] = 1;
    for (size_t j = offsets_[static_cast<size_t>(src)]; j < offsets_[static_cast<size_t>(src) + 1]; ++j) target[ids_[j]] = 1;
  };
  for (const std::vector<int>& source : sources) {
    for (int id : source) add(id);
  }
  if (!sources.empty()) add(eos_id);
  size_t count = static_cast<size_t>(std::count(target.begin(), target.end(), 1));
  // "Ensure that the generated vocabulary items from a shortlist are a multiple-of-eight."
  for (uint64_t i = first_num_; i < static_cast<uint64_t>(tgt_vocab_) && count % 8 != 0; ++i) {
    if (!target[static_cast<size_t>(i)]) {
      target[static_cast<size_t>(i)] = 1;
      ++count;
    }
  }
  std::vector<int> out;
  out.reserve(count);
  for (int i = 0; i < tgt_vocab_; ++i) {
    if (target[static_cast<size_t>(i)]) out.push_back(i);
  }
  return out;
}

std::string marian_shortlist_bytes(uint64_t first_num, uint64_t best_num, const std::vector<std::vector<uint32_t>>& lists) {
  std::vector<uint64_t> offsets{0};
  std::vector<uint32_t> ids;
  for (std::vector<uint32_t> list : lists) {
    std::sort(list.begin(), list.end());
    ids.insert(ids.end(), list.begin(), list.end());
    offsets.push_back(ids.size());
  }
  std::string out;
  append_u64(out, kMagic);
  append_u64(out, 0);  // the checksum, below
  append_u64(out, first_num);
  append_u64(out, best_num);
  append_u64(out, offsets.size());
  append_u64(out, ids.size());
  for (uint64_t offset : offsets) append_u64(out, offset);
  for (uint32_t id : ids) {
    char bytes[sizeof id];
    std::memcpy(bytes, &id, sizeof id);
    out.append(bytes, sizeof id);
  }
  const uint64_t checksum = marian_shortlist_checksum(out);
  std::memcpy(out.data() + 8, &checksum, sizeof checksum);
  return out;
}

}  // namespace attend
