#include "option_parser.h"

#include <gtest/gtest.h>

#include <climits>
#include <string>
#include <vector>

#include "usage_error.h"

namespace attend::cli {
namespace {

struct Fixture {
  int beam = 1;
  float alpha = 0.6f;
  std::string model;
  bool json = false;
  std::vector<std::string> heads, texts;
  OptionParser parser{"attend test", "[options] [TEXT ...]"};

  Fixture() {
    parser.add_int("--beam", "N", "beam size", &beam, 1, 64);
    parser.add_float("--alpha", "A", "length penalty", &alpha, 0.f, 10.f);
    parser.add_string("--model", "FILE", "model", &model);
    parser.add_flag("--json", "json output", &json);
    parser.add_list("--mask-head", "SPEC", "head", &heads);
    parser.add_positionals("TEXT", "texts", &texts, 0, 3);
  }
};

// The UsageError message of parsing args, or "" if it parsed.
std::string error_of(const std::vector<std::string>& args) {
  Fixture f;
  try {
    f.parser.parse(args);
  } catch (const UsageError& error) {
    return error.what();
  }
  return "";
}

TEST(OptionParser, FillsTargetsFromBothSpellings) {
  Fixture f;
  ASSERT_TRUE(f.parser.parse({"--beam", "4", "--alpha=1.5", "--model", "m.st", "--json", "hello",
                              "--mask-head", "cross:0:1", "--mask-head=encoder:1:0", "world"}));
  EXPECT_EQ(f.beam, 4);
  EXPECT_FLOAT_EQ(f.alpha, 1.5f);
  EXPECT_EQ(f.model, "m.st");
  EXPECT_TRUE(f.json);
  EXPECT_EQ(f.heads, (std::vector<std::string>{"cross:0:1", "encoder:1:0"}));
  EXPECT_EQ(f.texts, (std::vector<std::string>{"hello", "world"}));
  EXPECT_TRUE(f.parser.given("--beam"));
  EXPECT_FALSE(Fixture().parser.given("--beam"));
}

TEST(OptionParser, KeepsDefaultsWhenAbsent) {
  Fixture f;
  ASSERT_TRUE(f.parser.parse({}));
  EXPECT_EQ(f.beam, 1);
  EXPECT_FLOAT_EQ(f.alpha, 0.6f);
  EXPECT_FALSE(f.json);
  EXPECT_TRUE(f.texts.empty());
}

TEST(OptionParser, HelpStopsParsing) {
  Fixture f;
  EXPECT_FALSE(f.parser.parse({"--beam", "2", "--help", "--nonsense"}));
  std::string help = f.parser.help();
  EXPECT_NE(help.find("usage: attend test [options] [TEXT ...]"), std::string::npos);
  EXPECT_NE(help.find("--beam N"), std::string::npos);
  EXPECT_NE(help.find("(default 1)"), std::string::npos);
  EXPECT_NE(help.find("(default 0.6)"), std::string::npos);
  EXPECT_NE(help.find("(repeatable)"), std::string::npos);
}

TEST(OptionParser, DoubleDashEndsOptionsAndDashIsPositional) {
  Fixture f;
  ASSERT_TRUE(f.parser.parse({"-", "--", "--beam"}));
  EXPECT_EQ(f.texts, (std::vector<std::string>{"-", "--beam"}));
  EXPECT_EQ(f.beam, 1);
}

TEST(OptionParser, NamesUnknownOptions) {
  EXPECT_EQ(error_of({"--bem", "3"}),
            "unknown option '--bem' for 'attend test' (see 'attend test --help')");
  EXPECT_EQ(error_of({"--bem=3"}),
            "unknown option '--bem' for 'attend test' (see 'attend test --help')");
}

TEST(OptionParser, NamesMissingValues) {
  EXPECT_EQ(error_of({"--beam"}), "--beam needs a value N (see 'attend test --help')");
  EXPECT_EQ(error_of({"--model="}), "--model expects a non-empty value (see 'attend test --help')");
  EXPECT_EQ(error_of({"--json=yes"}), "--json takes no value (see 'attend test --help')");
}

TEST(OptionParser, RejectsNonNumbers) {
  EXPECT_EQ(error_of({"--beam", "four"}),
            "--beam expects an integer, got 'four' (see 'attend test --help')");
  EXPECT_EQ(error_of({"--beam", "4x"}),
            "--beam expects an integer, got '4x' (see 'attend test --help')");
  EXPECT_EQ(error_of({"--beam", " 4"}),
            "--beam expects an integer, got ' 4' (see 'attend test --help')");
  EXPECT_EQ(error_of({"--beam", "2.5"}),
            "--beam expects an integer, got '2.5' (see 'attend test --help')");
  EXPECT_EQ(error_of({"--beam", "99999999999999999999"}),
            "--beam expects an integer, got '99999999999999999999' (see 'attend test --help')");
  EXPECT_EQ(error_of({"--alpha", "nan"}),
            "--alpha expects a number, got 'nan' (see 'attend test --help')");
  EXPECT_EQ(error_of({"--alpha", "inf"}),
            "--alpha expects a number, got 'inf' (see 'attend test --help')");
  EXPECT_EQ(error_of({"--alpha", ""}),
            "--alpha expects a number, got '' (see 'attend test --help')");
}

TEST(OptionParser, RejectsOutOfRange) {
  EXPECT_EQ(error_of({"--beam", "0"}),
            "--beam must be at least 1, got 0 (see 'attend test --help')");
  EXPECT_EQ(error_of({"--beam", "-3"}),
            "--beam must be at least 1, got -3 (see 'attend test --help')");
  EXPECT_EQ(error_of({"--beam", "65"}),
            "--beam must be at most 64, got 65 (see 'attend test --help')");
  EXPECT_EQ(error_of({"--alpha", "-0.5"}),
            "--alpha must be at least 0, got -0.5 (see 'attend test --help')");
  EXPECT_EQ(error_of({"--alpha", "1e3"}),
            "--alpha must be at most 10, got 1e3 (see 'attend test --help')");
}

TEST(OptionParser, AcceptsRangeEdges) {
  Fixture f;
  ASSERT_TRUE(f.parser.parse({"--beam", "64", "--alpha", "0"}));
  EXPECT_EQ(f.beam, 64);
  EXPECT_EQ(f.alpha, 0.f);
}

TEST(OptionParser, ChecksRequiredAndPositionalCounts) {
  {
    Fixture f;
    f.parser.require("--model");
    EXPECT_THROW(f.parser.parse({"text"}), UsageError);
  }
  EXPECT_EQ(error_of({"a", "b", "c", "d"}), "unexpected argument 'd' (see 'attend test --help')");

  std::vector<std::string> paths;
  OptionParser one("attend one", "MODEL");
  one.add_positionals("MODEL", "model file", &paths, 1, 1);
  try {
    one.parse({});
    FAIL() << "no MODEL accepted";
  } catch (const UsageError& error) {
    EXPECT_STREQ(error.what(), "missing MODEL (see 'attend one --help')");
  }

  OptionParser none("attend none", "");
  try {
    none.parse({"stray"});
    FAIL() << "a stray argument accepted";
  } catch (const UsageError& error) {
    EXPECT_STREQ(error.what(), "unexpected argument 'stray' (see 'attend none --help')");
  }
}

TEST(OptionParser, MissingRequiredOptionIsNamed) {
  Fixture f;
  f.parser.require("--model");
  try {
    f.parser.parse({});
    FAIL();
  } catch (const UsageError& error) {
    EXPECT_STREQ(error.what(), "missing required option --model (see 'attend test --help')");
  }
  EXPECT_NE(f.parser.help().find("(required)"), std::string::npos);
}

}  // namespace
}  // namespace attend::cli
