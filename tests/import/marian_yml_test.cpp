// MarianYml on the YAML Marian's emitter writes (flat `key: value`, block and flow lists, quoted
// strings) and on the rest of YAML, refused by name and line rather than guessed at.
#include "import/marian_yml.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "attend/error.h"
#include "expect_has.h"

namespace attend {
namespace {

// The message of the error reading `text` throws.
std::string refusal(const std::string& text) {
  try {
    MarianYml yml(text, "model.bin");
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ErrorCode::invalid_model);
    EXPECT_EQ(std::string(e.what()).rfind("model.bin: model.yml line ", 0), 0u) << e.what();
    return e.what();
  }
  ADD_FAILURE() << "read: " << text;
  return "";
}

TEST(MarianYml, ReadsWhatMarianWrites) {
  const MarianYml yml(
      "bert-class-symbol: \"[CLS]\"\n"
      "dim-emb: 512\n"
      "dim-vocabs:\n"
      "  - 32000\n"
      "  - 31000\n"
      "input-types:\n"
      "  []\n"
      "tied-embeddings-all: true\n"
      "transformer-preprocess: \"\"\n"
      "transformer-postprocess: dan\n"
      "version: v1.10.25; 4f8dda4 2021-11-02 14:51:08 +0000\n",
      "model.bin");
  EXPECT_EQ(yml.text("bert-class-symbol", ""), "[CLS]");
  EXPECT_EQ(yml.integer("dim-emb", 0), 512);
  EXPECT_EQ(yml.integers("dim-vocabs"), (std::vector<int>{32000, 31000}));
  EXPECT_EQ(yml.integers("input-types"), std::vector<int>{});
  EXPECT_TRUE(yml.flag("tied-embeddings-all", false));
  EXPECT_TRUE(yml.has("transformer-preprocess"));
  EXPECT_EQ(yml.text("transformer-preprocess", "x"), "");
  EXPECT_EQ(yml.text("transformer-postprocess", ""), "dan");
  EXPECT_EQ(yml.text("version", ""), "v1.10.25; 4f8dda4 2021-11-02 14:51:08 +0000");
  EXPECT_FALSE(yml.has("dec-depth"));
  EXPECT_EQ(yml.integer("dec-depth", 6), 6);
  EXPECT_FALSE(yml.flag("right-left", false));
  EXPECT_EQ(yml.integers("transformer-tied-layers"), std::vector<int>{});
}

TEST(MarianYml, FlowListsQuotesCommentsAndLineEndings) {
  const MarianYml yml(
      "# written by hand\r\n"
      "dim-vocabs: [32000, 32000]  # source, target\r\n"
      "empty: []\n"
      "single: 'it''s'\n"
      "double: \"a\\\"b\\\\c\\u00e9\\x41\"\n"
      "plain: a#b # comment\n"
      "quoted-list: [\"a, b\", 'c']\n"
      "null-value:\n"
      "yes-flag: Yes\n"
      "off-flag: off\n"
      "negative: -3\n",
      "model.bin");
  EXPECT_EQ(yml.integers("dim-vocabs"), (std::vector<int>{32000, 32000}));
  EXPECT_EQ(yml.integers("empty"), std::vector<int>{});
  EXPECT_EQ(yml.text("single", ""), "it's");
  EXPECT_EQ(yml.text("double", ""), "a\"b\\c\xc3\xa9" "A");
  EXPECT_EQ(yml.text("plain", ""), "a#b");
  EXPECT_EQ(yml.text("null-value", "x"), "");
  EXPECT_TRUE(yml.flag("yes-flag", false));
  EXPECT_FALSE(yml.flag("off-flag", true));
  EXPECT_EQ(yml.integer("negative", 0), -3);
}

TEST(MarianYml, WrongValuesAreRefusedByKey) {
  const MarianYml yml("dim-emb: 5x\nlist: [1, x]\nflag: perhaps\nscalar: 3\nblock:\n  - 1\n", "model.bin");
  const auto message = [&](auto read) {
    try {
      read();
    } catch (const Error& e) {
      return std::string(e.what());
    }
    return std::string("read");
  };
  EXPECT_EQ(message([&] { yml.integer("dim-emb", 0); }), "model.bin: model.yml 'dim-emb' is '5x', not an integer");
  EXPECT_EQ(message([&] { yml.integers("list"); }), "model.bin: model.yml 'list' holds 'x', not an integer");
  EXPECT_EQ(message([&] { yml.flag("flag", false); }), "model.bin: model.yml 'flag' is 'perhaps', not true or false");
  EXPECT_EQ(message([&] { yml.integers("scalar"); }), "model.bin: model.yml 'scalar' is '3', not a list");
  EXPECT_EQ(message([&] { yml.integer("block", 0); }), "model.bin: model.yml 'block' is a list, not one value");
}

TEST(MarianYml, TheRestOfYamlIsRefusedByNameAndLine) {
  EXPECT_HAS(refusal("a: 1\nb: &anchor 2\n"), "line 2: an anchor");
  EXPECT_HAS(refusal("a: *anchor\n"), "line 1: an alias");
  EXPECT_HAS(refusal("a: !!str 1\n"), "a tag");
  EXPECT_HAS(refusal("a: |\n  text\n"), "a block scalar");
  EXPECT_HAS(refusal("a: >\n  text\n"), "a block scalar");
  EXPECT_HAS(refusal("a: {b: 1}\n"), "a flow map");
  EXPECT_HAS(refusal("a:\n  b: 1\n"), "line 2: a nested map");
  EXPECT_HAS(refusal("a: b: c\n"), "a nested map");
  EXPECT_HAS(refusal("a:\n  - - 1\n"), "a nested list");
  EXPECT_HAS(refusal("a: [[1], 2]\n"), "a nested list or map");
  EXPECT_HAS(refusal("a: [1, 2\n"), "a flow list without its closing ]");
  EXPECT_HAS(refusal("a: \"open\n"), "a quoted string without its closing quote");
  EXPECT_HAS(refusal("a: \"\\q\"\n"), "the escape \\q");
  EXPECT_HAS(refusal("a: \"\\uD800\"\n"), "not a Unicode scalar value");
  EXPECT_HAS(refusal("a: 1\na: 2\n"), "line 2: the key 'a' a second time");
  EXPECT_HAS(refusal("---\na: 1\n"), "a document marker");
  EXPECT_HAS(refusal("just text\n"), "a line that is not `key: value`");
  EXPECT_HAS(refusal("\"a\": 1\n"), "the key '\"a\"'");
  EXPECT_HAS(refusal("a:1\n"), "the key 'a' without a space after its colon");
  EXPECT_HAS(refusal("  - 1\n"), "an indented line that belongs to no list");
  EXPECT_HAS(refusal("a:\n  []\n  - 1\n"), "an indented line that belongs to no list");
  EXPECT_HAS(refusal("a: 1 2 ]\nb: \"x\" y\n"), "line 2: 'y' after a value");
  EXPECT_HAS(refusal("? a\n"), "a line that is not `key: value`");
}

}  // namespace
}  // namespace attend
