#include "caption/titles.h"

#include <gtest/gtest.h>

namespace attend {
namespace {

using Written = std::optional<std::string>;

TEST(Titles, EachLanguagesTitleForTheSamePerson) {
  EXPECT_EQ(title_in("Frau", Language::german, Language::english), Written("Ms."));
  EXPECT_EQ(title_in("Frau", Language::german, Language::french), Written("Mme"));
  EXPECT_EQ(title_in("Herrn", Language::german, Language::english), Written("Mr."));
  EXPECT_EQ(title_in("Mr", Language::english, Language::german), Written("Herr"));
  EXPECT_EQ(title_in("Mr.", Language::english, Language::french), Written("M."));
  EXPECT_EQ(title_in("Mrs.", Language::english, Language::french), Written("Mme"));
  EXPECT_EQ(title_in("Miss", Language::english, Language::french), Written("Mlle"));
  EXPECT_EQ(title_in("Miss", Language::english, Language::german), Written("Frau"));
  EXPECT_EQ(title_in("M.", Language::french, Language::english), Written("Mr."));
  EXPECT_EQ(title_in("Madame", Language::french, Language::english), Written("Mrs."));
  EXPECT_EQ(title_in("Mademoiselle", Language::french, Language::english), Written("Miss"));
  EXPECT_EQ(title_in("MM.", Language::french, Language::german), Written("Herren"));
}

TEST(Titles, GermanHerrnAfterAPreposition) {
  EXPECT_EQ(title_in("Mr.", Language::english, Language::german, "mit"), Written("Herrn"));
  EXPECT_EQ(title_in("M.", Language::french, Language::german, "für"), Written("Herrn"));
  EXPECT_EQ(title_in("Mr.", Language::english, Language::german, "sieht"), Written("Herr"));
  EXPECT_EQ(title_in("Mrs.", Language::english, Language::german, "mit"), Written("Frau"));
  EXPECT_EQ(title_in("Mr.", Language::english, Language::french, "avec"), Written("M."));
}

TEST(Titles, OnlyTheSourceLanguagesTitles) {
  EXPECT_EQ(title_in("Mr.", Language::german, Language::english), std::nullopt);  // "Mr. Bean" in German text
  EXPECT_EQ(title_in("M.", Language::english, Language::german), std::nullopt);   // an initial in English
  EXPECT_EQ(title_in("Frau", Language::english, Language::french), std::nullopt);
  EXPECT_EQ(title_in("Dr.", Language::english, Language::german), std::nullopt);  // written alike
  EXPECT_EQ(title_in("Frau", Language::german, Language::unknown), std::nullopt);
  EXPECT_EQ(title_in("Frau", Language::german, Language::german), std::nullopt);
  EXPECT_EQ(title_in("frau", Language::german, Language::english), std::nullopt);
}

TEST(Titles, EveryTitleBeforeACapitalisedWord) {
  EXPECT_EQ(titles_in("Frau Dr. Müller", Language::german, Language::english), "Ms. Dr. Müller");
  EXPECT_EQ(titles_in("Mr. Smith and Mrs. Brown", Language::english, Language::french), "M. Smith and Mme Brown");
  EXPECT_EQ(titles_in("Mr. Smith", Language::english, Language::german, "mit"), "Herrn Smith");
  EXPECT_EQ(titles_in("Jean M. Dupont", Language::french, Language::english), "Jean M. Dupont");  // an initial
  EXPECT_EQ(titles_in("Dupont, Mme Martin", Language::french, Language::german), "Dupont, Frau Martin");
  EXPECT_EQ(titles_in("Frau", Language::german, Language::english), "Frau");           // no name after it
  EXPECT_EQ(titles_in("Miss out", Language::english, Language::german), "Miss out");  // nor a capital
  EXPECT_EQ(titles_in("", Language::english, Language::german), "");
}

TEST(Titles, TheLanguageATitleIsOf) {
  EXPECT_EQ(language_of_title("Mrs."), Language::english);
  EXPECT_EQ(language_of_title("Herrn"), Language::german);
  EXPECT_EQ(language_of_title("M."), Language::french);
  EXPECT_EQ(language_of_title("Dr."), Language::unknown);
  EXPECT_EQ(language_of_title("Smith"), Language::unknown);
}

}  // namespace
}  // namespace attend
