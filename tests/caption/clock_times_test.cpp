#include "caption/clock_times.h"

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

TEST(ClockTimes, WithTheirPreposition) {
  // The models dropped it beside a time passed through them ("attend le bus 17 h").
  EXPECT_EQ(clock_time_in("at 5 p.m.", Language::german), Written("um 17 Uhr"));
  EXPECT_EQ(clock_time_in("At 5 p.m", Language::french), Written("\xc3\xa0 17 h"));  // à
  EXPECT_EQ(clock_time_in("um 20 Uhr", Language::english), Written("at 8 p.m."));
  EXPECT_EQ(clock_time_in("\xc3\x80 8 h 30", Language::german), Written("um 8:30 Uhr"));  // À
  EXPECT_EQ(clock_time_in("vers 8 h", Language::english), Written("around 8:00"));
  EXPECT_EQ(clock_time_in("gegen 22 Uhr", Language::french), Written("vers 22 h"));
  // After it an hour with minutes and a colon is a time too.
  EXPECT_EQ(clock_time_in("at 8:15", Language::german), Written("um 8:15 Uhr"));
  EXPECT_EQ(clock_time_in("um 20:15", Language::english), Written("at 8:15 p.m."));
  EXPECT_EQ(clock_time_in("around 8:15", Language::french), Written("vers 8 h 15"));
  for (const char* text : {"at 8", "at 8.15", "um 2.50", "at 8:5", "at 25:00", "at 8:60", "at  8:15", "at", "in 5 p.m.",
                           "from 5 p.m.", "at 8:15 x", "at 5 p.m. x"}) {
    EXPECT_EQ(clock_time_in(text, Language::english), std::nullopt) << text;
  }
}

TEST(ClockTimes, NoClockTimeOrAnUnknownLanguage) {
  EXPECT_EQ(clock_time_in("20 Uhr", Language::unknown), std::nullopt);
  for (const char* text : {"25 Uhr", "8.75 Uhr", "8.3 Uhr", "20 Uhren", "Uhr", "13 p.m.", "0 a.m.", "5 km", "8 h 3",
                           "8 h 30 x", "123 h", "24:30 Uhr", "5 p.x.", "5 p", "2024", ""}) {
    EXPECT_EQ(clock_time_in(text, Language::english), std::nullopt) << text;
  }
}

TEST(ClockRanges, TheStartTakesTheEndsClock) {
  // "von 10 bis 20 Uhr" was "from 10 to 8 p.m.": the 10 kept no clock.
  EXPECT_EQ(clock_range_in("von 10 bis 20 Uhr", Language::english), Written("from 10 a.m. to 8 p.m."));
  EXPECT_EQ(clock_range_in("von 10 bis 20 Uhr", Language::french), Written("de 10 h \xc3\xa0 20 h"));  // à
  EXPECT_EQ(clock_range_in("Von 9 Uhr bis 17.30 Uhr", Language::german), Written("von 9 bis 17:30 Uhr"));
  EXPECT_EQ(clock_range_in("zwischen 8 und 10 Uhr", Language::english), Written("between 8:00 and 10:00"));
  EXPECT_EQ(clock_range_in("von 22 bis 6 Uhr", Language::english), Written("from 10 p.m. to 6 a.m."));
  EXPECT_EQ(clock_range_in("14 bis 20 Uhr", Language::english), Written("2 to 8 p.m."));
  EXPECT_EQ(clock_range_in("5-6 Uhr", Language::english), Written("5:00-6:00"));
  EXPECT_EQ(clock_range_in("de 9 h 30 \xc3\xa0 18 h", Language::english), Written("from 9:30 a.m. to 6 p.m."));
  EXPECT_EQ(clock_range_in("entre 8 h et 10 h", Language::german), Written("zwischen 8 und 10 Uhr"));
  EXPECT_EQ(clock_range_in("de 12 \xc3\xa0 20 h", Language::english), Written("from 12 to 8 p.m."));
  EXPECT_EQ(clock_range_in("9 h \xc3\xa0 17 h", Language::german), Written("9 bis 17 Uhr"));
  EXPECT_EQ(clock_range_in("von 10:00-18:00 Uhr", Language::english), Written("from 10:00 a.m.-6:00 p.m."));
}

TEST(ClockRanges, ABareStartOnTheTwelveHourClock) {
  // On the end's half of the day when earlier than the end, else on the other.
  EXPECT_EQ(clock_range_in("from 9 to 5 p.m.", Language::german), Written("von 9 bis 17 Uhr"));
  EXPECT_EQ(clock_range_in("2 to 5 p.m", Language::german), Written("14 bis 17 Uhr"));
  EXPECT_EQ(clock_range_in("between 11 and 1 p.m.", Language::french), Written("entre 11 h et 13 h"));
  EXPECT_EQ(clock_range_in("between 11 p.m. and 12 a.m.", Language::german), Written("zwischen 23 und 0 Uhr"));
  EXPECT_EQ(clock_range_in("9-5pm", Language::english), Written("9 a.m.-5 p.m."));
  EXPECT_EQ(clock_range_in("from 9 a.m. to 5 p.m.", Language::english), Written("from 9 a.m. to 5 p.m."));
  EXPECT_EQ(clock_range_in("from 2 to 5 p.m.", Language::english), Written("from 2 to 5 p.m."));
  // After "at" a range is one from its start; "around" stays ("um 9 Uhr to 17 Uhr" was left of "at 9 a.m. to 5 p.m.").
  EXPECT_EQ(clock_range_in("at 9 a.m. to 5 p.m.", Language::german), Written("von 9 bis 17 Uhr"));
  EXPECT_EQ(clock_range_in("um 8 Uhr bis 9 Uhr", Language::english), Written("from 8:00 to 9:00"));
  EXPECT_EQ(clock_range_in("around 9 to 10 a.m.", Language::german), Written("gegen 9 bis 10 Uhr"));
}

TEST(FrenchDurations, HoursAfterAWordOfDuration) {
  // Read as clock times, "La visite dure de 2 à 3 h." became "… from 2:00 to 3:00".
  EXPECT_EQ(french_duration_in("3 h", "dure", Language::english), Written("3 hours"));
  EXPECT_EQ(french_duration_in("1h", "pendant", Language::german), Written("1 Stunde"));
  EXPECT_EQ(french_duration_in("1 h", "en", Language::english), Written("1 hour"));
  EXPECT_EQ(french_duration_in("de 2 \xc3\xa0 3 h", "dure", Language::english), Written("2 to 3 hours"));  // à
  EXPECT_EQ(french_duration_in("2-3 h", "environ", Language::german), Written("2 bis 3 Stunden"));
  EXPECT_EQ(french_duration_in("2 ou 3 h", "dur\xc3\xa9" "e", Language::english), Written("2 or 3 hours"));  // durée
  EXPECT_EQ(french_duration_in("48 h", "pendant", Language::french), Written("48 h"));
  // Other words before it make a clock time ("commence à 20 h", "depuis 8 h"), and so does a time with minutes.
  for (const char* before : {"\xc3\xa0", "depuis", "commence", "", "Dure"}) {
    EXPECT_EQ(french_duration_in("3 h", before, Language::english), std::nullopt) << before;
  }
  EXPECT_EQ(french_duration_in("De 2 \xc3\xa0 3 h", "dure", Language::english), Written("2 to 3 hours"));
  for (const char* text : {"3 h 30", "3h30", "3 \xc3\xa0 2 h", "3 heures", "h", "de 3 h", "2 \xc3\xa0 h", "3 h x", "",
                           "2 \xc3\xa0 ou 3 h"}) {
    EXPECT_EQ(french_duration_in(text, "dure", Language::english), std::nullopt) << text;
  }
  EXPECT_EQ(french_duration_in("3 h", "dure", Language::unknown), std::nullopt);
}

TEST(ClockRanges, NoRange) {
  for (const char* text : {"20 Uhr", "bis 20 Uhr", "von 10 bis 20", "von 10 und 20 Uhr", "zwischen 8 bis 10 Uhr",
                           "from 1 to 10 and at 5 p.m.", "13 to 5 p.m.", "0 to 5 p.m.", "von 25 bis 20 Uhr",
                           "vom 10 bis 20 Uhr", "10 bis 20 Uhr abends", "von  bis 20 Uhr", "von 20 bis 20 Uhr",
                           // Before 12 on the 12-hour clock a bare start is noon's or midnight's ("9-12am").
                           "9-12am", "10 to 12 a.m.", "between 11 and 12 p.m.",
                           // Without an opening word, "à", "et", "and", "und" take no bare start: French
                           // "le 12 à 20 h" is a day and a time.
                           "12 \xc3\xa0 20 h", "12 et 14 h", "8 and 10 a.m.", "8 und 10 Uhr", ""}) {
    EXPECT_EQ(clock_range_in(text, Language::english), std::nullopt) << text;
  }
  EXPECT_EQ(clock_range_in("von 10 bis 20 Uhr", Language::unknown), std::nullopt);
}

TEST(ClockRanges, WhereARangeBegins) {
  const auto begins = [](std::string_view text, std::string_view time) {
    const size_t at = text.find(time);
    const size_t begin = clock_phrase_begin(text, at, at + time.size());
    return begin == std::string_view::npos ? std::string("none") : std::string(text.substr(begin, at + time.size() - begin));
  };
  EXPECT_EQ(begins("Das Museum ist von 10 bis 20 Uhr offen.", "20 Uhr"), "von 10 bis 20 Uhr");
  EXPECT_EQ(begins("Offen (von 9.30 Uhr bis 17 Uhr).", "17 Uhr"), "von 9.30 Uhr bis 17 Uhr");
  EXPECT_EQ(begins("We open 9 to 5 p.m. daily.", "5 p.m."), "9 to 5 p.m.");
  EXPECT_EQ(begins("Ouvert entre 8 h 30 et 17 h 45.", "17 h 45"), "entre 8 h 30 et 17 h 45");
  EXPECT_EQ(begins("Call 5-6 Uhr.", "5-6 Uhr"), "5-6 Uhr");
  // A lone clock time begins at its preposition; the day before French "à" is no range's start.
  EXPECT_EQ(begins("He counted from 1 to 10 and left at 5 p.m.", "5 p.m."), "at 5 p.m.");
  EXPECT_EQ(begins("Treffen um 20 Uhr.", "20 Uhr"), "um 20 Uhr");
  EXPECT_EQ(begins("We meet at 8:15 today.", "8:15"), "at 8:15");
  EXPECT_EQ(begins("Wir zahlen um 2.50 Euro.", "2.50"), "none");
  EXPECT_EQ(begins("Le concert a lieu le 12 \xc3\xa0 20 h.", "20 h"), "\xc3\xa0 20 h");
}

}  // namespace
}  // namespace attend
