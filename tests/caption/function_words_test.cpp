// caption/function_words.h: the language of a sentence from its function words.
#include "caption/function_words.h"

#include <gtest/gtest.h>

namespace attend {
namespace {

TEST(FunctionWords, EachLanguagesOwnAndShared) {
  EXPECT_TRUE(is_function_word("the", Language::english));
  EXPECT_TRUE(is_function_word("die", Language::german));  // one shared with English ("to die"), listed as German's too
  EXPECT_TRUE(is_function_word("des", Language::french));
  EXPECT_TRUE(is_function_word("des", Language::german));
  EXPECT_FALSE(is_function_word("the", Language::german));
  EXPECT_FALSE(is_function_word("the", Language::unknown));
  EXPECT_TRUE(is_function_word_in_any_language("und"));
  EXPECT_FALSE(is_function_word_in_any_language("dog"));
}

TEST(FunctionWords, LanguagesOfCodes) {
  EXPECT_EQ(language_of_code("en"), Language::english);
  EXPECT_EQ(language_of_code("de"), Language::german);
  EXPECT_EQ(language_of_code("fr"), Language::french);
  EXPECT_EQ(language_of_code("es"), Language::unknown);  // no tables: no rules that need a language
  EXPECT_EQ(language_of_code(""), Language::unknown);
}

TEST(FunctionWords, TheOtherLanguageOfAVocabulary) {
  // An English-French vocabulary: every English and French function word, two German ones.
  const auto english_french = [](std::string_view word) {
    return is_function_word(word, Language::english) || is_function_word(word, Language::french) || word == "der" ||
           word == "und";
  };
  EXPECT_EQ(other_language(Language::english, english_french), Language::french);
  EXPECT_EQ(other_language(Language::french, english_french), Language::english);
  EXPECT_EQ(other_language(Language::german, english_french), Language::unknown);
  EXPECT_EQ(other_language(Language::unknown, english_french), Language::unknown);
}

}  // namespace
}  // namespace attend
