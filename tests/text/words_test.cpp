// Words between spaces, the apostrophes inside them and the text's end (text/words.h).
#include <gtest/gtest.h>

#include <string>
#include <string_view>
#include <vector>

#include "text/words.h"

namespace attend {
namespace {

std::vector<std::string> words_of(std::string_view text) {
  std::vector<std::string> words;
  for (const ByteRange word : words_between_spaces(text)) words.emplace_back(text.substr(word.begin, word.end - word.begin));
  return words;
}

TEST(Words, CutAtAsciiAndNoBreakSpaces) {
  EXPECT_EQ(words_of("  A dog\truns.\n"), (std::vector<std::string>{"A", "dog", "runs."}));
  EXPECT_EQ(words_of("Où\u00A0? «\u202Fici\u202F»"), (std::vector<std::string>{"Où", "?", "«", "ici", "»"}));
  EXPECT_TRUE(words_of("").empty());
  EXPECT_TRUE(words_of(" \u00A0 ").empty());
}

TEST(Words, OtherCharactersAreNoSpace) {
  EXPECT_EQ(words_of("北京\u3000東京"), (std::vector<std::string>{"北京\u3000東京"}));  // the ideographic space stays
  EXPECT_EQ(space_at("\u00A9", 0), 0u);                                                // ©: 0xC2 0xA9, not 0xC2 0xA0
}

TEST(Words, TheTextEndsWithSpacesAndClosingQuotesOrBrackets) {
  EXPECT_TRUE(ends_text("at 5 p.m.", 9));
  EXPECT_TRUE(ends_text("come at 5 p.m.\" ) \u201D\u00BB\u00A0\n", 14));
  EXPECT_FALSE(ends_text("the U.S. team", 8));
  EXPECT_FALSE(ends_text("the U.S.) team", 8));
  EXPECT_FALSE(ends_text("at 5 p.m. \u00AB", 9));  // an opening guillemet
}

TEST(Words, ApostrophesArePlainOrTypographic) {
  const std::string_view text = "I'm Ann\u2019s `friend";
  EXPECT_EQ(apostrophe_at(text, 1), 1u);
  EXPECT_EQ(apostrophe_at(text, 7), 3u);
  EXPECT_EQ(apostrophe_at(text, 12), 0u);  // a backtick
  EXPECT_EQ(apostrophe_at(text, 0), 0u);
}

}  // namespace
}  // namespace attend
