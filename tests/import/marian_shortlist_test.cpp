// read_marian_shortlist on files laid out as Marian's BinaryShortlistGenerator::import lays them out
// (src/data/shortlist.cpp at e88c1aa5, docs/marian.md §9): the lists come back; the bytes and the
// checksum are the ones training/attend_ref/marian_shortlist.py writes; each damaged field, with
// the checksum made right again so that the field's own check is what refuses it, is refused with
// one line naming the file and the field; and for_batch picks a batch's target ids by generate's rules.
#include "model/marian_shortlist.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <random>
#include <set>
#include <string>
#include <vector>

#include "attend/error.h"

namespace attend {
namespace {

constexpr size_t kHeader = 48;

// Source vocabulary 5, target 8: an odd number of ids, so the last 4 bytes are outside the checksum.
const std::vector<std::vector<uint32_t>> kLists = {{3, 1}, {}, {0, 2, 5}, {4}, {6}};

std::string a_file() { return marian_shortlist_bytes(2, 3, kLists); }

std::string from_hex(const std::string& hex) {
  std::string out;
  for (size_t k = 0; k < hex.size(); k += 2) out += static_cast<char>(std::stoi(hex.substr(k, 2), nullptr, 16));
  return out;
}

void put_u64(std::string& bytes, size_t at, uint64_t value) { std::memcpy(bytes.data() + at, &value, sizeof value); }
void put_u32(std::string& bytes, size_t at, uint32_t value) { std::memcpy(bytes.data() + at, &value, sizeof value); }

// The checksum made right again after a damage.
std::string rehashed(std::string bytes) {
  put_u64(bytes, 8, marian_shortlist_checksum(bytes));
  return bytes;
}

// The message of the invalid_model error reading `bytes` throws.
std::string refusal(const std::string& bytes, int src_vocab = 5, int tgt_vocab = 8) {
  try {
    read_marian_shortlist(bytes, "lex.50.50.ende.s2t.bin", src_vocab, tgt_vocab);
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ErrorCode::invalid_model) << e.what();
    EXPECT_EQ(std::string(e.what()).rfind("lex.50.50.ende.s2t.bin: not a Marian shortlist: ", 0), 0u) << e.what();
    EXPECT_EQ(std::string(e.what()).find('\n'), std::string::npos) << e.what();
    return e.what();
  }
  ADD_FAILURE() << "a damaged shortlist was read";
  return "";
}

TEST(MarianShortlist, ListsComeBackSortedWithTheHeader) {
  const MarianShortlist shortlist = read_marian_shortlist(a_file(), "lex.bin", 5, 8);
  EXPECT_EQ(shortlist.first_num(), 2u);
  EXPECT_EQ(shortlist.best_num(), 3u);
  EXPECT_EQ(shortlist.src_vocab(), 5);
  EXPECT_EQ(shortlist.tgt_vocab(), 8);
  EXPECT_EQ(shortlist.list(0), (std::vector<int>{1, 3}));
  EXPECT_EQ(shortlist.list(1), (std::vector<int>{}));
  EXPECT_EQ(shortlist.list(2), (std::vector<int>{0, 2, 5}));
  EXPECT_EQ(shortlist.list(4), (std::vector<int>{6}));
  EXPECT_THROW(shortlist.list(5), Error);
}

TEST(MarianShortlist, BytesAreThePythonWritersByteForByte) {
  // training/attend_ref/marian_shortlist.py: shortlist_bytes([[3,1],[],[0,2,5],[4],[6]], 2, 3).hex()
  const std::string python = from_hex(
      "f5173401d5481af12716dc716f5d03d8020000000000000003000000000000000600000000000000070000000000000000000000000000000200"
      "000000000000020000000000000005000000000000000600000000000000070000000000000001000000030000000000000002000000050000"
      "000400000006000000");
  EXPECT_EQ(a_file(), python);
  EXPECT_EQ(a_file().size(), kHeader + 6 * 8 + 7 * 4);
  EXPECT_EQ(marian_shortlist_checksum(python), 0xd8035d6f71dc1627ull);
  // shortlist_checksum(..., "wasm32"): libc++'s murmur2 for std::hash, as Bergamot's wasm computes it.
  EXPECT_EQ(marian_shortlist_checksum(python, true), 10924392489276117932ull);
}

TEST(MarianShortlist, ReadsTheChecksumOfMarianInWasmToo) {
  std::string file = a_file();
  put_u64(file, 8, marian_shortlist_checksum(file, true));
  EXPECT_EQ(read_marian_shortlist(file, "lex.bin", 5, 8).list(2), (std::vector<int>{0, 2, 5}));
  put_u64(file, 8, marian_shortlist_checksum(file, true) + 1);
  EXPECT_NE(refusal(file).find("(wasm32's hash: 10924392489276117932)"), std::string::npos);
}

TEST(MarianShortlist, ChecksumCoversWholeWordsFromFirstNumOn) {
  // hashMem over (size - 16) / 8 words from byte 16: the magic, the checksum itself and a trailing
  // 4-byte remainder (here the last target id) are outside it.
  std::string file = a_file();
  const uint64_t checksum = marian_shortlist_checksum(file);
  put_u32(file, file.size() - 4, 7);
  EXPECT_EQ(marian_shortlist_checksum(file), checksum);
  EXPECT_EQ(read_marian_shortlist(file, "lex.bin", 5, 8).list(4), (std::vector<int>{7}));
  // The formula, word by word: seed ^= w + 0x9e3779b9 + (seed << 6) + (seed >> 2).
  std::string words(16, '\0');
  words += std::string("\x05\0\0\0\0\0\0\0", 8);
  EXPECT_EQ(marian_shortlist_checksum(words), 5u + 0x9e3779b9u);
  words += std::string(8, '\0');
  const uint64_t seed = 5u + 0x9e3779b9u;
  EXPECT_EQ(marian_shortlist_checksum(words), seed ^ (0x9e3779b9u + (seed << 6) + (seed >> 2)));
}

TEST(MarianShortlist, RefusesEachDamagedField) {
  const std::string file = a_file();
  EXPECT_NE(refusal(file.substr(0, 47)).find("shorter than the 48-byte header"), std::string::npos);
  std::string bytes = file;
  bytes[0] ^= 1;
  EXPECT_NE(refusal(bytes).find("the magic"), std::string::npos);
  bytes = file;
  put_u64(bytes, 8, 12345);
  EXPECT_NE(refusal(bytes).find("the checksum is 12345"), std::string::npos);
  bytes = file;
  bytes[kHeader + 6 * 8] ^= 1;  // a target id, checksum not made right
  EXPECT_NE(refusal(bytes).find("checksum"), std::string::npos);
  EXPECT_NE(refusal(rehashed(file + std::string(4, '\0'))).find("the header gives a file of 124 bytes, the file is 128"),
            std::string::npos);
  EXPECT_NE(refusal(rehashed(file.substr(0, file.size() - 4))).find("need more than the file's 120 bytes"), std::string::npos);
  // wordToOffsetSize: another source vocabulary.
  EXPECT_NE(refusal(file, 6, 8).find("wordToOffsetSize is 6, the source vocabulary of 6 pieces wants 7"), std::string::npos);
  bytes = file;
  put_u64(bytes, 32, 1u << 30);
  EXPECT_NE(refusal(rehashed(bytes)).find("wordToOffsetSize is 1073741824"), std::string::npos);
  bytes = file;
  put_u64(bytes, 40, ~0ull / 2);  // shortListsSize: no overflow into a small size
  EXPECT_NE(refusal(rehashed(bytes)).find("shortListsSize"), std::string::npos);
  // Offsets: [0, 2, 2, 5, 6, 7].
  bytes = file;
  put_u64(bytes, kHeader, 1);
  EXPECT_NE(refusal(rehashed(bytes)).find("wordToOffset[0] is 1, not 0"), std::string::npos);
  bytes = file;
  put_u64(bytes, kHeader + 2 * 8, 1);
  EXPECT_NE(refusal(rehashed(bytes)).find("wordToOffset[2] is 1 after 2"), std::string::npos);
  bytes = file;
  put_u64(bytes, kHeader + 3 * 8, 8);
  EXPECT_NE(refusal(rehashed(bytes)).find("wordToOffset[3] is 8"), std::string::npos);
  bytes = file;
  put_u64(bytes, kHeader + 5 * 8, 6);
  EXPECT_NE(refusal(rehashed(bytes)).find("the last wordToOffset is 6, not shortListsSize 7"), std::string::npos);
  // bestNum 2 under source id 2's three targets.
  bytes = file;
  put_u64(bytes, 24, 2);
  EXPECT_NE(refusal(rehashed(bytes)).find("source id 2 lists 3 target ids, more than bestNum 2"), std::string::npos);
  // Target ids: shortLists = [1, 3, 0, 2, 5, 4, 6].
  EXPECT_NE(refusal(file, 5, 6).find("source id 4 lists target id 6, the target vocabulary has 6 pieces"), std::string::npos);
  bytes = file;
  put_u32(bytes, kHeader + 6 * 8 + 3 * 4, 0);
  EXPECT_NE(refusal(rehashed(bytes)).find("source id 2's list is not ascending (0 then 0)"), std::string::npos);
  bytes = file;
  put_u32(bytes, kHeader + 6 * 8, 4);
  EXPECT_NE(refusal(rehashed(bytes)).find("source id 0's list is not ascending (4 then 3)"), std::string::npos);
  try {
    read_marian_shortlist(file, "lex.bin", 0, 8);
    ADD_FAILURE() << "a vocabulary of 0 was taken";
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ErrorCode::invalid_argument);
  }
}

TEST(MarianShortlist, ReadsTrailingEmptyListsThatMariansContentCheckRefuses) {
  // contentCheck wants every wordToOffset but the last *below* shortListsSize: a last source id
  // without a list fails it. The file is well formed, and Bergamot (check off) reads it.
  const std::string file = marian_shortlist_bytes(50, 50, {{1}, {2, 3}, {}, {}});
  const MarianShortlist shortlist = read_marian_shortlist(file, "lex.bin", 4, 4);
  EXPECT_TRUE(shortlist.list(3).empty());
  const MarianShortlist empty = read_marian_shortlist(marian_shortlist_bytes(0, 0, {{}, {}}), "lex.bin", 2, 9);
  // firstNum 0 and no lists: nothing, 0 being a multiple of 8 (as in generate).
  EXPECT_EQ(empty.for_batch({{1}}, 0, false), (std::vector<int>{}));
}

// generate's rules on sets, the obvious way: the reference for_batch must equal.
std::vector<int> reference(const std::vector<std::vector<uint32_t>>& lists, uint64_t first_num, int tgt_vocab,
                           const std::vector<std::vector<int>>& sources, int eos, bool shared) {
  std::set<int> marked;
  for (uint64_t i = 0; i < first_num && i < static_cast<uint64_t>(tgt_vocab); ++i) marked.insert(static_cast<int>(i));
  for (std::vector<int> source : sources) {
    source.push_back(eos);
    for (int s : source) {
      if (shared) marked.insert(s);
      marked.insert(lists[static_cast<size_t>(s)].begin(), lists[static_cast<size_t>(s)].end());
    }
  }
  for (uint64_t i = first_num; marked.size() % 8 != 0 && i < static_cast<uint64_t>(tgt_vocab); ++i) marked.insert(static_cast<int>(i));
  return {marked.begin(), marked.end()};
}

TEST(MarianShortlist, BatchIsFirstNumTheUnionEosAndPaddingToEight) {
  // firstNum 3; target vocabulary 40; EOS 0 lists {30}.
  const std::vector<std::vector<uint32_t>> lists = {{30}, {10, 20}, {11}, {3, 4, 5, 6, 7}, {}, {39}};
  const MarianShortlist shortlist = read_marian_shortlist(marian_shortlist_bytes(3, 5, lists), "lex.bin", 6, 40);
  // No sentence: [0, 3) and padding from 3.
  EXPECT_EQ(shortlist.for_batch({}, 0, false), (std::vector<int>{0, 1, 2, 3, 4, 5, 6, 7}));
  // One sentence: [0,3) ∪ {10,20} ∪ EOS's {30} = 6 ids, padded with 3 and 4.
  EXPECT_EQ(shortlist.for_batch({{1}}, 0, false), (std::vector<int>{0, 1, 2, 3, 4, 10, 20, 30}));
  // The union over the batch (12 ids), the padding skipping the ids already in (3..7, from source 3).
  EXPECT_EQ(shortlist.for_batch({{1}, {2, 3}}, 0, false),
            (std::vector<int>{0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 20, 30}));
  // EOS is added whether the sources hold it or not, and counts once; the order of the sentences
  // and of their words does not matter.
  EXPECT_EQ(shortlist.for_batch({{1, 0}}, 0, false), shortlist.for_batch({{1}}, 0, false));
  EXPECT_EQ(shortlist.for_batch({{3, 2}, {1}}, 0, false), shortlist.for_batch({{1}, {2, 3}}, 0, false));
  // Another EOS id: its list instead of 0's.
  EXPECT_EQ(shortlist.for_batch({{1}}, 5, false), (std::vector<int>{0, 1, 2, 3, 4, 10, 20, 39}));
}

TEST(MarianShortlist, SharedVocabularyAddsTheSourceIds) {
  std::vector<std::vector<uint32_t>> lists(40);
  lists[0] = {30};
  lists[1] = {10};
  const MarianShortlist shortlist = read_marian_shortlist(marian_shortlist_bytes(3, 50, lists), "lex.bin", 40, 40);
  EXPECT_EQ(shortlist.for_batch({{25}}, 0, false), (std::vector<int>{0, 1, 2, 3, 4, 5, 6, 30}));
  EXPECT_EQ(shortlist.for_batch({{25}}, 0, true), (std::vector<int>{0, 1, 2, 3, 4, 5, 25, 30}));
  EXPECT_EQ(shortlist.for_batch({{25, 33, 1}}, 0, true), (std::vector<int>{0, 1, 2, 3, 10, 25, 30, 33}));
}

TEST(MarianShortlist, BatchClampsFirstNumToTheVocabularyAndRefusesIdsOutOfRange) {
  const MarianShortlist shortlist = read_marian_shortlist(marian_shortlist_bytes(100, 2, {{1}, {2}, {}}), "lex.bin", 3, 5);
  EXPECT_EQ(shortlist.for_batch({{1, 2}}, 0, true), (std::vector<int>{0, 1, 2, 3, 4}));  // no padding past the vocabulary
  for (int bad : {-1, 3}) {
    try {
      shortlist.for_batch({{1, bad}}, 0, false);
      ADD_FAILURE() << "source id " << bad << " was taken";
    } catch (const Error& e) {
      EXPECT_EQ(e.code(), ErrorCode::invalid_argument) << e.what();
    }
  }
  // Shared: a source id must be a target id too.
  const MarianShortlist wide = read_marian_shortlist(marian_shortlist_bytes(1, 2, {{1}, {2}, {}, {}}), "lex.bin", 4, 3);
  EXPECT_NO_THROW(wide.for_batch({{3}}, 0, false));
  EXPECT_THROW(wide.for_batch({{3}}, 0, true), Error);
}

TEST(MarianShortlist, BatchEqualsTheRulesOnRandomShortlists) {
  std::mt19937 random(7);
  for (int round = 0; round < 200; ++round) {
    const int src_vocab = 1 + static_cast<int>(random() % 30), tgt_vocab = 1 + static_cast<int>(random() % 60);
    const uint64_t first_num = random() % 20, best_num = 1 + random() % 6;
    std::vector<std::vector<uint32_t>> lists(static_cast<size_t>(src_vocab));
    for (auto& list : lists) {
      std::set<uint32_t> ids;
      const size_t n = random() % (best_num + 1);
      while (ids.size() < std::min<size_t>(n, static_cast<size_t>(tgt_vocab))) ids.insert(random() % static_cast<uint32_t>(tgt_vocab));
      list.assign(ids.begin(), ids.end());
    }
    const MarianShortlist shortlist =
        read_marian_shortlist(marian_shortlist_bytes(first_num, best_num, lists), "lex.bin", src_vocab, tgt_vocab);
    const bool shared = src_vocab <= tgt_vocab && random() % 2;
    std::vector<std::vector<int>> sources(random() % 4);
    for (auto& source : sources) {
      source.resize(random() % 6);
      for (int& id : source) id = static_cast<int>(random() % static_cast<uint32_t>(src_vocab));
    }
    const int eos = static_cast<int>(random() % static_cast<uint32_t>(src_vocab));
    const std::vector<int> got = shortlist.for_batch(sources, eos, shared);
    EXPECT_EQ(got, reference(lists, first_num, tgt_vocab, sources, eos, shared)) << "round " << round;
    EXPECT_TRUE(std::is_sorted(got.begin(), got.end()));
    if (got.size() % 8 != 0) {  // only when the ids from firstNum on ran out
      for (uint64_t i = first_num; i < static_cast<uint64_t>(tgt_vocab); ++i) {
        EXPECT_TRUE(std::binary_search(got.begin(), got.end(), static_cast<int>(i))) << "round " << round;
      }
    }
  }
}

}  // namespace
}  // namespace attend
