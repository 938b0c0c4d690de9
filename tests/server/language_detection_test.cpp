// CLD2 behind detect_languages: real sentences found in their language, nothing for what it cannot read.
#include "detect/language_detection.h"

#include <gtest/gtest.h>

namespace attend::server {
namespace {

TEST(LanguageDetection, FindsTheLanguageOfASentence) {
  const auto german = detect_languages("Ein Mann mit einem orangefarbenen Hut starrt auf etwas.");
  ASSERT_FALSE(german.empty());
  EXPECT_EQ(german.front().language, "de");
  EXPECT_GT(german.front().confidence, 50);
  const auto english = detect_languages("Several people are walking down a busy street at night.");
  ASSERT_FALSE(english.empty());
  EXPECT_EQ(english.front().language, "en");
  const auto french = detect_languages("Un homme avec un chapeau orange regardant quelque chose.");
  ASSERT_FALSE(french.empty());
  EXPECT_EQ(french.front().language, "fr");
}

TEST(LanguageDetection, NamesNothingForTextWithoutLettersOrInvalidUtf8) {
  EXPECT_TRUE(detect_languages("").empty());
  EXPECT_TRUE(detect_languages("12:30 - 14:00").empty());
  EXPECT_TRUE(detect_languages("Ein Mann mit einem orangefarbenen Hut \xff\xfe starrt auf etwas.").empty());
}

TEST(LanguageDetection, NamesLanguagesInEnglish) {
  EXPECT_EQ(language_name("de"), "German");
  EXPECT_EQ(language_name("en"), "English");
  EXPECT_EQ(language_name("xx-unknown"), "xx-unknown");
}

}  // namespace
}  // namespace attend::server
