// Lowercasing: expectations are what Python 3.11's str.lower() returns for the same strings.
#include "utf8_lower.h"

#include <gtest/gtest.h>

namespace attend::eval {
namespace {

TEST(Utf8Lower, GermanAndFrench) {
  EXPECT_EQ(utf8_lower("ÄÖÜ ẞ ß Straße"), "äöü ß ß straße");
  EXPECT_EQ(utf8_lower("ÉCOLE À ÇA ÊTRE Œuvre ŸVES Æ"), "école à ça être œuvre ÿves æ");
  EXPECT_EQ(utf8_lower("×÷"), "×÷");  // Latin-1 signs between the letters stay
}

TEST(Utf8Lower, LatinExtended) {
  EXPECT_EQ(utf8_lower("ŁÓDŹ ČEŠKÝ ŐŰ ĞŞ ȘȚ ǍǏ ỆẠ"), "łódź češký őű ğş șț ǎǐ ệạ");
  EXPECT_EQ(utf8_lower("İ"), "i\u0307");  // one code point becomes two, as in Python
  EXPECT_EQ(utf8_lower("ƠƯ ĐÔNG Ə Ǆ ǅ Ɛ"), "ơư đông ə ǆ ǆ ɛ");  // irregular Latin Extended-B
}

TEST(Utf8Lower, GreekWithFinalSigma) {
  EXPECT_EQ(utf8_lower("ΟΔΟΣ ΣΟΦΟΣ Σ ΆΈΉΊΌΎΏ"), "οδος σοφος σ άέήίόύώ");
  EXPECT_EQ(utf8_lower("ΟΔΟΣ."), "οδος.");
  EXPECT_EQ(utf8_lower("ΑΣ'Α"), "ασ'α");  // apostrophe is case-ignorable, a letter follows
}

TEST(Utf8Lower, Cyrillic) {
  EXPECT_EQ(utf8_lower("МОСКВА ЁЛКА ЇЖАК ЄІЎ Ӂ"), "москва ёлка їжак єіў ӂ");
}

TEST(Utf8Lower, LeavesOtherScriptsAlone) {
  EXPECT_EQ(utf8_lower("東京 123 !?"), "東京 123 !?");
}

}  // namespace
}  // namespace attend::eval
