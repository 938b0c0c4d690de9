#include "caption/ordinals.h"

#include <gtest/gtest.h>

namespace attend {
namespace {

using Written = std::optional<std::string>;

TEST(Ordinals, WrittenEachLanguagesWay) {
  EXPECT_EQ(ordinal_in("1.", Language::english), Written("1st"));
  EXPECT_EQ(ordinal_in("1.", Language::french), Written("1er"));
  EXPECT_EQ(ordinal_in("3rd", Language::german), Written("3."));
  EXPECT_EQ(ordinal_in("3RD", Language::french), Written("3e"));
  EXPECT_EQ(ordinal_in("2e", Language::english), Written("2nd"));
  EXPECT_EQ(ordinal_in("2ème", Language::german), Written("2."));
  EXPECT_EQ(ordinal_in("1re", Language::english), Written("1st"));
  EXPECT_EQ(ordinal_in("1re", Language::french), Written("1re"));  // feminine, from the source
  EXPECT_EQ(ordinal_in("1st", Language::french), Written("1er"));
  EXPECT_EQ(ordinal_in("11.", Language::english), Written("11th"));
  EXPECT_EQ(ordinal_in("112.", Language::english), Written("112th"));
  EXPECT_EQ(ordinal_in("21.", Language::english), Written("21st"));
  EXPECT_EQ(ordinal_in("103.", Language::english), Written("103rd"));
}

TEST(Ordinals, NoOrdinalOrAnUnknownLanguage) {
  EXPECT_EQ(ordinal_in("1.", Language::unknown), std::nullopt);
  for (const char* word : {"1", "1000.", "0th", "1x", "st", "2e5", "3.5", "12:30", ""}) {
    EXPECT_EQ(ordinal_in(word, Language::english), std::nullopt) << word;
  }
}

TEST(Ordinals, TheEndingAfterANumbersDigits) {
  const auto ending = [](std::string_view text) { return ordinal_ending_length(text, text.find_first_not_of("0123456789")); };
  EXPECT_EQ(ending("1st, then"), 2u);
  EXPECT_EQ(ending("2ND"), 2u);
  EXPECT_EQ(ending("1er"), 2u);
  EXPECT_EQ(ending("3\xc3\xa8me"), 4u);  // 3ème
  EXPECT_EQ(ending("1\xc3\xa8re place"), 4u);  // 1ère: passed as written before
  EXPECT_EQ(ending("2e."), 1u);
  for (const char* text : {"1.", "6e7", "5 km", "3rdly", "4then", "12 dogs"}) EXPECT_EQ(ending(text), 0u) << text;
}

}  // namespace
}  // namespace attend
