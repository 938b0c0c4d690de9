// OPUS-MT's files: Marian's .npz (import/marian_npz.h) on archives written here as Marian's cnpy
// writes them (stored) and as numpy's savez_compressed does (deflate, zip64 extras), each kind of
// damage refused naming the entry; vocab.yml (read_marian_vocab_yml) with yaml-cpp's quoting and
// each kind of damage; the tokenizer numbering SentencePiece's pieces by a piece list; the same
// model as .npz and .bin importing to the same bytes; decoder.yml's search; and, on the committed
// OPUS-MT fixture (tests/marian/fixtures/opus-ende), every test_2016_flickr line's source ids equal
// to `spm_encode --output_format=piece` mapped through the vocab.yml by PyYAML.
#include <gtest/gtest.h>
#include <zlib.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <sstream>

#include <nlohmann/json.hpp>

#include "attend/document.h"
#include "attend/error.h"
#include "attend/translator.h"
#include "expect_has.h"
#include "import/marian_import.h"
#include "import/marian_npz.h"
#include "import/marian_yml.h"
#include "marian_test_model.h"
#include "model/safetensors.h"
#include "pipeline/target_token.h"
#include "tokenizer/piece_list.h"
#include "tokenizer/tokenizer.h"

namespace attend {
namespace {

using test::npy;
using test::zip;
using test::ZipEntry;

// The .npz of a test model: its items as .npy arrays (float32 '<f4', the yml '<i1'), as Marian saves them.
std::string npz_of(const test::TestModel& model, bool deflated = false) {
  std::vector<ZipEntry> entries;
  for (const test::Item& item : model.items) {
    EXPECT_EQ(item.type, test::kFloat32) << item.name;
    entries.push_back({item.name + ".npy", npy("<f4", item.shape, item.data)});
  }
  const std::string yml = model.yml + '\0';
  entries.push_back({"special:model.yml.npy", npy("<i1", {static_cast<int32_t>(yml.size())}, yml)});
  return zip(entries, deflated);
}

std::string refusal(const std::string& bytes) {
  try {
    read_marian_npz(bytes, "opus.npz");
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ErrorCode::invalid_model);
    return e.what();
  }
  ADD_FAILURE() << "read";
  return "";
}

TEST(MarianNpz, ReadsTheItemsStoredAndDeflatedAsTheBinHoldsThem) {
  test::ModelSpec spec;
  spec.ssru = false;
  const test::TestModel model = test::test_model(spec);
  for (const bool deflated : {false, true}) {
    const std::string bytes = npz_of(model, deflated);
    const MarianNpz npz = read_marian_npz(bytes, "opus.npz");
    ASSERT_EQ(npz.items.size(), model.items.size() + 1);
    EXPECT_EQ(npz.inflated.size(), deflated ? npz.items.size() : 0u);
    for (size_t i = 0; i < model.items.size(); ++i) {
      EXPECT_EQ(npz.items[i].name, model.items[i].name);
      EXPECT_EQ(npz.items[i].type, MarianType::float32);
      const std::vector<int64_t> shape(model.items[i].shape.begin(), model.items[i].shape.end());
      EXPECT_EQ(npz.items[i].shape, shape) << model.items[i].name;
      EXPECT_EQ(npz.items[i].bytes, model.items[i].data) << model.items[i].name;
    }
    EXPECT_EQ(marian_model_yml(npz.items), model.yml);
    EXPECT_EQ(npz.items.back().shape, (std::vector<int64_t>{1, static_cast<int64_t>(model.yml.size() + 1)}));  // [n] read as [1, n]
  }
}

TEST(MarianNpz, TheNpzAndTheBinOfOneModelImportToTheSameBytes) {
  test::ModelSpec spec;
  spec.ssru = false;
  const test::TestModel model = test::test_model(spec);
  const std::string bin = model.bin(), stored = npz_of(model), deflated = npz_of(model, true);
  std::vector<std::string> imported;
  for (const std::string* bytes : {&bin, &stored, &deflated}) {
    MarianFiles files;
    files.model = {"model", *bytes};
    files.source_vocab = {"vocab.spm", test::en_de_vocabulary()};
    imported.push_back(import_marian(files));
  }
  EXPECT_EQ(imported[1], imported[0]);
  EXPECT_EQ(imported[2], imported[0]);
}

TEST(MarianNpz, DamageIsRefusedNamingTheEntry) {
  const std::string good_npy = npy("<f4", {1, 2}, std::string(8, '\0'));
  const std::string good = zip({{"Wemb.npy", good_npy}});
  ASSERT_NO_THROW(read_marian_npz(good, "opus.npz"));
  EXPECT_HAS(refusal("PK\x03\x04 and then anything but a zip archive"), "opus.npz: not a Marian .npz model: no zip end of central directory");
  EXPECT_HAS(refusal(good.substr(0, good.size() - 1)), "no zip end of central directory");
  EXPECT_HAS(refusal(good.substr(10)), "opus.npz");
  std::string crc = good;
  crc[40] ^= 1;  // a byte of the .npy data
  EXPECT_HAS(refusal(crc), "'Wemb.npy''s data does not match its CRC-32");
  std::string method = good;
  method[8] = 12;  // the local header's method; the directory's is read
  method[good.find("PK\x01\x02") + 10] = 12;
  EXPECT_HAS(refusal(method), "'Wemb.npy' is compressed with zip method 12");
  std::string encrypted = good;
  encrypted[good.find("PK\x01\x02") + 8] = 1;
  EXPECT_HAS(refusal(encrypted), "'Wemb.npy' is encrypted");
  EXPECT_HAS(refusal(zip({{"Wemb.txt", good_npy}})), "'Wemb.txt' is not a .npy array");
  EXPECT_HAS(refusal(zip({{"Wemb.npy", good_npy}, {"Wemb.npy", good_npy}})), "two entries named 'Wemb.npy'");
  EXPECT_HAS(refusal(zip({{"Wemb.npy", "NUMPY" + good_npy}})), "'Wemb.npy' is not a .npy array (no \\x93NUMPY magic)");
  EXPECT_HAS(refusal(zip({{"Wemb.npy", npy("<f8", {1, 2}, std::string(16, '\0'))}})), "'Wemb.npy' holds '<f8', not little-endian float32");
  EXPECT_HAS(refusal(zip({{"Wemb.npy", npy(">f4", {1, 2}, std::string(8, '\0'))}})), "holds '>f4'");
  EXPECT_HAS(refusal(zip({{"Wemb.npy", npy("<i1", {2}, "ab")}})), "holds '<i1', not little-endian float32 ('<f4')");
  EXPECT_HAS(refusal(zip({{"Wemb.npy", npy("<f4", {1, 2}, std::string(8, '\0'), true)}})), "'Wemb.npy' is in Fortran order");
  EXPECT_HAS(refusal(zip({{"Wemb.npy", npy("<f4", {1, 3}, std::string(8, '\0'))}})), "'Wemb.npy' has 8 bytes of data, its shape needs 12");
  EXPECT_HAS(refusal(zip({{"Wemb.npy", npy("<f4", {}, std::string(4, '\0'))}})), "'Wemb.npy' is a scalar");
  EXPECT_HAS(refusal(zip({{"Wemb.npy", npy("<f4", {1, 0}, "")}})), "'Wemb.npy' has a dim of 0");
  std::string header = good_npy;
  header.replace(header.find("'shape'"), 7, "'shope'");
  EXPECT_HAS(refusal(zip({{"Wemb.npy", header}})), "'Wemb.npy': its .npy header has the key 'shope'");
  std::string deflated = zip({{"Wemb.npy", good_npy}}, true);
  deflated[deflated.find("Wemb.npy") + 8 + 20 + 2] ^= 0x55;  // a byte of the deflate stream, past the zip64 extra
  EXPECT_HAS(refusal(deflated), "'Wemb.npy'");
  // A model file's refusal names the file through import_marian too.
  MarianFiles files;
  files.model = {"opus.npz", crc};
  files.source_vocab = {"vocab.spm", test::en_de_vocabulary()};
  try {
    import_marian(files);
    ADD_FAILURE() << "imported";
  } catch (const Error& e) {
    EXPECT_HAS(e.what(), "opus.npz: not a Marian .npz model: 'Wemb.npy''s data does not match its CRC-32");
  }
}

std::string yml_refusal(const std::string& text) {
  try {
    read_marian_vocab_yml(text, "opus.vocab.yml");
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ErrorCode::invalid_model);
    return e.what();
  }
  ADD_FAILURE() << "read: " << text;
  return "";
}

TEST(MarianVocabYml, PiecesPlainAndQuotedNumberedByTheirIds) {
  const std::string text =
      "# made by marian-vocab\n---\n</s>: 0\n<unk>: 1\n\"\\\"\": 4\n\xE2\x96\x81the: 2  # a comment\n"
      "'it''s': 3\n\"\\x41\\u00e9\\t\\\\\": 5\n\xE2\x96\x81:: 6\n\"true\": 7\r\n";
  const std::vector<std::string> pieces = read_marian_vocab_yml(text, "opus.vocab.yml");
  EXPECT_EQ(pieces, (std::vector<std::string>{"</s>", "<unk>", "\xE2\x96\x81the", "it's", "\"", "A\xC3\xA9\t\\",
                                              "\xE2\x96\x81:", "true"}));
}

TEST(MarianVocabYml, DamageIsRefusedNamingTheLine) {
  EXPECT_HAS(yml_refusal(""), "opus.vocab.yml: no `piece: id` lines");
  EXPECT_HAS(yml_refusal("</s>: 0\n<unk>: 2\n"), "opus.vocab.yml: no piece has the id 1");
  EXPECT_HAS(yml_refusal("</s>: 0\n</s>: 1\n"), "opus.vocab.yml: line 2: the piece '</s>' again (line 1)");
  EXPECT_HAS(yml_refusal("</s>: 0\n<unk>: 0\n"), "line 2: the id 0 again (the piece '</s>')");
  EXPECT_HAS(yml_refusal("</s>: 0\n  <unk>: 1\n"), "line 2: an indented line");
  EXPECT_HAS(yml_refusal("{</s>: 0, <unk>: 1}\n"), "line 1: a flow map");
  EXPECT_HAS(yml_refusal("- </s>\n"), "line 1: a list, not a map of pieces to ids");
  EXPECT_HAS(yml_refusal("</s>: zero\n"), "line 1: 'zero' where the piece's id (a number) goes");
  EXPECT_HAS(yml_refusal("</s>: 0\n\"a\\0b\": 1\n"), "line 2: an empty piece, or one holding a NUL byte");
  EXPECT_HAS(yml_refusal("</s>: 0\n\xFF\xFE: 1\n"), "line 2: a piece that is not UTF-8");
  EXPECT_HAS(yml_refusal("</s>: 0\n\"abc: 1\n"), "line 2: a quoted string without its closing quote");
  EXPECT_HAS(yml_refusal("</s>: 0\n&a x: 1\n"), "line 2: an anchor");
  EXPECT_HAS(yml_refusal("</s>: 0\n~: 1\n"), "line 2: a null piece");
  EXPECT_HAS(yml_refusal("</s>: 0\nx: 4000000000\n"), "line 2: the id 4000000000, past the number of pieces");
  EXPECT_HAS(yml_refusal("</s>: 0\n\"\\q\": 1\n"), "line 2: the escape \\q");
}

// The shipped en-de SentencePiece model's pieces, in reverse id order: a vocab.yml's numbering.
std::vector<std::string> reversed_pieces(const Tokenizer& spm) {
  std::vector<std::string> pieces;
  for (int id = spm.vocab_size() - 1; id >= 0; --id) pieces.push_back(spm.id_to_piece(id));
  return pieces;
}

TEST(PieceList, TheTokenizerNumbersSentencePiecesPiecesByTheList) {
  const Tokenizer spm = Tokenizer::from_bytes(test::en_de_vocabulary());
  const int n = spm.vocab_size();
  const Tokenizer listed = Tokenizer::from_bytes(test::en_de_vocabulary(), PieceList::to_bytes(reversed_pieces(spm)));
  EXPECT_TRUE(listed.has_piece_list());
  EXPECT_EQ(listed.vocab_size(), n);
  EXPECT_EQ(listed.eos_id(), n - 1 - spm.eos_id());
  EXPECT_EQ(listed.unk_id(), n - 1 - spm.unk_id());
  const std::string text = "Two dogs play in the snow near Zürich ☃.";
  std::vector<int> expected;
  for (const int id : spm.encode(text)) expected.push_back(id == spm.unk_id() ? listed.unk_id() : n - 1 - id);
  EXPECT_EQ(listed.encode(text), expected);
  EXPECT_EQ(listed.decode(expected), spm.decode(spm.encode(text)));
  EXPECT_EQ(listed.id_to_piece(n - 1 - spm.piece_to_id("\xE2\x96\x81snow")), "\xE2\x96\x81snow");
  EXPECT_EQ(listed.piece_to_id("no such piece"), listed.unk_id());
  // A piece the list lacks is its <unk>, as Marian maps it: drop "▁snow" (its id given to another piece).
  std::vector<std::string> fewer = reversed_pieces(spm);
  const int snow = n - 1 - spm.piece_to_id("\xE2\x96\x81snow");
  fewer[static_cast<size_t>(snow)] = "not a piece of the model";
  const Tokenizer lacking = Tokenizer::from_bytes(test::en_de_vocabulary(), PieceList::to_bytes(fewer));
  const std::vector<int> ids = lacking.encode("the snow");
  ASSERT_EQ(ids.size(), 2u);
  EXPECT_EQ(ids[1], lacking.unk_id());
  EXPECT_EQ(lacking.decode({snow}), "not a piece of the model");  // SentencePiece writes a piece it lacks as it is
}

TEST(PieceList, DamageIsRefused) {
  const auto refused = [](const std::string& bytes) {
    try {
      PieceList::from_bytes(bytes);
    } catch (const Error& e) {
      EXPECT_EQ(e.code(), ErrorCode::invalid_model);
      return std::string(e.what());
    }
    return std::string("read");
  };
  EXPECT_HAS(refused(""), "the piece list is empty");
  EXPECT_HAS(refused(std::string("</s>\0<unk>", 10)), "does not end with a NUL");
  EXPECT_HAS(refused(std::string("</s>\0\0<unk>\0", 12)), "an empty piece at id 1");
  EXPECT_HAS(refused(std::string("</s>\0<unk>\0</s>\0", 16)), "the piece '</s>' twice, ids 0 and 2");
  EXPECT_HAS(refused(std::string("<unk>\0", 6)), "has no '</s>'");
  EXPECT_HAS(refused(std::string("</s>\0", 5)), "has no '<unk>'");
}

std::string vocab_yml_of(const std::vector<std::string>& pieces) {
  std::string text;
  for (size_t id = 0; id < pieces.size(); ++id) {
    std::string quoted = "\"";
    for (const char c : pieces[id]) quoted += c == '"' || c == '\\' ? std::string("\\") + c : std::string(1, c);
    text += quoted + "\": " + std::to_string(id) + "\n";
  }
  return text;
}

TEST(OpusMtImport, AVocabYmlNumbersThePiecesAndTwoSegmentersTravelWithIt) {
  test::ModelSpec spec;
  spec.ssru = false;
  const test::TestModel model = test::test_model(spec);
  const std::string npz = npz_of(model);
  const Tokenizer spm = Tokenizer::from_bytes(test::en_de_vocabulary());
  const std::string yml = vocab_yml_of(reversed_pieces(spm));
  const std::string decoder = "beam-size: 6\nnormalize: 0.6\nword-penalty: 0.5\nrelative-paths: true\n";
  for (const bool two_segmenters : {false, true}) {
    MarianFiles files;
    files.model = {"opus.npz", npz};
    files.source_vocab = {"source.spm", test::en_de_vocabulary()};
    files.target_vocab = {"target.spm", two_segmenters ? test::de_en_vocabulary() : test::en_de_vocabulary()};
    files.source_pieces = {"opus.vocab.yml", yml};
    files.decoder_yml = {"decoder.yml", decoder};
    const std::string bytes = import_marian(files);
    const SafetensorsFile file = parse_safetensors(reinterpret_cast<const uint8_t*>(bytes.data()), bytes.size());
    const nlohmann::json config = nlohmann::json::parse(file.metadata.at("attend.config"));
    EXPECT_EQ(config["shared_vocab"], true);
    EXPECT_EQ(config["eos_id"], spm.vocab_size() - 1 - spm.eos_id());
    EXPECT_EQ(config["unk_id"], spm.vocab_size() - 1 - spm.unk_id());
    EXPECT_TRUE(file.tensors.count("tokenizer.src.pieces"));
    EXPECT_EQ(file.tensors.count("tokenizer.tgt"), two_segmenters ? 1u : 0u);
    EXPECT_FALSE(file.tensors.count("tokenizer.tgt.pieces"));
    EXPECT_EQ(nlohmann::json::parse(file.metadata.at("attend.search")),
              nlohmann::json::parse(
                  R"({"rules":"marian","beam_size":6,"length_penalty":0.6,"word_penalty":0.5,"max_length_ratio":3,"max_repeats":0})"));
    // The engine loads it and reads with the list's ids: both sides, one id space.
    const auto loaded = Model::from_bytes(std::vector<uint8_t>(bytes.begin(), bytes.end()));
    EXPECT_EQ(default_options(*loaded).beam_size, 6);  // decoder.yml's beam-size: the CLI's and JS's default
    Translator translator(loaded);
    const std::vector<int> ids = translator.source_ids("the snow");
    ASSERT_EQ(ids.size(), 3u);
    EXPECT_EQ(ids[1], spm.vocab_size() - 1 - spm.piece_to_id("\xE2\x96\x81snow"));
    EXPECT_NO_THROW(translator.translate_ids({ids}));
  }
  // Refused: a vocab.yml of another size than the model's vocabulary, one without </s>, a damaged decoder.yml.
  const auto refusal_of = [&](const std::string& pieces_yml, const std::string& decoder_yml) {
    MarianFiles files;
    files.model = {"opus.npz", npz};
    files.source_vocab = {"source.spm", test::en_de_vocabulary()};
    files.source_pieces = {"opus.vocab.yml", pieces_yml};
    files.decoder_yml = {"decoder.yml", decoder_yml};
    try {
      import_marian(files);
    } catch (const Error& e) {
      EXPECT_EQ(e.code(), ErrorCode::invalid_model);
      return std::string(e.what());
    }
    return std::string("imported");
  };
  EXPECT_HAS(refusal_of("</s>: 0\n<unk>: 1\n", ""), "opus.vocab.yml");
  std::vector<std::string> without_eos = reversed_pieces(spm);
  std::replace(without_eos.begin(), without_eos.end(), std::string("</s>"), std::string("not the end"));
  EXPECT_HAS(refusal_of(vocab_yml_of(without_eos), ""), "opus.vocab.yml: tokenizer: the piece list has no '</s>'");
  EXPECT_HAS(refusal_of(yml, "normalize: much\n"), "decoder.yml: 'normalize' is 'much', not a number");
  for (const char* beam : {"0", "2.5", "257", "-1"}) {
    EXPECT_HAS(refusal_of(yml, std::string("beam-size: ") + beam + "\n"), "decoder.yml: 'beam-size' is not a whole number in [1, 256]");
  }
  EXPECT_HAS(refusal_of(yml, "beam-size: 6\n  - x\n"), "decoder.yml: line 2");
}

// decoder.yml's search as marian-decoder reads it: Marian's translator defaults where it names
// none (beam-size 12, normalize 0, max-length-factor 3); without decoder.yml Bergamot's worker's,
// whose beam is 1: no beam_size key, so a .bin import's attend.search is as before.
TEST(OpusMtImport, TheBeamDecoderYmlAsksForOrMariansDefault) {
  test::ModelSpec spec;
  spec.ssru = false;
  const std::string npz = npz_of(test::test_model(spec));
  const auto imported = [&](const std::string& decoder_yml) {
    MarianFiles files;
    files.model = {"opus.npz", npz};
    files.source_vocab = {"source.spm", test::en_de_vocabulary()};
    files.decoder_yml = {"decoder.yml", decoder_yml};
    const std::string bytes = import_marian(files);
    const SafetensorsFile file = parse_safetensors(reinterpret_cast<const uint8_t*>(bytes.data()), bytes.size());
    const auto model = Model::from_bytes(std::vector<uint8_t>(bytes.begin(), bytes.end()));
    return std::make_pair(nlohmann::json::parse(file.metadata.at("attend.search")), default_options(*model));
  };
  const auto [named, named_options] = imported("beam-size: 4\nrelative-paths: true\n");
  EXPECT_EQ(named["beam_size"], 4);
  EXPECT_EQ(named_options.beam_size, 4);
  const auto [unnamed, unnamed_options] = imported("normalize: 0.6\n");
  EXPECT_EQ(unnamed, nlohmann::json::parse(
                         R"({"rules":"marian","beam_size":12,"length_penalty":0.6,"word_penalty":0,"max_length_ratio":3,"max_repeats":0})"));
  EXPECT_EQ(unnamed_options.beam_size, 12);
  const auto [bergamot, bergamot_options] = imported("");
  EXPECT_EQ(bergamot, nlohmann::json::parse(R"({"rules":"marian","length_penalty":1,"word_penalty":0,"max_length_ratio":2,"max_repeats":0})"));
  EXPECT_EQ(bergamot_options.beam_size, 1);
}

// ---- A multilingual OPUS-MT model's target-language tokens (">>fra<<") ----

// A multilingual model's vocab.yml as OPUS-MT's have them: the en-de pieces renumbered, and
// ">>fra<<", ">>deu<<", ">>spa<<" in place of three pieces none of `texts` is cut into.
struct Multilingual {
  std::vector<std::string> pieces;  // in id order
  int fra = -1, deu = -1, spa = -1;
};

Multilingual multilingual_pieces(const Tokenizer& spm, const std::vector<std::string>& texts) {
  Multilingual m;
  m.pieces = reversed_pieces(spm);
  std::vector<bool> used(static_cast<size_t>(spm.vocab_size()), false);
  for (const std::string& text : texts) {
    for (const int id : spm.encode(text)) used[static_cast<size_t>(id)] = true;
  }
  int* tokens[] = {&m.fra, &m.deu, &m.spa};
  const char* names[] = {">>fra<<", ">>deu<<", ">>spa<<"};
  int k = 0;
  for (int id = spm.vocab_size() - 1; id >= 0 && k < 3; --id) {  // SentencePiece's last ids: its rarest pieces
    if (used[static_cast<size_t>(id)] || id == spm.unk_id() || id == spm.eos_id() || id == spm.bos_id() || id == spm.pad_id()) continue;
    const int listed = spm.vocab_size() - 1 - id;
    m.pieces[static_cast<size_t>(listed)] = names[k];
    *tokens[k++] = listed;
  }
  return m;
}

const std::vector<std::string> kTokenTexts = {"the snow", ">>fra<< the snow", ">>fra<<the snow", ">>ita<< the snow",
                                              "the >>fra<< snow", "the snow 1234", ">>fra<< >>deu<< snow"};

TEST(OpusMtTargetToken, ALeadingTokenOfThePieceListIsReadAsItsOnePiece) {
  const Tokenizer spm = Tokenizer::from_bytes(test::en_de_vocabulary());
  const Multilingual m = multilingual_pieces(spm, kTokenTexts);
  const Tokenizer listed = Tokenizer::from_bytes(test::en_de_vocabulary(), PieceList::to_bytes(m.pieces));
  const Tokenizer without = Tokenizer::from_bytes(test::en_de_vocabulary(), PieceList::to_bytes(reversed_pieces(spm)));
  const std::vector<int> snow = listed.encode("the snow");
  EXPECT_EQ(snow, without.encode("the snow"));  // the three pieces given up are not the sentence's
  std::vector<int> expected = {m.fra};
  expected.insert(expected.end(), snow.begin(), snow.end());
  EXPECT_EQ(listed.target_token_length(">>fra<< the snow"), 7u);
  EXPECT_EQ(listed.encode(">>fra<< the snow"), expected);
  EXPECT_EQ(listed.encode(">>fra<<the snow"), expected);  // spm_encode puts ▁ before the first word either way
  const std::vector<TokenSpan> spans = listed.encode_with_offsets(">>fra<< the snow");
  ASSERT_EQ(spans.size(), expected.size());
  EXPECT_EQ(spans[0].begin, 0u);
  EXPECT_EQ(spans[0].end, 7u);
  const std::vector<TokenSpan> alone = listed.encode_with_offsets("the snow");
  for (size_t i = 1; i < spans.size(); ++i) {  // the rest's spans, after the token
    EXPECT_EQ(spans[i].begin, alone[i - 1].begin + 8) << i;
    EXPECT_EQ(spans[i].end, alone[i - 1].end + 8) << i;
  }
  // One token, first, and only a whole entry of the list: anything else is SentencePiece's pieces.
  const std::vector<int> two = listed.encode(">>fra<< >>deu<< snow");
  EXPECT_EQ(two[0], m.fra);
  EXPECT_EQ(std::count(two.begin(), two.end(), m.deu), 0);
  EXPECT_EQ(listed.target_token_length(">>ita<< the snow"), 0u);
  EXPECT_EQ(listed.encode(">>ita<< the snow"), without.encode(">>ita<< the snow"));
  EXPECT_EQ(listed.encode("the >>fra<< snow"), without.encode("the >>fra<< snow"));
  EXPECT_EQ(listed.target_token_length(">><< snow"), 0u);
  EXPECT_EQ(spm.target_token_length(">>fra<< the snow"), 0u);  // no piece list: SentencePiece's own ids
}

// A multilingual OPUS-MT model's files: a transformer .npz, source.spm and the vocab.yml of `pieces`
// (MarianFiles views the bytes kept here).
struct MultilingualFolder {
  std::string npz, yml;
  explicit MultilingualFolder(const std::vector<std::string>& pieces) : yml(vocab_yml_of(pieces)) {
    test::ModelSpec spec;
    spec.ssru = false;
    npz = npz_of(test::test_model(spec));
  }
  MarianFiles files() const {
    MarianFiles files;
    files.model = {"opus.npz", npz};
    files.source_vocab = {"source.spm", test::en_de_vocabulary()};
    files.source_pieces = {"opus.vocab.yml", yml};
    return files;
  }
};

std::shared_ptr<const Model> model_of(const MarianFiles& files) {
  const std::string bytes = import_marian(files);
  return Model::from_bytes(std::vector<uint8_t>(bytes.begin(), bytes.end()));
}

// A multilingual OPUS-MT model imported from a MultilingualFolder, and a translator of it.
class MultilingualModel : public ::testing::Test {
 protected:
  const Tokenizer spm = Tokenizer::from_bytes(test::en_de_vocabulary());
  const Multilingual m = multilingual_pieces(spm, kTokenTexts);
  const MultilingualFolder folder{m.pieces};
  MarianFiles files = folder.files();
  const std::shared_ptr<const Model> model = model_of(files);
  Translator translator{model};
};

TEST_F(MultilingualModel, TheOptionPutsItBeforeEachSentenceAndRefusesOneTheVocabularyLacks) {
  std::vector<int> expected = {m.fra};
  const std::vector<int> snow = translator.source_ids("the snow");  // eos included
  expected.insert(expected.end(), snow.begin(), snow.end());

  TranslateOptions options = default_options(*model);
  EXPECT_EQ(translator.translate("the snow", options).source_ids, snow);  // none unless asked
  EXPECT_EQ(translator.translate(">>fra<< the snow", options).source_ids, expected);  // the text's own
  options.target_token = ">>fra<<";
  const std::vector<Translation> both = translator.translate_batch({"the snow", ">>fra<< the snow"}, options, 2);
  EXPECT_EQ(both[0].source_ids, expected);
  EXPECT_EQ(both[0].source_pieces[0], ">>fra<<");
  EXPECT_EQ(both[1].source_ids, expected);  // read once
  EXPECT_EQ(both[0].hypotheses[0].ids, both[1].hypotheses[0].ids);
  options.target_token = "deu";  // the id, ">>deu<<"
  EXPECT_EQ(translator.translate("the snow", options).source_ids[0], m.deu);
  EXPECT_EQ(target_token_id(*model, ">>spa<<"), m.spa);

  // The spans that pass through are placed by the sentence's own pieces, the token set aside: as
  // where the text opens with the token (then one of the sentence's pieces), hypothesis by
  // hypothesis (the best one's maps captured, the other's computed).
  options.target_token = ">>fra<<";
  options.pass_through = PassThroughSpans::on;
  options.capture_attention = true;
  options.beam_size = options.nbest = 2;
  const Translation numbered = translator.translate("the snow 1234 near the house", options);
  options.target_token.clear();
  const Translation opened = translator.translate(">>fra<< the snow 1234 near the house", options);
  EXPECT_EQ(numbered.source_ids[0], m.fra);
  EXPECT_EQ(numbered.source_ids, opened.source_ids);
  ASSERT_EQ(numbered.hypotheses.size(), 2u);
  ASSERT_EQ(opened.hypotheses.size(), 2u);
  for (size_t h = 0; h < 2; ++h) {
    EXPECT_EQ(numbered.hypotheses[h].ids, opened.hypotheses[h].ids);
    EXPECT_NE(numbered.hypotheses[h].text.find("1234"), std::string::npos) << numbered.hypotheses[h].text;
    EXPECT_EQ(numbered.hypotheses[h].text, opened.hypotheses[h].text);
  }
  ASSERT_TRUE(numbered.attention);
  EXPECT_EQ(numbered.attention->src_len, static_cast<int>(numbered.source_ids.size()));  // the maps of what the model read

  const auto refused = [&](const Model& which, const std::string& token) {
    try {
      target_token_id(which, token);
    } catch (const Error& e) {
      EXPECT_EQ(e.code(), ErrorCode::invalid_argument);
      return std::string(e.what());
    }
    return std::string("accepted");
  };
  EXPECT_HAS(refused(*model, ">>ita<<"), "target token '>>ita<<': not a piece of the model's source vocabulary, which has 3 such tokens: ");
  EXPECT_HAS(refused(*model, ">>ita<<"), ">>fra<<");
  EXPECT_HAS(refused(*model, "the"), "target token '>>the<<'");
  options.target_token = ">>ita<<";
  EXPECT_THROW(translator.translate("the snow", options), Error);
  // A model without such tokens says so.
  const std::string without_tokens = vocab_yml_of(reversed_pieces(spm));
  files.source_pieces = {"opus.vocab.yml", without_tokens};
  EXPECT_HAS(refused(*model_of(files), ">>fra<<"), "target token '>>fra<<': the model's source vocabulary has no >>xxx<< tokens");
}

// A sentence of a multilingual model keeps one of the model's positions for the token read before
// it, so a document's sentence that fits without the token is cut in two as one too long is,
// rather than refused with the token (with its whole batch); a model without tokens keeps none.
TEST_F(MultilingualModel, ASentenceKeepsAPositionForTheToken) {
  const Tokenizer listed = Tokenizer::from_bytes(test::en_de_vocabulary(), PieceList::to_bytes(m.pieces));
  const auto length = [&](const std::string& text) { return static_cast<int>(listed.encode(text).size()) + 1; };  // eos
  const int positions = model->config().max_positions;
  std::string text = "the snow";
  while (length(text + ", the snow") <= positions) text += ", the snow";
  while (length(text + " snow") <= positions) text += " snow";
  ASSERT_EQ(length(text), positions);  // every position

  try {
    translator.source_ids(text);
    ADD_FAILURE() << "a sentence that leaves no position for the token was read";
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ErrorCode::invalid_input);
    EXPECT_HAS(std::string(e.what()), "this model takes at most " + std::to_string(positions - 1) + " and its target-language token");
  }
  TranslateOptions options = default_options(*model);
  options.target_token = ">>fra<<";
  options.max_length = 4;  // the length of what is read is under test, not of what is written
  const DocumentTranslation document = translate_document(translator, text, options);
  ASSERT_EQ(document.sentences.size(), 2u);  // cut in two, each read with its token
  for (const Translation& sentence : document.sentences) {
    EXPECT_EQ(sentence.source_ids.front(), m.fra);
    EXPECT_LE(static_cast<int>(sentence.source_ids.size()), positions);
  }

  const std::string without_tokens = vocab_yml_of(reversed_pieces(spm));
  files.source_pieces = {"opus.vocab.yml", without_tokens};
  EXPECT_EQ(static_cast<int>(Translator(model_of(files)).source_ids(text).size()), positions);
}

TEST(OpusMtTargetToken, AttentionMapsWithoutTheirFirstSourcePosition) {
  AttentionMaps maps;
  maps.decoder_layers = 1;
  maps.heads = 2;
  maps.tgt_len = 2;
  maps.src_len = 3;
  maps.source_pieces = {">>fra<<", "\xE2\x96\x81snow", "</s>"};
  maps.cross = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12};  // [head][tgt][src]
  const AttentionMaps out = without_first_source(maps);
  EXPECT_EQ(out.src_len, 2);
  EXPECT_EQ(out.source_pieces, (std::vector<std::string>{"\xE2\x96\x81snow", "</s>"}));
  EXPECT_EQ(out.cross, (std::vector<float>{2, 3, 5, 6, 8, 9, 11, 12}));
  maps.cross.pop_back();
  EXPECT_THROW(without_first_source(maps), Error);
}

// ---- The committed OPUS-MT fixture against spm_encode and PyYAML ----

std::string read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw std::runtime_error("cannot read " + path);
  return std::string((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
}

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

TEST(OpusMtFixture, SourceIdsAreSpmEncodePiecesMappedByTheVocabYml) {
  const std::string dir = std::string(ATTEND_SOURCE_DIR) + "/tests/marian/fixtures/opus-ende/";
  const std::string model_name = "opus.spm2k-spm2k.transformer-align.model1.npz.best-perplexity.npz";
  const std::string npz = read_file(dir + model_name), yml = read_file(dir + "opus.spm2k-spm2k.vocab.yml"),
                    source = read_file(dir + "source.spm"), target = read_file(dir + "target.spm");
  MarianFiles files;
  files.model = {model_name, npz};
  files.source_vocab = {"source.spm", source};
  files.target_vocab = {"target.spm", target};
  files.source_pieces = {"opus.spm2k-spm2k.vocab.yml", yml};
  const std::string bytes = import_marian(files);
  Translator translator(Model::from_bytes(std::vector<uint8_t>(bytes.begin(), bytes.end())));

  // test_2016_flickr and text whose characters the vocabulary lacks (their pieces are <unk>).
  std::string text;
  {
    const std::string gz = std::string(ATTEND_MULTI30K_DIR) + "/test_2016_flickr.en.gz";
    gzFile in = gzopen(gz.c_str(), "rb");
    ASSERT_NE(in, nullptr) << gz;
    char buffer[1 << 16];
    for (int n; (n = gzread(in, buffer, sizeof buffer)) > 0;) text.append(buffer, static_cast<size_t>(n));
    gzclose(in);
  }
  text += "A dog runs past the Café „Zur Post“ in Zürich ☃ 東京.\nΈνας σκύλος. 3 × 4 = 12 ½\n";
  const std::string work = testing::TempDir() + "/opus_ids";
  std::filesystem::create_directories(work);
  std::ofstream(work + "/lines.txt", std::ios::binary) << text;
  const std::string spm_command = "spm_encode --model='" + dir + "source.spm' --output_format=piece < '" + work +
                                  "/lines.txt' > '" + work + "/pieces.txt'";
  ASSERT_EQ(std::system(spm_command.c_str()), 0) << spm_command;
  // PyYAML reads the yml as HF's convert_marian_to_pytorch does (BaseLoader: every key a string).
  const std::string map_command = std::string(ATTEND_TEST_PYTHON) +
                                  " -c \"import sys, yaml\nv = yaml.load(open(sys.argv[1], encoding='utf-8'), Loader=yaml.BaseLoader)\n"
                                  "for line in open(sys.argv[2], encoding='utf-8'):\n"
                                  "    print(' '.join(v.get(p, v['<unk>']) for p in line.split()))\" '" +
                                  dir + "opus.spm2k-spm2k.vocab.yml' '" + work + "/pieces.txt' > '" + work + "/ids.txt'";
  ASSERT_EQ(std::system(map_command.c_str()), 0) << map_command;
  const std::vector<std::string> lines = lines_of(text), ids = lines_of(read_file(work + "/ids.txt"));
  ASSERT_EQ(lines.size(), 1002u);
  ASSERT_EQ(ids.size(), lines.size());
  int unknown = 0;
  for (size_t i = 0; i < lines.size(); ++i) {
    std::vector<int> expected;
    std::istringstream in(ids[i]);
    for (int id; in >> id;) expected.push_back(id);
    expected.push_back(0);  // </s>, the vocab.yml's 0
    std::vector<int> got = translator.source_ids(lines[i]);
    unknown += static_cast<int>(std::count(got.begin(), got.end(), 1));
    ASSERT_EQ(got, expected) << "line " << i + 1 << ": " << lines[i];
  }
  EXPECT_GT(unknown, 3);  // the last lines' characters the vocabulary lacks are <unk> (1)
}

}  // namespace
}  // namespace attend
