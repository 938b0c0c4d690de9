#include "tokenizer/tokenizer.h"

#include <gtest/gtest.h>

#include <random>
#include <string>
#include <thread>

#include "attend/error.h"
#include "test_files.h"
#include "tokenizer/normalizer_rules.h"

namespace attend {
namespace {

using namespace std::string_literals;

Tokenizer load(const std::string& model_name) {
  return Tokenizer::from_bytes(test::read_file(test::model_path(model_name)));
}

template <typename Call>
ErrorCode error_code_of(Call call) {
  try {
    call();
  } catch (const Error& error) {
    return error.code();
  }
  ADD_FAILURE() << "no attend::Error thrown";
  return ErrorCode::cancelled;
}

TEST(Tokenizer, SpecialIdsAndPieces) {
  const Tokenizer tokenizer = load("joint_unigram");
  EXPECT_EQ(tokenizer.vocab_size(), 8000);
  EXPECT_EQ(tokenizer.unk_id(), 0);
  EXPECT_EQ(tokenizer.bos_id(), 1);
  EXPECT_EQ(tokenizer.eos_id(), 2);
  EXPECT_EQ(tokenizer.pad_id(), -1);  // spm_train's default: no pad piece
  EXPECT_EQ(tokenizer.id_to_piece(0), "<unk>");
  EXPECT_EQ(tokenizer.piece_to_id("</s>"), 2);
  EXPECT_EQ(tokenizer.piece_to_id("no such piece"), tokenizer.unk_id());

  const std::vector<int> ids = tokenizer.encode("Ein Mann fährt Fahrrad.");
  const std::vector<std::string> pieces = tokenizer.pieces(ids);
  ASSERT_EQ(pieces.size(), ids.size());
  for (std::size_t i = 0; i < ids.size(); ++i) {
    EXPECT_EQ(tokenizer.piece_to_id(pieces[i]), ids[i]);
  }
  EXPECT_EQ(pieces.front(), "▁Ein");
  EXPECT_EQ(tokenizer.decode(ids), "Ein Mann fährt Fahrrad.");
}

TEST(Tokenizer, ControlIdsDecodeToNothing) {
  const Tokenizer tokenizer = load("joint_unigram");
  std::vector<int> ids = tokenizer.encode("A dog.");
  ids.insert(ids.begin(), tokenizer.bos_id());
  ids.push_back(tokenizer.eos_id());
  EXPECT_EQ(tokenizer.decode(ids), "A dog.");
}

TEST(Tokenizer, ByteFallbackRoundTripsCharactersOutsideTheVocabulary) {
  const Tokenizer tokenizer = load("bytes_bpe");
  const std::vector<int> ids = tokenizer.encode("ein 👩‍👩‍👧 hund");
  EXPECT_EQ(tokenizer.id_to_piece(ids.at(2)), "<0xF0>");
  EXPECT_EQ(tokenizer.decode(ids), "ein 👩‍👩‍👧 hund");
}

TEST(Tokenizer, OffsetsAreTheIdsOfEncodeWithTheBytesTheyCameFrom) {
  const Tokenizer tokenizer = load("joint_unigram");
  const std::string text = "A man 😀 rides  in 北京.";
  const std::vector<TokenSpan> tokens = tokenizer.encode_with_offsets(text);
  std::vector<int> ids;
  std::vector<std::string> unknown;
  size_t previous_end = 0;
  for (const TokenSpan& token : tokens) {
    ids.push_back(token.id);
    EXPECT_LE(previous_end, token.begin);
    EXPECT_LE(token.begin, token.end);
    EXPECT_LE(token.end, text.size());
    previous_end = token.end;
    if (token.id == tokenizer.unk_id()) unknown.push_back(text.substr(token.begin, token.end - token.begin));
  }
  EXPECT_EQ(ids, tokenizer.encode(text));
  EXPECT_EQ(unknown, (std::vector<std::string>{"😀", "北京"}));
  EXPECT_EQ(error_code_of([&] { tokenizer.encode_with_offsets("\xC3"); }), ErrorCode::invalid_input);
}

TEST(Tokenizer, RejectsInvalidUtf8BeforeSentencePiece) {
  const Tokenizer tokenizer = load("joint_unigram");
  for (const std::string& text : {"\xFF"s, "\xE2\x82"s, "\xC0\xAF"s, "\xED\xA0\x80"s}) {
    EXPECT_EQ(error_code_of([&] { tokenizer.encode(text); }), ErrorCode::invalid_input)
        << testing::PrintToString(text);
  }
  try {
    tokenizer.encode("Ein Mann \xE2\x82");
    FAIL() << "no error";
  } catch (const Error& error) {
    EXPECT_STREQ(error.what(), "input is not valid UTF-8 at byte 9");
  }
}

TEST(Tokenizer, RejectsIdsOutsideTheVocabulary) {
  const Tokenizer tokenizer = load("joint_unigram");
  EXPECT_EQ(error_code_of([&] { tokenizer.decode({5, 8000}); }), ErrorCode::invalid_argument);
  EXPECT_EQ(error_code_of([&] { tokenizer.decode({-1}); }), ErrorCode::invalid_argument);
  EXPECT_EQ(error_code_of([&] { tokenizer.id_to_piece(8000); }), ErrorCode::invalid_argument);
  EXPECT_EQ(error_code_of([&] { tokenizer.pieces({3, -7}); }), ErrorCode::invalid_argument);
}

TEST(Tokenizer, CorruptModelBytesGiveInvalidModel) {
  EXPECT_EQ(error_code_of([] { Tokenizer::from_bytes(""); }), ErrorCode::invalid_model);
  EXPECT_EQ(error_code_of([] { Tokenizer::from_bytes("not a model"); }), ErrorCode::invalid_model);
  const std::string model = test::read_file(test::model_path("joint_unigram"));
  for (const std::size_t size : {1ul, 2ul, 7ul, 100ul, model.size() / 2, model.size() - 1}) {
    EXPECT_EQ(error_code_of([&] { Tokenizer::from_bytes(model.substr(0, size)); }),
              ErrorCode::invalid_model)
        << "truncated to " << size << " bytes";
  }
  std::mt19937 random(7);
  std::string noise(model.size(), '\0');
  for (char& byte : noise) byte = static_cast<char>(random());
  EXPECT_EQ(error_code_of([&] { Tokenizer::from_bytes(noise); }), ErrorCode::invalid_model);
}

// A piece that is empty or holds a NUL byte: SentencePiece's trie builder (darts-clone) read it
// as a C string and threw through SentencePiece, which aborted the process (found by the
// tokenizer_model fuzzer). Refused before SentencePiece sees it.
TEST(Tokenizer, APieceWithANulByteIsRefused) {
  for (const char* name : {"joint_unigram", "bytes_bpe"}) {
    const std::string model = test::read_file(test::model_path(name));
    const size_t piece = model.find("\xE2\x96\x81");  // the first "▁…" piece's text
    ASSERT_NE(piece, std::string::npos) << name;
    for (const size_t at : {piece, piece + 1}) {  // opening it, and inside it
      std::string damaged = model;
      damaged[at] = '\0';
      try {
        Tokenizer::from_bytes(damaged);
        ADD_FAILURE() << name << ": a piece with a NUL byte was loaded";
      } catch (const Error& error) {
        EXPECT_EQ(error.code(), ErrorCode::invalid_model);
        EXPECT_NE(std::string(error.what()).find("holds a NUL byte"), std::string::npos) << error.what();
      }
    }
  }
}

// A flipped byte may still parse (e.g. inside a piece's text or score); then the model
// must work. Either way nothing may crash.
TEST(Tokenizer, FlippedBytesNeverCrash) {
  const std::string model = test::read_file(test::model_path("bytes_bpe"));
  std::mt19937 random(11);
  int rejected = 0;
  for (int trial = 0; trial < 300; ++trial) {
    std::string damaged = model;
    damaged[random() % damaged.size()] ^= static_cast<char>(1 + random() % 255);
    try {
      const Tokenizer tokenizer = Tokenizer::from_bytes(damaged);
      tokenizer.decode(tokenizer.encode("Zwei Männer stehen am Herd. 😀"));
    } catch (const Error& error) {
      EXPECT_EQ(error.code(), ErrorCode::invalid_model) << error.what();
      ++rejected;
    }
  }
  RecordProperty("rejected", rejected);
}

// The normalization rules (a trie SentencePiece follows without bounds checks) damaged: every
// unit pointing far away is rejected; random damage is rejected or harmless. Run under ASan,
// a read outside the rules fails this test.
TEST(Tokenizer, DamagedNormalizationRulesAreRejectedOrHarmless) {
  const std::string model = test::read_file(test::model_path("joint_unigram"));  // nmt_nfkc rules
  const auto charsmaps = precompiled_charsmaps(model);
  ASSERT_EQ(charsmaps.size(), 1u);
  const size_t begin = charsmaps[0].data() - model.data(), size = charsmaps[0].size();
  uint32_t trie_bytes = 0;
  for (int i = 3; i >= 0; --i) trie_bytes = (trie_bytes << 8) | static_cast<uint8_t>(model[begin + i]);
  ASSERT_LT(trie_bytes, size);

  std::string far = model;
  for (size_t at = begin + 4; at + 4 <= begin + 4 + trie_bytes; at += 4) {
    const uint32_t unit = 0x7fffff00u | (at & 0xFF);  // offset ~2^21 units, label = low byte
    for (int i = 0; i < 4; ++i) far[at + i] = static_cast<char>(unit >> (8 * i));
  }
  EXPECT_EQ(error_code_of([&] { Tokenizer::from_bytes(far); }), ErrorCode::invalid_model);
  // A second normalizer_spec (field 3) holding only a name: protobuf merges it into the first, so
  // the damaged rules stay in force and must still be found.
  const std::string second_spec = "\x1a\x02\x0a\x00"s;
  EXPECT_EQ(error_code_of([&] { Tokenizer::from_bytes(far + second_spec); }), ErrorCode::invalid_model);
  const std::string sentence = "Zwei Männer stehen am Herd.";
  EXPECT_EQ(Tokenizer::from_bytes(model + second_spec).encode(sentence), Tokenizer::from_bytes(model).encode(sentence));

  const std::string text = "Ein Mann mit ＦＵＬＬＷＩＤＴＨ Buchstaben, ﬁ-Ligatur, ①② und \u00e9\u0301tude. 😀";
  std::mt19937 random(5);
  int rejected = 0;
  for (int trial = 0; trial < 300; ++trial) {
    std::string damaged = model;
    for (int flips = 0; flips < 4; ++flips) {
      damaged[begin + random() % size] ^= static_cast<char>(1 + random() % 255);
    }
    try {
      const Tokenizer tokenizer = Tokenizer::from_bytes(damaged);
      tokenizer.decode(tokenizer.encode(text));
    } catch (const Error& error) {
      EXPECT_EQ(error.code(), ErrorCode::invalid_model) << error.what();
      ++rejected;
    }
  }
  RecordProperty("rejected", rejected);
}

TEST(Tokenizer, IsMovable) {
  Tokenizer first = load("joint_unigram");
  const std::vector<int> ids = first.encode("Two dogs play.");
  Tokenizer second = std::move(first);
  EXPECT_EQ(second.encode("Two dogs play."), ids);
  Tokenizer third = load("fr_bpe");
  third = std::move(second);
  EXPECT_EQ(third.encode("Two dogs play."), ids);
}

TEST(Tokenizer, EncodesConcurrentlyLikeSequentially) {
  const Tokenizer tokenizer = load("joint_unigram");
  const std::vector<std::string> lines = test::read_lines(test::vocab_dir() + "/text/val.de");
  std::vector<std::vector<int>> expected;
  for (const auto& line : lines) expected.push_back(tokenizer.encode(line));

  constexpr int thread_count = 4;
  std::vector<int> mismatches(thread_count, 0);
  std::vector<std::thread> threads;
  for (int t = 0; t < thread_count; ++t) {
    threads.emplace_back([&, t] {
      for (std::size_t i = 0; i < lines.size(); ++i) {
        const std::vector<int> ids = tokenizer.encode(lines[i]);
        if (ids != expected[i] || tokenizer.decode(ids) != tokenizer.decode(expected[i])) {
          ++mismatches[t];
        }
      }
    });
  }
  for (auto& thread : threads) thread.join();
  for (int t = 0; t < thread_count; ++t) EXPECT_EQ(mismatches[t], 0) << "thread " << t;
}

}  // namespace
}  // namespace attend
