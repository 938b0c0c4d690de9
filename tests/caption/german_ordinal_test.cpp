#include "caption/german_ordinal.h"

#include <gtest/gtest.h>

#include <string>

namespace attend {
namespace {

// Whether the first dot after `number` in `text` ends a German ordinal.
bool ordinal_after(const std::string& text, const std::string& number) {
  return is_german_ordinal_dot(text, text.find(number + ".") + number.size());
}

TEST(GermanOrdinalDot, BeforeANounOrAdjectiveInGermanText) {
  EXPECT_TRUE(ordinal_after("Der 1. Platz geht an einen Jungen.", "1"));
  EXPECT_TRUE(ordinal_after("Am 25. Mai spielen zwei Kinder im Park.", "25"));
  EXPECT_TRUE(ordinal_after("Ein Mann im 3. Stock schaut aus dem Fenster.", "3"));
  EXPECT_TRUE(ordinal_after("Zum 100. Mal springt ein Hund.", "100"));
  EXPECT_TRUE(ordinal_after("Der 2.  Ärger ist größer.", "2"));  // a capital outside ASCII, two spaces
  // A German month or weekday says "date" where the sentence's language is not guessed.
  EXPECT_TRUE(ordinal_after("Treffen am 14. Juli um 20 Uhr.", "14"));
  EXPECT_TRUE(ordinal_after("Party am 3. März!", "3"));
  EXPECT_FALSE(ordinal_after("Treffen am 14. Plaza um 20 Uhr.", "14"));  // no function word: not German
  EXPECT_FALSE(ordinal_after("My son is 14. April is his sister.", "14"));  // April is English too
}

TEST(GermanOrdinalDot, NotAtASentenceEndOrOutsideGerman) {
  EXPECT_FALSE(ordinal_after("Das Kind ist 5. Es spielt im Garten.", "5"));        // a sentence opens
  EXPECT_FALSE(ordinal_after("Das Kind ist 5. Dann spielt es im Garten.", "5"));
  EXPECT_FALSE(ordinal_after("Mein Sohn ist 5. Meine Tochter ist 3.", "5"));
  EXPECT_FALSE(ordinal_after("Der Zug kommt um 8. Um 9 fährt er ab.", "8"));
  EXPECT_FALSE(ordinal_after("Er kam im Jahr 2020. Platz war genug.", "2020"));  // four digits: a year
  EXPECT_FALSE(ordinal_after("Der Zug kommt um 5. der Bus nicht.", "5"));        // lowercase: no capital
  EXPECT_FALSE(ordinal_after("Ein Hund ist 3.", "3"));                            // no word after it
  EXPECT_FALSE(ordinal_after("Ein Hund ist 3.5 Jahre alt.", "3"));
  EXPECT_FALSE(ordinal_after("The boy counted to 3. Then he ran.", "3"));         // English
  EXPECT_FALSE(ordinal_after("The boy won 1. Place was his.", "1"));
  EXPECT_FALSE(ordinal_after("Liste:\n1. Platz für den Hund.", "1"));             // a list marker
  EXPECT_FALSE(ordinal_after("1. Platz für den Hund.", "1"));
  EXPECT_FALSE(ordinal_after("Der Preis x1. Platz ist ein Hund.", "1"));         // part of a word
  EXPECT_FALSE(is_german_ordinal_dot("Der 1. Platz", 100));                       // out of the text
  EXPECT_FALSE(is_german_ordinal_dot("Der 1. Platz", 2));                         // no dot there
}

}  // namespace
}  // namespace attend
