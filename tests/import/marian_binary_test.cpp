// read_marian_binary on files laid out as Marian's saveItems lays them out (src/common/binary.cpp,
// docs/marian.md §7): the items come back with their names, types, shapes and bytes; a file cut
// anywhere, and each inconsistent field, is refused with one line naming the file and the field.
#include "import/marian_binary.h"

#include <gtest/gtest.h>

#include <cstring>
#include <string>
#include <vector>

#include "attend/error.h"
#include "marian_test_file.h"

namespace attend {
namespace {

using test::floats;
using test::Item;
using test::marian_file;

const std::string kYml = "type: transformer\ndim-emb: 256\ndec-cell: ssru\n";

std::vector<Item> a_model() {
  return {{"Wemb", 0x0404, {2, 3}, floats({1, 2, 3, 4, 5, 6})},
          {"decoder_l1_rnn_W", 0x4101, {3, 2}, std::string("\x01\x7f\x81\x00\x05\x06", 6) + floats({0.5f})},
          {"special:model.yml", 0x0101, {static_cast<int32_t>(kYml.size() + 1)}, kYml + '\0'}};
}

// The message of the invalid_model error reading `bytes` throws.
std::string refusal(const std::string& bytes) {
  try {
    read_marian_binary(bytes, "model.ende.bin");
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ErrorCode::invalid_model) << e.what();
    EXPECT_EQ(std::string(e.what()).rfind("model.ende.bin: ", 0), 0u) << e.what();
    return e.what();
  }
  ADD_FAILURE() << "a damaged file was read";
  return "";
}

TEST(MarianBinary, ItemsComeBackWithTheirNamesTypesShapesAndBytes) {
  const std::string file = marian_file(a_model());
  size_t data = 0;
  for (const Item& item : a_model()) data += item.data.size();
  EXPECT_EQ((file.size() - data) % 256, 0u) << "the data starts on a 256-byte boundary";
  const std::vector<MarianItem> items = read_marian_binary(file, "model.ende.bin");
  ASSERT_EQ(items.size(), 3u);
  EXPECT_EQ(items[0].name, "Wemb");
  EXPECT_EQ(items[0].type, MarianType::float32);
  EXPECT_EQ(items[0].shape, (std::vector<int64_t>{2, 3}));
  EXPECT_EQ(items[0].bytes, floats({1, 2, 3, 4, 5, 6}));
  EXPECT_EQ(items[1].type, MarianType::intgemm8);
  EXPECT_EQ(marian_type_name(items[1].type), "intgemm8");
  ASSERT_EQ(items[1].bytes.size(), 10u);  // six int8 and the multiplier
  float multiplier = 0;
  std::memcpy(&multiplier, items[1].bytes.data() + 6, sizeof multiplier);
  EXPECT_EQ(multiplier, 0.5f);
  EXPECT_EQ(marian_model_yml(items), kYml);
  EXPECT_EQ(marian_model_yml({items[0]}), "");
}

TEST(MarianBinary, AFileCutAnywhereIsRefused) {
  const std::string file = marian_file(a_model());
  for (size_t length = 0; length < file.size(); ++length) {
    try {
      read_marian_binary(std::string_view(file).substr(0, length), "model.ende.bin");
      ADD_FAILURE() << "read " << length << " of " << file.size() << " bytes";
    } catch (const Error& e) {
      ASSERT_EQ(e.code(), ErrorCode::invalid_model) << length;
    }
  }
  EXPECT_NE(refusal(file.substr(0, 20)).find("item count"), std::string::npos);
  EXPECT_NE(refusal(file.substr(0, file.size() - 1)).find("\"special:model.yml\"'s data"), std::string::npos);
}

TEST(MarianBinary, EachInconsistentFieldIsRefusedByName) {
  EXPECT_NE(refusal(marian_file(a_model(), 2)).find("version 2"), std::string::npos);
  EXPECT_NE(refusal(marian_file({})).find("item count of 0"), std::string::npos);
  std::vector<Item> items = a_model();
  items[0].type = 0x0999;
  EXPECT_NE(refusal(marian_file(items)).find("\"Wemb\" has an unknown type 2457"), std::string::npos);
  items = a_model();
  items[0].shape = {2, 0, 3};
  EXPECT_NE(refusal(marian_file(items)).find("\"Wemb\" has a dim of 0"), std::string::npos);
  items[0].shape = {};
  EXPECT_NE(refusal(marian_file(items)).find("\"Wemb\" has rank 0"), std::string::npos);
  items[0].shape = std::vector<int32_t>(9, 1);
  EXPECT_NE(refusal(marian_file(items)).find("rank 9"), std::string::npos);
  items = a_model();
  items[0].shape = {2, 4};  // 8 floats in 6 floats' bytes
  EXPECT_NE(refusal(marian_file(items)).find("\"Wemb\" (float32) has 24 bytes of data, its shape needs 32"), std::string::npos);
  items = a_model();
  items[1].data.resize(6);  // no multiplier after the int8 values
  EXPECT_NE(refusal(marian_file(items)).find("(intgemm8) has 6 bytes of data, its shape needs 10"), std::string::npos);
  items = a_model();
  items[1].name = "Wemb";
  EXPECT_NE(refusal(marian_file(items)).find("two items named \"Wemb\""), std::string::npos);
  items = a_model();
  items[0].name = std::string("We\0mb", 5);
  EXPECT_NE(refusal(marian_file(items)).find("item 0's name is not one NUL-terminated string"), std::string::npos);
  items = a_model();
  items[0].shape = {65536, 65536, 65536};  // more elements than a file could hold, without overflow
  EXPECT_NE(refusal(marian_file(items)).find("more elements than the file has bytes"), std::string::npos);
}

}  // namespace
}  // namespace attend
