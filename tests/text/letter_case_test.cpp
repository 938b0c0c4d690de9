// Letter case byte for byte (text/letter_case.h): capitals told apart, lowercased, capitalised.
#include <gtest/gtest.h>

#include <string>

#include "text/letter_case.h"

namespace attend {
namespace {

TEST(LetterCase, AllCapsIsTwoWordsInCapitalsAndNoLowercase) {
  for (const char* text : {"A dog runs in NYC.", "NEW", "A B C D", "", "Two DOGS play.", "北京 NYC", "ÉTÉ à PARIS"}) {
    EXPECT_FALSE(is_all_caps(text)) << text;
  }
  EXPECT_TRUE(is_all_caps("NEW YORK"));
  EXPECT_TRUE(is_all_caps("  ÉTÉ: ZWEI MÄNNER, 3 HUNDE × 2!"));
}

TEST(LetterCase, WithFirstCapital) {
  EXPECT_EQ(with_first_capital("à 17 h"), "À 17 h");
  EXPECT_EQ(with_first_capital("um 17 Uhr"), "Um 17 Uhr");
  EXPECT_EQ(with_first_capital("été"), "Été");
  for (const char* kept : {"ßx", "ÿ", "Um", "17 Uhr", "", "😀 a"}) EXPECT_EQ(with_first_capital(kept), kept) << kept;
}

TEST(LetterCase, ToLowercase) { EXPECT_EQ(to_lowercase("ÉTÉ à PARIS, Zürich × 2"), "été à paris, zürich × 2"); }

}  // namespace
}  // namespace attend
