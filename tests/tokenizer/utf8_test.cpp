#include "tokenizer/utf8.h"

#include <gtest/gtest.h>

#include <string>

#include "attend/error.h"

namespace attend {
namespace {

using namespace std::string_literals;

TEST(Utf8, AcceptsWellFormedText) {
  EXPECT_EQ(find_invalid_utf8(""), std::nullopt);
  EXPECT_EQ(find_invalid_utf8("plain ASCII\t\n"), std::nullopt);
  EXPECT_EQ(find_invalid_utf8("a\0b"s), std::nullopt);
  EXPECT_EQ(find_invalid_utf8("Größe, café, €, 日本, 😀, 👩‍👩‍👧"), std::nullopt);
}

TEST(Utf8, AcceptsTheBoundariesOfEachRow) {
  for (const std::string& text : {
           "\x7F"s,                                    // U+007F
           "\xC2\x80"s, "\xDF\xBF"s,                   // U+0080, U+07FF
           "\xE0\xA0\x80"s, "\xEC\xBF\xBF"s,           // U+0800, U+CFFF
           "\xED\x80\x80"s, "\xED\x9F\xBF"s,           // U+D000, U+D7FF (below surrogates)
           "\xEE\x80\x80"s, "\xEF\xBF\xBF"s,           // U+E000, U+FFFF
           "\xF0\x90\x80\x80"s, "\xF3\xBF\xBF\xBF"s,   // U+10000, U+FFFFF
           "\xF4\x80\x80\x80"s, "\xF4\x8F\xBF\xBF"s}) {  // U+100000, U+10FFFF
    EXPECT_EQ(find_invalid_utf8(text), std::nullopt) << testing::PrintToString(text);
  }
}

struct InvalidCase {
  std::string text;
  std::size_t offset;
};

class Utf8Invalid : public testing::TestWithParam<InvalidCase> {};

TEST_P(Utf8Invalid, ReportsTheFirstBadSequence) {
  EXPECT_EQ(find_invalid_utf8(GetParam().text), GetParam().offset);
  try {
    require_valid_utf8(GetParam().text);
    FAIL() << "no error";
  } catch (const Error& error) {
    EXPECT_EQ(error.code(), ErrorCode::invalid_input);
    EXPECT_EQ(error.what(),
              "input is not valid UTF-8 at byte " + std::to_string(GetParam().offset));
  }
}

INSTANTIATE_TEST_SUITE_P(
    Table3_7, Utf8Invalid,
    testing::Values(
        InvalidCase{"\xFF"s, 0}, InvalidCase{"\xFE"s, 0}, InvalidCase{"\xF5\x80\x80\x80"s, 0},
        InvalidCase{"\x80"s, 0}, InvalidCase{"ab\xBF"s, 2},             // stray continuation
        InvalidCase{"\xC0\xAF"s, 0}, InvalidCase{"\xC1\xBF"s, 0},       // overlong 2-byte
        InvalidCase{"\xE0\x80\xAF"s, 0}, InvalidCase{"\xE0\x9F\xBF"s, 0},  // overlong 3-byte
        InvalidCase{"\xF0\x80\x80\xAF"s, 0}, InvalidCase{"\xF0\x8F\xBF\xBF"s, 0},  // overlong 4
        InvalidCase{"\xED\xA0\x80"s, 0}, InvalidCase{"\xED\xBF\xBF"s, 0},  // surrogates
        InvalidCase{"\xF4\x90\x80\x80"s, 0},                            // U+110000
        InvalidCase{"\xE2\x82"s, 0}, InvalidCase{"x\xE2\x82"s, 1},      // truncated at end
        InvalidCase{"\xE2\x82x"s, 0}, InvalidCase{"\xF0\x9F\x98"s, 0},  // truncated inside
        InvalidCase{"\xC3"s, 0}, InvalidCase{"\xC3\xC3\xA9"s, 0},
        InvalidCase{"caf\xC3\xA9 \xF0\x9F\x98\x80 \xE2\x82"s, 11}));    // after valid text

}  // namespace
}  // namespace attend
