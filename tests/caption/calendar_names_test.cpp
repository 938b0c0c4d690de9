#include "caption/calendar_names.h"

#include <gtest/gtest.h>

namespace attend {
namespace {

TEST(CalendarNames, EnglishAndGermanCapitalisedFrenchInLowercase) {
  EXPECT_TRUE(is_calendar_name("March", false));
  EXPECT_TRUE(is_calendar_name("März", false));
  EXPECT_TRUE(is_calendar_name("Sonnabend", false));
  EXPECT_TRUE(is_calendar_name("mars", false));
  EXPECT_TRUE(is_calendar_name("décembre", false));
  EXPECT_FALSE(is_calendar_name("march", false));  // an English verb
  EXPECT_FALSE(is_calendar_name("Marchs", false));
  EXPECT_FALSE(is_calendar_name("", true));
}

TEST(CalendarNames, FrenchCapitalisedOnlyOpeningASentenceAndNeverMars) {
  EXPECT_FALSE(is_calendar_name("Lundi", false));
  EXPECT_TRUE(is_calendar_name("Lundi", true));
  EXPECT_TRUE(is_calendar_name("Février", true));  // a capital before a letter outside ASCII
  EXPECT_FALSE(is_calendar_name("Mars", true));    // the planet
  EXPECT_TRUE(is_calendar_name("Mai", false));      // German
}

TEST(CalendarNames, MonthsThatAreFirstNamesOnlyAfterAPrepositionOfTime) {
  EXPECT_TRUE(reads_as_calendar_name("June", "in"));
  EXPECT_TRUE(reads_as_calendar_name("August", "seit"));
  EXPECT_TRUE(reads_as_calendar_name("May", "of"));  // "the 5th of May"
  EXPECT_FALSE(reads_as_calendar_name("June", "met"));
  EXPECT_FALSE(reads_as_calendar_name("April", "with"));
  EXPECT_FALSE(reads_as_calendar_name("May", ""));
  EXPECT_TRUE(reads_as_calendar_name("March", "with"));  // no first name
  EXPECT_TRUE(reads_as_calendar_name("Freitag", ""));
}

}  // namespace
}  // namespace attend
