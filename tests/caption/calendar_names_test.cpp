#include "caption/calendar_names.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

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

TEST(CalendarNames, WrittenInEachLanguage) {
  EXPECT_EQ(calendar_name_in("Freitag", false, Language::english), "Friday");
  EXPECT_EQ(calendar_name_in("Freitag", false, Language::french), "vendredi");
  EXPECT_EQ(calendar_name_in("March", false, Language::german), "März");
  EXPECT_EQ(calendar_name_in("août", false, Language::german), "August");
  EXPECT_EQ(calendar_name_in("Lundi", true, Language::english), "Monday");
  EXPECT_EQ(calendar_name_in("Sonnabend", false, Language::english), "Saturday");
  EXPECT_EQ(calendar_name_in("Saturday", false, Language::german), "Samstag");  // the first listed
  EXPECT_EQ(calendar_name_in("December", false, Language::french), "décembre");
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

TEST(CalendarNames, DatesWrittenEachLanguagesWay) {
  using Written = std::optional<std::string>;
  EXPECT_EQ(date_in("25. Mai", Language::english), Written("May 25"));
  EXPECT_EQ(date_in("25. Mai", Language::french), Written("25 mai"));
  EXPECT_EQ(date_in("May 25th", Language::german), Written("25. Mai"));
  EXPECT_EQ(date_in("5th May", Language::german), Written("5. Mai"));
  EXPECT_EQ(date_in("May 1", Language::french), Written("1er mai"));
  EXPECT_EQ(date_in("1er mai", Language::english), Written("May 1"));
  EXPECT_EQ(date_in("14 juillet", Language::german), Written("14. Juli"));
  EXPECT_EQ(date_in("3 Juillet", Language::english), Written("July 3"));  // capitalised French
  EXPECT_EQ(date_in("3 Mars", Language::english), std::nullopt);          // "3 Mars bars"
  EXPECT_EQ(date_in("25. Mai 2024", Language::english), Written("May 25, 2024"));
  EXPECT_EQ(date_in("May 25, 2024", Language::german), Written("25. Mai 2024"));
  EXPECT_EQ(date_in("1er mai 2024", Language::german), Written("1. Mai 2024"));
  EXPECT_EQ(date_in("29 février", Language::english), Written("February 29"));
  for (const char* text : {"May", "32 May", "0 May", "May 123", "May 5x", "25. Juni 24", "25. Juni 2024 x", "Monday 5",
                           "25.Mai", "31. Februar", "31 April", "May 25.", "May, 2024", ""}) {
    EXPECT_EQ(date_in(text, Language::english), std::nullopt) << text;
  }
  EXPECT_EQ(date_in("25. Mai", Language::unknown), std::nullopt);
  EXPECT_TRUE(is_month_name("März"));
  EXPECT_TRUE(is_month_name("juillet"));
  EXPECT_FALSE(is_month_name("Monday"));
}

TEST(CalendarNames, AnyOtherWordOrAnUnknownLanguageStaysAsWritten) {
  EXPECT_EQ(calendar_name_in("Freitag", false, Language::unknown), "Freitag");
  EXPECT_EQ(calendar_name_in("Mars", true, Language::german), "Mars");
  EXPECT_EQ(calendar_name_in("Lundi", false, Language::english), "Lundi");  // not opening a French sentence
  EXPECT_EQ(calendar_name_in("Monday's", false, Language::german), "Monday's");
  EXPECT_EQ(calendar_name_in("Paris", false, Language::french), "Paris");
}

TEST(CalendarRanges, WrittenEachLanguagesWay) {
  using Written = std::optional<std::string>;
  EXPECT_EQ(calendar_range_in("Monday to Friday", Language::german), Written("Montag bis Freitag"));
  EXPECT_EQ(calendar_range_in("from Monday to Friday", Language::german), Written("von Montag bis Freitag"));
  EXPECT_EQ(calendar_range_in("Monday to Friday", Language::french), Written("du lundi au vendredi"));
  EXPECT_EQ(calendar_range_in("Von Montag bis Freitag", Language::english), Written("from Monday to Friday"));
  EXPECT_EQ(calendar_range_in("Montag-Samstag", Language::english), Written("Monday to Saturday"));
  EXPECT_EQ(calendar_range_in("du lundi au vendredi", Language::english), Written("from Monday to Friday"));
  EXPECT_EQ(calendar_range_in("March through May", Language::french), Written("de mars \xc3\xa0 mai"));  // à
  EXPECT_EQ(calendar_range_in("from April to June", Language::french), Written("d'avril \xc3\xa0 juin"));
  EXPECT_EQ(calendar_range_in("de mars \xc3\xa0 mai", Language::german), Written("von März bis Mai"));
  EXPECT_EQ(calendar_range_in("Mittwoch \xe2\x80\x93 Sonntag", Language::english), Written("Wednesday to Sunday"));  // en dash
  EXPECT_EQ(calendar_range_in("d'avril \xc3\xa0 juin", Language::english), Written("from April to June"));  // elided "de"
  EXPECT_EQ(calendar_range_in("Lundi au vendredi", Language::german), Written("Montag bis Freitag"));  // opening a sentence
}

TEST(CalendarRanges, NoRange) {
  for (const char* text : {"Monday and Friday", "Monday to March", "from Monday", "Monday to Monday", "to Friday",
                           "Monday to Friday night", "March-", "Mars to May", "du Lundi au vendredi", "monday to friday", ""}) {
    EXPECT_EQ(calendar_range_in(text, Language::english), std::nullopt) << text;
  }
  EXPECT_EQ(calendar_range_in("Monday to Friday", Language::unknown), std::nullopt);
}

TEST(WeeklyDays, WrittenTheLanguagesWay) {
  using Written = std::optional<std::string>;
  EXPECT_EQ(weekly_day_in("on Sundays", "closed", Language::german), Written("sonntags"));
  EXPECT_EQ(weekly_day_in("On Mondays", "", Language::french), Written("le lundi"));
  EXPECT_EQ(weekly_day_in("Sundays", "closed", Language::french), Written("le dimanche"));  // "closed Sundays"
  EXPECT_EQ(weekly_day_in("Sundays", "", Language::german), Written("sonntags"));  // "Sundays we rest."
  EXPECT_EQ(weekly_day_in("sonntags", "ist", Language::english), Written("on Sundays"));
  EXPECT_EQ(weekly_day_in("Montags", "", Language::french), Written("le lundi"));
  EXPECT_EQ(weekly_day_in("sonnabends", "", Language::english), Written("on Saturdays"));
  EXPECT_EQ(weekly_day_in("les mercredis", "ouvert", Language::german), Written("mittwochs"));
  EXPECT_EQ(weekly_day_in("on Saturdays", "", Language::german), Written("samstags"));
}

TEST(WeeklyDays, NoWeeklyDay) {
  for (const char* text : {"Sunday", "on Sunday", "in Sundays", "on sundays", "les Sundays", "on sonntags", "sonntag",
                           "les dimanche", "Marchs", "s", "on", "", "Sundays morning", "Mondays."}) {
    EXPECT_EQ(weekly_day_in(text, "", Language::german), std::nullopt) << text;
  }
  // A plural that is no habit ("two Sundays a month"), a German genitive ("eines Sonntags").
  EXPECT_EQ(weekly_day_in("Sundays", "two", Language::german), std::nullopt);
  EXPECT_EQ(weekly_day_in("Sonntags", "eines", Language::english), std::nullopt);
  EXPECT_EQ(weekly_day_in("on Sundays", "", Language::unknown), std::nullopt);
}

TEST(CalendarRanges, FoundInText) {
  const auto ranges = [](std::string_view text) {
    std::vector<std::string> found;
    for (const ByteRange& range : calendar_ranges(text)) found.emplace_back(slice(text, range));
    return found;
  };
  EXPECT_EQ(ranges("Our office is open Monday to Friday, 9 a.m. to 5 p.m."), (std::vector<std::string>{"Monday to Friday"}));
  EXPECT_EQ(ranges("Geöffnet (von Montag bis Freitag) und Samstag-Sonntag."),
            (std::vector<std::string>{"von Montag bis Freitag", "Samstag-Sonntag"}));
  EXPECT_EQ(ranges("Ouvert du lundi au vendredi."), (std::vector<std::string>{"du lundi au vendredi"}));
  EXPECT_EQ(ranges("From March to May we travel, but not from Monday."), (std::vector<std::string>{"From March to May"}));
  EXPECT_EQ(ranges("A man walks to Friday's market."), (std::vector<std::string>{}));
  EXPECT_EQ(ranges("The museum is closed on Sundays."), (std::vector<std::string>{"on Sundays"}));
  EXPECT_EQ(ranges("Sonntags ist der Laden zu, samstags nicht. Dienstags auch."),
            (std::vector<std::string>{"Sonntags", "samstags", "Dienstags"}));
  EXPECT_EQ(ranges("Er kam eines Sonntags, des 1. Sonntags im Mai."), (std::vector<std::string>{"im Mai"}));  // a noun's genitive
  EXPECT_EQ(ranges("Closed Sundays. We rest two Sundays a month."), (std::vector<std::string>{"Sundays"}));
  // A weekday or month with its preposition.
  EXPECT_EQ(ranges("On Friday we play, in March (im März) too, en mars; on a Friday, in Paris, in Marchs."),
            (std::vector<std::string>{"On Friday", "in March", "im März", "en mars"}));
  // Not a month that is a first name before a capitalised word.
  EXPECT_EQ(ranges("We sang in June Carter's style in June."), (std::vector<std::string>{"in June"}));
  EXPECT_EQ(ranges("We sang in June Carter's style."), (std::vector<std::string>{}));
  // A date with its preposition, with its year too; French "le" not after a preposition.
  EXPECT_EQ(ranges("Am 3. Oktober feiern wir, on May 25, 2024 too, et le 14 juillet depuis le 3 mai."),
            (std::vector<std::string>{"Am 3. Oktober", "on May 25, 2024"}));
  EXPECT_EQ(ranges("Le 14 juillet, des milliers de personnes regardent."), (std::vector<std::string>{"Le 14 juillet"}));
  // A range of dates, up to eight words.
  EXPECT_EQ(ranges("Closed from December 24, 2024 to January 2, 2025 and vom 24. Dezember bis zum 2. Januar."),
            (std::vector<std::string>{"from December 24, 2024 to January 2, 2025", "vom 24. Dezember bis zum 2. Januar"}));
  // Opening the sentence without a comma, the subject's article; after "c'est" too.
  EXPECT_EQ(ranges("Le 14 juillet est la f\xc3\xaate nationale. C'est le 14 juillet. On part le 3 mai."),
            (std::vector<std::string>{"le 3 mai"}));
}

TEST(CalendarNamesWithPreposition, WrittenTheLanguagesWay) {
  using Written = std::optional<std::string>;
  // Given the preposition, the models read it as one of a place ("Les enfants jouent sur vendredi un jeu.").
  EXPECT_EQ(calendar_name_with_preposition_in("on Friday", Language::german), Written("am Freitag"));
  EXPECT_EQ(calendar_name_with_preposition_in("On Friday", Language::french), Written("vendredi"));  // no "le"
  EXPECT_EQ(calendar_name_with_preposition_in("am Sonnabend", Language::english), Written("on Saturday"));
  EXPECT_EQ(calendar_name_with_preposition_in("in March", Language::german), Written("im März"));
  EXPECT_EQ(calendar_name_with_preposition_in("Im August", Language::french), Written("en août"));
  EXPECT_EQ(calendar_name_with_preposition_in("en d\xc3\xa9" "cembre", Language::english), Written("in December"));
  for (const char* text : {"on March", "in Friday", "am März", "im Montag", "en vendredi", "on Freitag", "im March",
                           "en March", "on friday", "at Friday", "in", "Friday", "", "in March 2024", "on  Friday"}) {
    EXPECT_EQ(calendar_name_with_preposition_in(text, Language::german), std::nullopt) << text;
  }
  EXPECT_EQ(calendar_name_with_preposition_in("on Friday", Language::unknown), std::nullopt);
}

TEST(DateRanges, WrittenTheLanguagesWay) {
  using Written = std::optional<std::string>;
  // "The shop is closed from December 24 to January 2." was en-de "… von 24. Dezember einem Geschäft aufgestellt 2. Januar."
  EXPECT_EQ(date_range_in("from December 24 to January 2", Language::german), Written("vom 24. Dezember bis zum 2. Januar"));
  EXPECT_EQ(date_range_in("December 24 to January 2", Language::german), Written("24. Dezember bis 2. Januar"));
  EXPECT_EQ(date_range_in("vom 24. Dezember bis zum 2. Januar", Language::english), Written("from December 24 to January 2"));
  EXPECT_EQ(date_range_in("24. Dezember bis 2. Januar", Language::french), Written("du 24 d\xc3\xa9" "cembre au 2 janvier"));
  EXPECT_EQ(date_range_in("du 1er mai au 3 mai 2025", Language::english), Written("from May 1 to May 3, 2025"));
  EXPECT_EQ(date_range_in("May 1 - May 3, 2025", Language::french), Written("du 1er mai au 3 mai 2025"));
  EXPECT_EQ(date_range_in("May 1 \xe2\x80\x93 June 3", Language::german), Written("1. Mai bis 3. Juni"));  // en dash
  for (const char* text : {"from May 1 to", "May 1 to 3", "from May to June", "May 1 and May 3", "to May 1 to May 3",
                           "from May 1 to May 32", "May 1 bis zum", "", "bis zum 3. Mai"}) {
    EXPECT_EQ(date_range_in(text, Language::german), std::nullopt) << text;
  }
  EXPECT_EQ(date_range_in("May 1 to May 3", Language::unknown), std::nullopt);
}

TEST(DatesWithPreposition, WrittenTheLanguagesWay) {
  using Written = std::optional<std::string>;
  // "Am 3. Oktober feiern viele …" was de-en "A October 3 crowd …", "Le 14 juillet, …" fr-en "The you July 14, …".
  EXPECT_EQ(date_with_preposition_in("Am 3. Oktober", "", Language::english), Written("on October 3"));
  EXPECT_EQ(date_with_preposition_in("Le 14 juillet", "", Language::english), Written("on July 14"));
  EXPECT_EQ(date_with_preposition_in("le 1er mai 2024", "est", Language::german), Written("am 1. Mai 2024"));
  EXPECT_EQ(date_with_preposition_in("on May 25, 2024", "", Language::french), Written("le 25 mai 2024"));
  EXPECT_EQ(date_with_preposition_in("on 7 June", "", Language::german), Written("am 7. Juni"));
  EXPECT_EQ(date_with_preposition_in("le 3 mai", "depuis", Language::english), std::nullopt);  // since May 3
  for (const char* text : {"on May", "in May 25", "am 31. Februar", "le 3", "on Friday", "May 25", "on  May 25", ""}) {
    EXPECT_EQ(date_with_preposition_in(text, "", Language::german), std::nullopt) << text;
  }
  EXPECT_EQ(date_with_preposition_in("am 3. Oktober", "", Language::unknown), std::nullopt);
}

}  // namespace
}  // namespace attend
