// Numbers with separators and currency signs written the translation's way (caption/numerals.h).
#include "caption/numerals.h"

#include <gtest/gtest.h>

namespace attend {
namespace {

constexpr Language en = Language::english, de = Language::german, fr = Language::french;

TEST(Numerals, SeparatorsTheTargetsWay) {
  // The German translation kept "Der Hund wiegt 3.5."
  EXPECT_EQ(numbers_in("3.5 kg", en, de), "3,5 kg");
  EXPECT_EQ(numbers_in("-5.25", en, fr), "-5,25");
  EXPECT_EQ(numbers_in("3,5 km", de, en), "3.5 km");
  EXPECT_EQ(numbers_in("3,5", fr, de), "3,5");
  EXPECT_EQ(numbers_in("1,000", en, de), "1.000");
  EXPECT_EQ(numbers_in("12,345,678.9", en, fr), "12\xe2\x80\xaf" "345\xe2\x80\xaf" "678,9");  // narrow no-break spaces
  EXPECT_EQ(numbers_in("1.000.000,50", de, en), "1,000,000.50");
  EXPECT_EQ(numbers_in("1.000", de, fr), "1\xe2\x80\xaf" "000");
  // Read the source's way: English "1.000" is one, with a fraction.
  EXPECT_EQ(numbers_in("1.000", en, de), "1,000");
  // Without separators a number stays as it is (a year).
  EXPECT_EQ(numbers_in("In 2024, 12345 people", en, de), "In 2024, 12345 people");
}

TEST(Numerals, CurrencySignsOnTheTargetsSide) {
  // An English translation kept "12,99 €".
  EXPECT_EQ(numbers_in("$12.99", en, de), "12,99 $");
  EXPECT_EQ(numbers_in("costs \xe2\x82\xac" "5.", en, fr), "costs 5 \xe2\x82\xac.");  // €5
  EXPECT_EQ(numbers_in("\xc2\xa3 1,250", en, de), "1.250 \xc2\xa3");  // £ before a space
  EXPECT_EQ(numbers_in("12,99 \xe2\x82\xac", de, en), "\xe2\x82\xac" "12.99");
  EXPECT_EQ(numbers_in("12,99\xe2\x82\xac!", fr, en), "\xe2\x82\xac" "12.99!");
  EXPECT_EQ(numbers_in("5 $", de, fr), "5 $");  // already on its side
  EXPECT_EQ(numbers_in("$5", en, en), "$5");
  EXPECT_EQ(numbers_in("US$5", en, de), "US$5");  // a sign that is a word's part stays
  EXPECT_EQ(numbers_in("12,99\xc2\xa0\xe2\x82\xac", fr, en), "\xe2\x82\xac" "12.99");  // after a no-break space
}

TEST(Numerals, PercentAndDegreesSetApartInGermanAndFrench) {
  // "sells 50% of its bread" kept "50%" in German and French.
  EXPECT_EQ(numbers_in("50%", en, de), "50 %");
  EXPECT_EQ(numbers_in("12.5%.", en, fr), "12,5 %.");
  EXPECT_EQ(numbers_in("50 %", de, en), "50%");
  EXPECT_EQ(numbers_in("3,5\xe2\x80\xaf%", fr, en), "3.5%");  // after a narrow no-break space
  EXPECT_EQ(numbers_in("50 %", fr, de), "50 %");
  EXPECT_EQ(numbers_in("25\xc2\xb0" "C", en, de), "25 \xc2\xb0" "C");  // 25°C
  EXPECT_EQ(numbers_in("-3\xc2\xb0" "F", en, fr), "-3 \xc2\xb0" "F");
  EXPECT_EQ(numbers_in("25 \xc2\xb0" "C", de, en), "25 \xc2\xb0" "C");  // English writes either
  EXPECT_EQ(numbers_in("25\xc2\xb0", en, de), "25\xc2\xb0");            // an angle
  EXPECT_EQ(numbers_in("1,5%", en, de), "1,5%");                          // no English number
  EXPECT_EQ(numbers_in("2024%20report", en, de), "2024%20report");        // a word's part
  EXPECT_EQ(numbers_in("50%-Anteil", de, fr), "50 %-Anteil");
}

TEST(Numerals, FrenchSpacesBetweenThousands) {
  // The "1" of "1 200 €" was no number, and an English translation read "1 €200".
  EXPECT_EQ(numbers_in("1 200 \xe2\x82\xac", fr, en), "\xe2\x82\xac" "1,200");
  EXPECT_EQ(numbers_in("2\xc2\xa0" "000 moutons", fr, de), "2.000 moutons");
  EXPECT_EQ(numbers_in("1 200", en, de), "1 200");  // English: two numbers
  EXPECT_EQ(numbers_in("3 1200", fr, en), "3 1200");
  const std::string_view text = "coûte 1 200 000 €, 3 chats, 12 1234";
  EXPECT_EQ(text.substr(0, french_thousands_end(text, text.find("1 ") + 1)), "coûte 1 200 000");
  EXPECT_EQ(french_thousands_end(text, text.find("3 ") + 1), text.find("3 ") + 1);
  EXPECT_EQ(french_thousands_end(text, text.find("12 ") + 2), text.find("12 ") + 2);  // four digits are no group
}

TEST(Numerals, OtherRunsOfDigitsStayAsWritten) {
  for (const char* text : {"10:30", "5-7", "1/2", "12/03/2024", "555-0199", "3.5.1", "192.168.0.1", "1,5", "1,00",
                           "12,3456", "1,000,00", "3.", "Nr. 7", "", "abc", "v2.0", "MP3.5"}) {
    EXPECT_EQ(numbers_in(text, en, de), text) << text;
  }
  // German "3.5" is a date's ("am 3.5."), "1,000" one with a fraction.
  EXPECT_EQ(numbers_in("am 3.5. um 10.30", de, en), "am 3.5. um 10.30");
  EXPECT_EQ(numbers_in("1,000", de, en), "1.000");
  // An unknown language, or none to change to.
  EXPECT_EQ(numbers_in("3.5", Language::unknown, de), "3.5");
  EXPECT_EQ(numbers_in("3.5", en, Language::unknown), "3.5");
}

}  // namespace
}  // namespace attend
