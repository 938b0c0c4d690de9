// caption/function_words.h: the language of a sentence from its function words.
#include "caption/function_words.h"

#include <gtest/gtest.h>

namespace attend {
namespace {

TEST(FunctionWords, TheLanguageWithTheMost) {
  EXPECT_EQ(guess_language("Mrs. Brown reads a book."), Language::english);
  EXPECT_EQ(guess_language("It's the dog of the neighbours."), Language::english);
  EXPECT_EQ(guess_language("Eine Frau spricht mit Dr. Müller."), Language::german);
  EXPECT_EQ(guess_language("Un homme a un chien."), Language::french);  // "a" is English's, "un" twice French's
  EXPECT_EQ(guess_language("L'homme est dans la rue."), Language::french);
  EXPECT_EQ(guess_language("Mme Dupont lit un livre."), Language::french);
  // Capitalised words but the first are names: "Le Havre and La Rochelle" is English.
  EXPECT_EQ(guess_language("Mrs. Brown visits Le Havre and La Rochelle."), Language::english);
  EXPECT_EQ(guess_language("Le chien de Mrs. Brown."), Language::french);
  // Everyday German beyond captions: "Frau Müller" got no title for want of a German word.
  EXPECT_EQ(guess_language("Frau Müller wohnt seit 2010 in Berlin."), Language::german);
  EXPECT_EQ(guess_language("Heute regnet es, aber wir gehen."), Language::german);
  // Everyday French beyond captions: "a" (has) tied with English's article, and "2 h" was no time.
  EXPECT_EQ(guess_language("Il a couru pendant 2 h."), Language::french);
  EXPECT_EQ(guess_language("Nous avons vu cette maison."), Language::french);
  EXPECT_EQ(guess_language("My son paid par."), Language::unknown);  // "son" and "par" are English words too
}

TEST(FunctionWords, UnknownWithoutAnyOrOnATie) {
  EXPECT_EQ(guess_language("Mrs. Brown!"), Language::unknown);
  EXPECT_EQ(guess_language("Die Katze in des Hauses"), Language::unknown);  // shared words count for none
  EXPECT_EQ(guess_language("the und"), Language::unknown);
  EXPECT_EQ(guess_language(""), Language::unknown);
  EXPECT_EQ(guess_language("北京"), Language::unknown);
}

TEST(FunctionWords, TheOtherLanguageOfAVocabulary) {
  // An English-French vocabulary: every English and French function word, two German ones.
  const auto english_french = [](std::string_view word) {
    return guess_language(word) == Language::english || guess_language(word) == Language::french || word == "der" ||
           word == "und";
  };
  EXPECT_EQ(other_language(Language::english, english_french), Language::french);
  EXPECT_EQ(other_language(Language::french, english_french), Language::english);
  EXPECT_EQ(other_language(Language::german, english_french), Language::unknown);
  EXPECT_EQ(other_language(Language::unknown, english_french), Language::unknown);
}

}  // namespace
}  // namespace attend
