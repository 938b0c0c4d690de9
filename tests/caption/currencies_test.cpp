#include "caption/currencies.h"

#include <gtest/gtest.h>

namespace attend {
namespace {

using Written = std::optional<std::string>;

TEST(Currencies, AmountsWrittenEachLanguagesWay) {
  // de-en read "Der Eintritt kostet 12 Euro" as "The kicker is making a bite 12".
  EXPECT_EQ(amount_in("12 Euro", Language::english), Written("12 euros"));
  EXPECT_EQ(amount_in("12 Euro", Language::french), Written("12 euros"));
  EXPECT_EQ(amount_in("6 euros", Language::german), Written("6 Euro"));
  EXPECT_EQ(amount_in("1 Euro", Language::english), Written("1 euro"));
  EXPECT_EQ(amount_in("2,50 Euro", Language::french), Written("2,50 euros"));
  EXPECT_EQ(amount_in("25 dollars", Language::german), Written("25 Dollar"));
  EXPECT_EQ(amount_in("3 Pfund", Language::french), Written("3 livres"));
  EXPECT_EQ(amount_in("50 centimes", Language::english), Written("50 cents"));
  EXPECT_EQ(amount_in("10 Franken", Language::french), Written("10 francs"));
  EXPECT_EQ(amount_in("1 Dollars", Language::french), Written("1 dollar"));
  EXPECT_EQ(amount_in("20Euro", Language::english), Written("20 euros"));
}

TEST(Currencies, NoAmount) {
  for (const char* text : {"12 Europa", "Euro", "12", "3 livres", "12 euros.", "12  euros", "12 EURO", "x 12 Euro", ""}) {
    EXPECT_EQ(amount_in(text, Language::english), std::nullopt) << text;
  }
  EXPECT_EQ(amount_in("12 Euro", Language::unknown), std::nullopt);
}

TEST(Currencies, TheNameAfterANumber) {
  const auto end = [](std::string_view text) { return currency_name_end(text, 2); };
  EXPECT_EQ(end("12 Euro."), 7u);
  EXPECT_EQ(end("12 euros, then"), 8u);
  EXPECT_EQ(end("12Euro"), 6u);
  EXPECT_EQ(end("12 Europa"), 2u);
  EXPECT_EQ(end("12 livres"), 2u);  // books as often
  EXPECT_EQ(end("12 dogs"), 2u);
  EXPECT_EQ(end("12"), 2u);
}

}  // namespace
}  // namespace attend
