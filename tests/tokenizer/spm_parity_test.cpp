// Parity with Debian's SentencePiece tools: for every line of a text file our encode()
// must give the ids `spm_encode --output_format=id` prints, and our decode() of those ids
// the text `spm_decode --input_format=id` prints. The tools run once per file.
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <iostream>
#include <sstream>
#include <string>
#include <tuple>
#include <vector>

#include "test_files.h"
#include "tokenizer/tokenizer.h"

namespace attend {
namespace {

const char* const kModels[] = {"joint_unigram", "fr_bpe", "bytes_bpe"};

void run(const std::string& command) {
  ASSERT_EQ(std::system(command.c_str()), 0) << command;
}

std::vector<int> parse_ids(const std::string& line) {
  std::vector<int> ids;
  std::istringstream in(line);
  for (int id; in >> id;) ids.push_back(id);
  return ids;
}

// Compares every line of `text_path`; fails at the first mismatch, naming its line.
void expect_spm_parity(const std::string& model_name, const std::string& text_path,
                       const std::string& out_name) {
  const std::string model = test::model_path(model_name);
  const std::string out_dir = test::vocab_dir() + "/parity";
  std::filesystem::create_directories(out_dir);
  const std::string ids_path = out_dir + "/" + out_name + ".ids";
  const std::string decoded_path = out_dir + "/" + out_name + ".decoded";
  ASSERT_NO_FATAL_FAILURE(run("spm_encode --model='" + model + "' --output_format=id < '" + text_path + "' > '" +
      ids_path + "'"));
  ASSERT_NO_FATAL_FAILURE(run("spm_decode --model='" + model + "' --input_format=id < '" + ids_path + "' > '" +
      decoded_path + "'"));

  const Tokenizer tokenizer = Tokenizer::from_bytes(test::read_file(model));
  const std::vector<std::string> lines = test::read_lines(text_path);
  const std::vector<std::string> spm_ids = test::read_lines(ids_path);
  const std::vector<std::string> spm_decoded = test::read_lines(decoded_path);
  ASSERT_FALSE(lines.empty()) << text_path;
  ASSERT_EQ(spm_ids.size(), lines.size()) << ids_path;
  ASSERT_EQ(spm_decoded.size(), lines.size()) << decoded_path;
  for (std::size_t i = 0; i < lines.size(); ++i) {
    const std::vector<int> ids = tokenizer.encode(lines[i]);
    ASSERT_EQ(ids, parse_ids(spm_ids[i]))
        << text_path << " line " << i + 1 << ": encode differs from spm_encode\n  text: "
        << lines[i];
    ASSERT_EQ(tokenizer.decode(ids), spm_decoded[i])
        << text_path << " line " << i + 1 << ": decode differs from spm_decode";
  }
  testing::Test::RecordProperty("lines_compared", static_cast<int>(lines.size()));
  std::cout << "[ parity   ] " << model_name << " on " << text_path << ": " << lines.size()
            << " lines identical\n";
}

using CorpusCase = std::tuple<const char*, const char*, const char*>;  // model, split, lang

class Multi30kParity : public testing::TestWithParam<CorpusCase> {};

TEST_P(Multi30kParity, EveryLineMatchesSpmEncodeAndDecode) {
  const auto& [model, split, lang] = GetParam();
  expect_spm_parity(model, test::vocab_dir() + "/text/" + split + "." + lang,
                    std::string(model) + "." + split + "." + lang);
}

INSTANTIATE_TEST_SUITE_P(
    AllFiles, Multi30kParity,
    testing::Combine(testing::ValuesIn(kModels),
                     testing::Values("train", "val", "test_2016_flickr"),
                     testing::Values("en", "de", "fr")),
    [](const testing::TestParamInfo<CorpusCase>& info) {
      return std::string(std::get<0>(info.param)) + "_" + std::get<1>(info.param) + "_" +
             std::get<2>(info.param);
    });

std::string repeat_to_length(const std::string& unit, std::size_t length) {
  std::string text;
  while (text.size() < length) text += unit;
  return text;
}

std::vector<std::string> hard_strings() {
  using namespace std::string_literals;
  return {
      "",
      " ",
      "   \t  \t ",
      "  leading and trailing spaces  ",
      "several    inner     spaces",
      "I ❤️ 🐶 and 👍🏽 and 👩‍👩‍👧‍👦 and 🏳️‍🌈 and 🇩🇪🇫🇷",
      "cafe\u0301 vs café, n\u0303, a\u0308\u0304, Z\u0335\u0321\u0334a\u0336lgo",
      "Ｆｕｌｌ－ｗｉｄｔｈ　Ｌａｔｉｎ　１２３！",
      "مرحبا بالعالم، هذا اختبار.",
      "שָׁלוֹם עוֹלָם",
      "mixed \u200fעברית\u200e and العربية in one line",
      "NFKC: ﬁ ﬀ ① ² ℌ Ⅻ ㎏ ﾊﾝｶｸ Å ™ ½ ‥ \u00a0nbsp",
      "日本語のテキストと中文文本",
      "नमस्ते दुनिया, สวัสดีชาวโลก",
      "zero\u200bwidth\u200djoiner\ufeffbom\u2060",
      "controls a\x01b\x7f and a NUL a\0b"s,
      "noncharacters \uFFFD \uFFFF \U0010FFFF and private use \uE000",
      repeat_to_length("Ein Mann fährt auf einem Fahrrad. ", 100000),
      repeat_to_length("a", 100000),
      repeat_to_length("😀", 100000),
  };
}

class HardStringParity : public testing::TestWithParam<const char*> {};

TEST_P(HardStringParity, MatchesSpmEncodeAndDecode) {
  const std::string path = test::vocab_dir() + "/hard_strings." + GetParam() + ".txt";
  test::write_lines(path, hard_strings());
  expect_spm_parity(GetParam(), path, std::string(GetParam()) + ".hard_strings");
}

INSTANTIATE_TEST_SUITE_P(AllModels, HardStringParity, testing::ValuesIn(kModels),
                         [](const testing::TestParamInfo<const char*>& info) {
                           return std::string(info.param);
                         });

}  // namespace
}  // namespace attend
