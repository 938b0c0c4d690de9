#include "attention_json.h"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <sstream>
#include <stdexcept>

namespace attend::cli {
namespace {

// 1 encoder layer, 2 decoder layers, 2 heads, 3 source and 2 target tokens; each value
// encodes its own index so the nesting order can be checked.
AttentionMaps small_maps() {
  AttentionMaps maps;
  maps.encoder_layers = 1;
  maps.decoder_layers = 2;
  maps.heads = 2;
  maps.src_len = 3;
  maps.tgt_len = 2;
  maps.source_pieces = {"▁a", "\"b\\", "</s>"};
  maps.target_pieces = {"▁x", "</s>"};
  maps.target_input_pieces = {"<s>", "▁x"};
  auto fill = [](size_t n) {
    std::vector<float> values(n);
    for (size_t i = 0; i < n; ++i) values[i] = static_cast<float>(i) / 1000.f;
    return values;
  };
  maps.encoder = fill(1 * 2 * 3 * 3);
  maps.decoder = fill(2 * 2 * 2 * 2);
  maps.cross = fill(2 * 2 * 2 * 3);
  return maps;
}

nlohmann::json write_and_parse(const AttentionRecord& record) {
  std::ostringstream out;
  write_attention_json(out, record);
  std::string text = out.str();
  EXPECT_EQ(text.back(), '\n');
  EXPECT_EQ(text.find('\n'), text.size() - 1) << "one record is one line";
  return nlohmann::json::parse(text);
}

TEST(AttentionJson, WritesTheDocumentedSchema) {
  AttentionMaps maps = small_maps();
  AttentionRecord record;
  record.line = 7;
  record.source_text = "a \"b\\";
  record.target_text = "x";
  record.maps = &maps;
  nlohmann::json j = write_and_parse(record);
  EXPECT_EQ(j["format"], "attend-attention");
  EXPECT_EQ(j["version"], kAttentionJsonVersion);
  EXPECT_EQ(j["line"], 7);
  EXPECT_EQ(j["source_text"], "a \"b\\");
  EXPECT_EQ(j["target_text"], "x");
  EXPECT_EQ(j["source_tokens"], nlohmann::json(maps.source_pieces));
  EXPECT_EQ(j["target_tokens"], nlohmann::json(maps.target_pieces));
  EXPECT_EQ(j["target_input_tokens"], nlohmann::json(maps.target_input_pieces));
  EXPECT_EQ(j["encoder_layers"], 1);
  EXPECT_EQ(j["decoder_layers"], 2);
  EXPECT_EQ(j["heads"], 2);

  const auto& a = j["attention"];
  ASSERT_EQ(a["encoder"].size(), 1u);
  ASSERT_EQ(a["encoder"][0].size(), 2u);
  ASSERT_EQ(a["encoder"][0][1].size(), 3u);
  ASSERT_EQ(a["encoder"][0][1][2].size(), 3u);
  ASSERT_EQ(a["decoder"].size(), 2u);
  ASSERT_EQ(a["decoder"][1][1].size(), 2u);
  ASSERT_EQ(a["decoder"][1][1][1].size(), 2u);
  ASSERT_EQ(a["cross"].size(), 2u);
  ASSERT_EQ(a["cross"][1][0].size(), 2u);
  ASSERT_EQ(a["cross"][1][0][1].size(), 3u);
  // [layer][head][query][key] row-major: cross[1][0][1][2] is index ((1·2 + 0)·2 + 1)·3 + 2 = 17.
  EXPECT_FLOAT_EQ(a["cross"][1][0][1][2].get<float>(), 0.017f);
  EXPECT_FLOAT_EQ(a["encoder"][0][1][2][0].get<float>(), 0.015f);
  EXPECT_FLOAT_EQ(a["decoder"][1][1][1][1].get<float>(), 0.015f);
}

TEST(AttentionJson, AnEnsembleRecordHoldsEveryMembersMaps) {
  AttentionMaps narrow = small_maps(), wide = small_maps();
  wide.heads = 1;  // another shape: half the heads, so half the values
  wide.encoder.resize(wide.encoder.size() / 2);
  wide.decoder.resize(wide.decoder.size() / 2);
  wide.cross.resize(wide.cross.size() / 2);
  const std::vector<AttentionMaps> members{narrow, wide};
  AttentionRecord record;
  record.line = 1;
  record.maps = &members[1];
  record.members = &members;
  record.attention_member = 1;
  nlohmann::json j = write_and_parse(record);
  EXPECT_EQ(j["attention_member"], 2) << "counted from 1, as --attention-member";
  EXPECT_EQ(j["heads"], 1);
  ASSERT_EQ(j["members"].size(), 2u);
  EXPECT_EQ(j["members"][0]["heads"], 2);
  EXPECT_EQ(j["members"][0]["attention"]["cross"][1][0].size(), 2u);
  EXPECT_FLOAT_EQ(j["members"][0]["attention"]["cross"][1][0][1][2].get<float>(), 0.017f);
  EXPECT_EQ(j["members"][1]["attention"], j["attention"]);

  record.members = nullptr;  // one model: no members field
  EXPECT_FALSE(write_and_parse(record).contains("members"));
}

TEST(AttentionJson, KeepsSixSignificantDigits) {
  AttentionMaps maps = small_maps();
  maps.encoder[0] = 0.123456789f;
  maps.encoder[1] = 1.f;
  maps.encoder[2] = 1e-9f;
  AttentionRecord record;
  record.maps = &maps;
  std::ostringstream out;
  write_attention_json(out, record);
  EXPECT_NE(out.str().find("\"encoder\":[[[[0.123457,1,1e-09],"), std::string::npos);
}

TEST(AttentionJson, NonFiniteValuesBecomeNull) {
  AttentionMaps maps = small_maps();
  maps.cross[0] = std::numeric_limits<float>::quiet_NaN();
  AttentionRecord record;
  record.maps = &maps;
  EXPECT_TRUE(write_and_parse(record)["attention"]["cross"][0][0][0][0].is_null());
}

TEST(AttentionJson, LineWithoutTranslationHasEmptyArrays) {
  AttentionRecord record;
  record.line = 3;
  nlohmann::json j = write_and_parse(record);
  EXPECT_EQ(j["line"], 3);
  EXPECT_EQ(j["source_tokens"], nlohmann::json::array());
  EXPECT_EQ(j["heads"], 0);
  EXPECT_EQ(j["attention"]["encoder"], nlohmann::json::array());
  EXPECT_EQ(j["attention"]["decoder"], nlohmann::json::array());
  EXPECT_EQ(j["attention"]["cross"], nlohmann::json::array());
}

TEST(AttentionJson, InvalidUtf8IsReplacedNotFatal) {
  AttentionRecord record;
  record.source_text = "bad \xff byte";
  nlohmann::json j = write_and_parse(record);
  EXPECT_EQ(j["source_text"], "bad \xEF\xBF\xBD byte");
}

TEST(AttentionJson, RejectsMapsWhoseSizesDisagree) {
  AttentionMaps maps = small_maps();
  maps.cross.pop_back();
  AttentionRecord record;
  record.maps = &maps;
  std::ostringstream out;
  try {
    write_attention_json(out, record);
    FAIL();
  } catch (const std::logic_error& error) {
    EXPECT_STREQ(error.what(), "attention maps: cross holds 23 values, its dimensions need 24");
  }
}

}  // namespace
}  // namespace attend::cli
