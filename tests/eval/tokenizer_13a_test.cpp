// 13a tokenization, each expectation traced through the rules of tokenizer_13a.cpp.
#include "tokenizer_13a.h"

#include <gtest/gtest.h>

#include "attend/error.h"

namespace attend::eval {
namespace {

TEST(Tokenizer13a, SplitsPunctuationButNotApostrophe) {
  EXPECT_EQ(tokenize_13a(std::string("Hello, world!")), "Hello , world !");
  EXPECT_EQ(tokenize_13a(std::string("don't")), "don't");
  EXPECT_EQ(tokenize_13a(std::string("(a) [b] {c} $5 50% a/b")),
            "( a ) [ b ] { c } $ 5 50 % a / b");
}

TEST(Tokenizer13a, KeepsPeriodAndCommaInsideNumbers) {
  // "3.5": '.' has a digit on both sides, so neither rule b nor rule c fires.
  EXPECT_EQ(tokenize_13a(std::string("It costs 3.5 dollars.")), "It costs 3.5 dollars .");
  EXPECT_EQ(tokenize_13a(std::string("1,000 people")), "1,000 people");
  EXPECT_EQ(tokenize_13a(std::string("3.5.")), "3.5 .");
  // Rule b: (space)(.) matches, so a leading ".5" is split as the regex dictates.
  EXPECT_EQ(tokenize_13a(std::string("costs .5")), "costs . 5");
  // Rule b consumes "d." so ',' is only split by rule c: "end . ,".
  EXPECT_EQ(tokenize_13a(std::string("end.,")), "end . ,");
}

TEST(Tokenizer13a, SplitsDashOnlyAfterDigit) {
  EXPECT_EQ(tokenize_13a(std::string("a-b 3-4 x-3")), "a-b 3 - 4 x-3");
}

TEST(Tokenizer13a, UnescapesAndJoins) {
  EXPECT_EQ(tokenize_13a(std::string("&quot;Hi&quot; &amp; bye &lt;3 &gt;")),
            "\" Hi \" & bye < 3 >");
  // "&amp;quot;" holds no "&quot;"; after &amp; it is "&quot;", not unescaped again; then
  // rule a splits both & and ; (U+003B is in the range :-@).
  EXPECT_EQ(tokenize_13a(std::string("&amp;quot;")), "& quot ;");
  EXPECT_EQ(tokenize_13a(std::string("<skipped>word line-\nbreak a\nb")), "word linebreak a b");
}

TEST(Tokenizer13a, HandlesUtf8AndEmpty) {
  EXPECT_EQ(tokenize_13a(std::string("Größe: 3,5 m.")), "Größe : 3,5 m .");
  EXPECT_EQ(tokenize_13a(std::string("« C'est très-bien », dit-il à l'École.")),
            "« C'est très-bien » , dit-il à l'École .");
  EXPECT_EQ(tokenize_13a(std::string("")), "");
  EXPECT_EQ(tokenize_13a(std::string(" \t\u3000 ")), "");
}

TEST(Tokenizer13a, RejectsInvalidUtf8) {
  EXPECT_THROW(tokenize_13a(std::string("a\xC3")), Error);        // truncated
  EXPECT_THROW(tokenize_13a(std::string("\xC0\xAF")), Error);     // overlong '/'
  EXPECT_THROW(tokenize_13a(std::string("\xED\xA0\x80")), Error); // surrogate
}

}  // namespace
}  // namespace attend::eval
