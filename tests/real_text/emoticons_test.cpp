// text/emoticons.h: which words are ASCII emoticons, and which are not.
#include "text/emoticons.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "texts_of.h"

namespace attend {
namespace {

using Words = std::vector<std::string>;

Words emoticons_in(std::string_view text) { return texts_of(text, emoticons(text)); }

TEST(Emoticons, SidewaysFaces) {
  EXPECT_EQ(emoticons_in("It is sunny :) and warm ;-) :D :'( =P :/ :-)) :3"),
            (Words{":)", ";-)", ":D", ":'(", "=P", ":/", ":-))", ":3"}));
}

TEST(Emoticons, HeartsAndFacesAcross) {
  EXPECT_EQ(emoticons_in("<3 </3 ^_^ -_- o_O T_T >_< ^.^ ^^ xD"),
            (Words{"<3", "</3", "^_^", "-_-", "o_O", "T_T", ">_<", "^.^", "^^", "xD"}));
}

TEST(Emoticons, WithoutTheSentencesPunctuationAfterThem) {
  EXPECT_EQ(emoticons_in("Great day :). See you ;)!"), (Words{":)", ";)"}));
  EXPECT_EQ(emoticons_in("Nice :D, really"), (Words{":D"}));
}

TEST(Emoticons, WordsThatOnlyLookLikeThem) {
  // Times, ratios, brackets, an emoticon inside a word, initials, a lone colon or mouth.
  EXPECT_EQ(emoticons_in("At 10:30 (or :30), the O.T. and T.O. say: ok) x3 3:2 :-( sad:( :DP"), Words{":-("});
  EXPECT_EQ(emoticons_in(""), Words{});
}

}  // namespace
}  // namespace attend
