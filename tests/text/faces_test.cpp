// text/faces.h: which words are faces, and the sentence starts they make.
#include "text/faces.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace attend {
namespace {

TEST(Faces, EmoticonsButHeartsAndFaceEmoji) {
  for (const char* face : {":)", ":-(", ";-)", ":DD", "xD", "^_^", "-_-", ":).", ";-),", "😀", "😂😂😂", "🙂!", "🤣",
                           "🥰", "🫠", "☺️", "🙋🏽", "🙏🏻", "🤦‍♂️"}) {
    EXPECT_TRUE(is_face(face)) << face;
  }
  for (const char* word : {"<3", "</3", "❤️", "🍕", "🐶", "🎉", "Max", ":", "(", "", "🏽", "😀a", "a😀", "."}) {
    EXPECT_FALSE(is_face(word)) << word;
  }
}

TEST(Faces, OnlyFacesNeedsOneAndNothingElse) {
  EXPECT_TRUE(only_faces(":)"));
  EXPECT_TRUE(only_faces(":) 😀  xD"));
  EXPECT_FALSE(only_faces(":) 🍕"));
  EXPECT_FALSE(only_faces("😀 Max"));
  EXPECT_FALSE(only_faces(" "));
  EXPECT_FALSE(only_faces(""));
}

TEST(Faces, BreaksBeforeACapitalAfterAFace) {
  const std::string text = "park :) Their dog 😂😂 Élise ran :-) away <3 New York 🍕 Pizza 🙂 5 ;) Ok";
  std::vector<std::string> starts;
  for (const size_t at : breaks_after_faces(text)) starts.push_back(text.substr(at, text.find(' ', at) - at));
  EXPECT_EQ(starts, (std::vector<std::string>{"Their", "Élise", "Ok"}));
  EXPECT_TRUE(breaks_after_faces(":)").empty());
  EXPECT_TRUE(breaks_after_faces("Hi:) There").empty());  // not a word of its own
  EXPECT_TRUE(breaks_after_faces("").empty());
}

}  // namespace
}  // namespace attend
