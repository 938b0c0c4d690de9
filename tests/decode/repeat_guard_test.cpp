// The repeat guard (decode/repeat_guard.h, TranslateOptions::max_repeats): which tokens it bans,
// and, on the shipped en-de model, the repetitions it stops at beam 1 and 5. (It bounds repetition;
// it cannot make the model end a sentence it does not understand: "A WOMAN IS WALKING HER DOG."
// still runs to the length limit, varying its loop.)
#include "decode/repeat_guard.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "attend/error.h"

namespace attend {
namespace {

std::vector<int> banned(const std::vector<int>& history, int max_repeats) {
  const BannedTokens b = repeat_banned(history.data(), static_cast<int>(history.size()), max_repeats);
  return std::vector<int>(b.ids, b.ids + b.count);
}

TEST(RepeatBanned, APieceRepeatedMaxRepeatsTimesIsBannedNext) {
  EXPECT_EQ(banned({7, 5, 5, 5, 5}, 4), std::vector<int>{5});
  EXPECT_EQ(banned({7, 5, 5, 5}, 4), std::vector<int>{});  // a fourth 5 is allowed
  EXPECT_EQ(banned({5, 5, 5, 5, 9}, 4), std::vector<int>{});
  EXPECT_EQ(banned({5}, 1), std::vector<int>{5});  // 1: never the same piece twice in a row
}

TEST(RepeatBanned, AnNgramRepeatedMaxRepeatsTimesCannotStartAnotherCopy) {
  // 1 (2 3)x4: a fifth "2 3" may begin, but its 3 is banned.
  EXPECT_EQ(banned({1, 2, 3, 2, 3, 2, 3, 2, 3}, 4), std::vector<int>{});
  EXPECT_EQ(banned({1, 2, 3, 2, 3, 2, 3, 2, 3, 2}, 4), std::vector<int>{3});
  EXPECT_EQ(banned({4, 5, 6, 4, 5, 6, 4, 5}, 2), std::vector<int>{6});  // trigram, twice at most
  // The longest n-gram looked at is kRepeatGuardMaxN pieces: three copies of it, but for its last
  // piece, ban that piece at max_repeats 2; one piece longer, nothing is banned.
  std::vector<int> longest, longer;
  for (int copy = 0; copy < 3; ++copy) {
    for (int i = 0; i < kRepeatGuardMaxN; ++i) longest.push_back(10 + i);
    for (int i = 0; i <= kRepeatGuardMaxN; ++i) longer.push_back(10 + i);
  }
  longest.pop_back();
  longer.pop_back();
  EXPECT_EQ(banned(longest, 2), std::vector<int>{10 + kRepeatGuardMaxN - 1});
  EXPECT_EQ(banned(longer, 2), std::vector<int>{});
}

TEST(RepeatBanned, OneTokenPerNgramLength) {
  // 8 8 8 8 8 at max_repeats 2: a sixth 8 would make 3 copies of the unigram and of the bigram "8 8".
  EXPECT_EQ(banned({8, 8, 8, 8, 8}, 2), (std::vector<int>{8, 8}));
}

TEST(RepeatBanned, OffAtZero) {
  EXPECT_EQ(banned(std::vector<int>(50, 3), 0), std::vector<int>{});
  EXPECT_EQ(banned({}, 4), std::vector<int>{});
}

// The most consecutive copies of any n-gram (n = 1..kRepeatGuardMaxN) in ids.
int most_copies(const std::vector<int>& ids) {
  int most = 0;
  for (int n = 1; n <= kRepeatGuardMaxN; ++n) {
    for (size_t start = 0; start + n <= ids.size(); ++start) {
      int copies = 1;
      while (start + (copies + 1) * n <= ids.size() &&
             std::equal(ids.begin() + start, ids.begin() + start + n, ids.begin() + start + copies * n)) {
        ++copies;
      }
      most = std::max(most, copies);
    }
  }
  return most;
}

// The two sentences as the model reads them without translate()'s help (sentence case for
// capitals, numbers passed through): source_ids, on which the shipped model runs away.
const std::vector<std::string> kRunaways = {"A WOMAN IS WALKING HER DOG.", "The price is 50011 dollars."};

std::vector<std::vector<int>> runaway_ids(const std::shared_ptr<const Model>& model) {
  const Translator translator(model);
  std::vector<std::vector<int>> ids;
  for (const std::string& text : kRunaways) ids.push_back(translator.source_ids(text));
  return ids;
}

TEST(RepeatGuard, StopsTheShippedModelsRunawaysAtBeam1And5) {
  const auto model = Model::from_file(ATTEND_SHIPPED_MODEL);
  for (int beam : {1, 5}) {
    TranslateOptions o;
    o.beam_size = beam;
    ASSERT_EQ(o.max_repeats, 4) << "the default";
    const auto guarded = translate_ids_parallel(model, runaway_ids(model), o, 2, 1);
    o.max_repeats = 0;
    const auto unguarded = translate_ids_parallel(model, runaway_ids(model), o, 2, 1);
    int ran_away = 0;
    for (size_t i = 0; i < kRunaways.size(); ++i) {
      const Hypothesis& h = guarded[i].hypotheses.at(0);
      EXPECT_LE(most_copies(h.ids), 4) << "beam " << beam << ": " << h.text;
      ran_away += most_copies(unguarded[i].hypotheses.at(0).ids) > 4;
    }
    EXPECT_GT(ran_away, 0) << "beam " << beam << ": nothing for the guard to stop";
  }
}

TEST(RepeatGuard, NegativeMaxRepeatsIsRefused) {
  TranslateOptions o;
  o.max_repeats = -1;
  try {
    Translator(Model::from_file(ATTEND_SHIPPED_MODEL)).translate("A dog.", o);
    FAIL() << "max_repeats -1 accepted";
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ErrorCode::invalid_argument);
    EXPECT_NE(std::string(e.what()).find("max repeats"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace attend
