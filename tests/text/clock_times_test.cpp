#include "text/clock_times.h"

#include <gtest/gtest.h>

namespace attend {
namespace {

using Written = std::optional<std::string>;

TEST(ClockTimes, GermanFrenchAndEnglishWrittenEachWay) {
  EXPECT_EQ(clock_time_in("20 Uhr", Language::english), Written("8 p.m."));
  EXPECT_EQ(clock_time_in("20 Uhr", Language::french), Written("20 h"));
  EXPECT_EQ(clock_time_in("8.30 Uhr", Language::english), Written("8:30"));  // "8.30 Uhr abends" too
  EXPECT_EQ(clock_time_in("8 Uhr", Language::english), Written("8:00"));
  EXPECT_EQ(clock_time_in("8:05 Uhr", Language::french), Written("8 h 05"));
  EXPECT_EQ(clock_time_in("8 h 30", Language::english), Written("8:30"));
  EXPECT_EQ(clock_time_in("14h30", Language::german), Written("14:30 Uhr"));
  EXPECT_EQ(clock_time_in("9h", Language::german), Written("9 Uhr"));
  EXPECT_EQ(clock_time_in("5 p.m.", Language::german), Written("17 Uhr"));
  EXPECT_EQ(clock_time_in("5 p.m", Language::french), Written("17 h"));  // its last dot lent to the sentence
  EXPECT_EQ(clock_time_in("10:45PM", Language::german), Written("22:45 Uhr"));
  EXPECT_EQ(clock_time_in("7 am", Language::french), Written("7 h"));
  EXPECT_EQ(clock_time_in("9 a.m.", Language::english), Written("9 a.m."));  // its half of the day kept
  EXPECT_EQ(clock_time_in("12 a.m.", Language::english), Written("12 a.m."));
}

TEST(ClockTimes, MidnightAndNoon) {
  EXPECT_EQ(clock_time_in("12 a.m.", Language::german), Written("0 Uhr"));
  EXPECT_EQ(clock_time_in("12 p.m.", Language::french), Written("12 h"));
  EXPECT_EQ(clock_time_in("0 Uhr", Language::english), Written("0:00"));
  EXPECT_EQ(clock_time_in("12 Uhr", Language::english), Written("12:00"));
  EXPECT_EQ(clock_time_in("13.05 Uhr", Language::english), Written("1:05 p.m."));
  EXPECT_EQ(clock_time_in("24 Uhr", Language::english), Written("24:00"));
}

TEST(ClockTimes, NoClockTimeOrAnUnknownLanguage) {
  EXPECT_EQ(clock_time_in("20 Uhr", Language::unknown), std::nullopt);
  for (const char* text : {"25 Uhr", "8.75 Uhr", "8.3 Uhr", "20 Uhren", "Uhr", "13 p.m.", "0 a.m.", "5 km", "8 h 3",
                           "8 h 30 x", "123 h", "24:30 Uhr", "5 p.x.", "5 p", "2024", ""}) {
    EXPECT_EQ(clock_time_in(text, Language::english), std::nullopt) << text;
  }
}

}  // namespace
}  // namespace attend
