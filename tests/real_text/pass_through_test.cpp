// pipeline/pass_through.h on hand-made tokens: the unreadable-script rule, which bytes pass
// through, the text the model reads instead, and where the spans land in a translation.
#include "pipeline/pass_through.h"

#include <gtest/gtest.h>

#include "texts_of.h"

namespace attend {
namespace {

constexpr int kUnk = 1;

// An unknown token over the bytes of `part`, found in `text`.
TokenSpan unknown(std::string_view text, std::string_view part) {
  const size_t begin = text.find(part);
  return TokenSpan{kUnk, begin, begin + part.size()};
}

std::vector<std::string> spans_of(std::string_view text, const std::vector<TokenSpan>& tokens) {
  const auto knows_none = [](std::string_view) { return false; };
  return texts_of(text, pass_through_spans(text, tokens, kUnk, knows_none));
}

TEST(MostlyUnknown, MoreThanHalfOfTheNonSpaceCharacters) {
  const std::string chinese = "一个男人骑自行车。";
  EXPECT_TRUE(mostly_unknown(chinese, {unknown(chinese, chinese)}, kUnk));
  const std::string name = "北京 is big";  // 2 of 7 characters
  EXPECT_FALSE(mostly_unknown(name, {unknown(name, "北京"), TokenSpan{40, 6, 9}}, kUnk));
  const std::string mostly = "北京 x";  // 2 of 3
  EXPECT_TRUE(mostly_unknown(mostly, {unknown(mostly, "北京")}, kUnk));
  const std::string half = "😀  a";  // 1 of 2: not more than half; spaces do not count
  EXPECT_FALSE(mostly_unknown(half, {unknown(half, "😀")}, kUnk));
  EXPECT_FALSE(mostly_unknown("A dog runs.", {TokenSpan{7, 0, 1}}, kUnk));
}

TEST(PassThroughSpans, WidenToTheWordButNotItsPunctuation) {
  const std::string city = "A woman in São Paulo.";
  EXPECT_EQ(spans_of(city, {unknown(city, "ã")}), (std::vector<std::string>{"São"}));
  const std::string stop = "A man in 北京.";
  EXPECT_EQ(spans_of(stop, {unknown(stop, "北京")}), (std::vector<std::string>{"北京"}));
  EXPECT_EQ(spans_of(stop, {unknown(stop, " 北京")}), (std::vector<std::string>{"北京"}));  // a piece "▁北京"
  const std::string brackets = "Xiaoming (小明) and \"😀\" and (a 🐶).";
  EXPECT_EQ(spans_of(brackets, {unknown(brackets, "小明"), unknown(brackets, "😀"), unknown(brackets, "🐶")}),
            (std::vector<std::string>{"(小明)", "\"😀\"", "🐶"}));
}

TEST(PassThroughSpans, MergeAcrossWhitespaceAndPunctuation) {
  const std::string phrase = "He reads مرحبا بكم here, 😀 and 🐶, 🎉!";
  const std::vector<TokenSpan> tokens = {unknown(phrase, "مرحبا"), unknown(phrase, "بكم"), unknown(phrase, "😀"),
                                         unknown(phrase, "🐶"), unknown(phrase, "🎉")};
  EXPECT_EQ(spans_of(phrase, tokens), (std::vector<std::string>{"مرحبا بكم", "😀", "🐶, 🎉"}));
  const std::string one_word = "Sãõ";  // two unknown pieces in one word
  EXPECT_EQ(spans_of(one_word, {unknown(one_word, "ã"), unknown(one_word, "õ")}), (std::vector<std::string>{"Sãõ"}));
}

TEST(PassThroughSpans, NumbersOfTwoOrMoreCharactersOrWithASign) {
  const std::string text = "3 dogs, 42nd Street, 1,000 people at 10:30 and 7.";
  EXPECT_EQ(spans_of(text, {}), (std::vector<std::string>{"42nd", "1,000", "10:30"}));
  const std::string prices = "Call 555-0199 on 12/03/2024 about $50 and 12% off, or 10 - 20 bags (#4521).";
  EXPECT_EQ(spans_of(prices, {}), (std::vector<std::string>{"555-0199", "12/03/2024", "$50", "12", "10 - 20", "(#4521)"}));
  EXPECT_EQ(spans_of("A man with 3 dogs, 2 cats and 1 bird.", {}), (std::vector<std::string>{}));
  // Single digits joined by - or / are one number: the models lost "5-7" whole.
  EXPECT_EQ(spans_of("Children (aged 5-7) ate 1/2 a cake, 2-year-old 3 - 4 dogs.", {}),
            (std::vector<std::string>{"5-7", "1/2"}));
  // A single digit with its sign: the models lost the sign or the digit.
  EXPECT_EQ(spans_of("It costs $6 for the #1 player, €3 or £2 or ¥5.", {}),
            (std::vector<std::string>{"$6", "#1", "€3", "£2", "¥5"}));
  EXPECT_EQ(spans_of("It costs 5", {}), (std::vector<std::string>{}));  // a number ending the text
  EXPECT_EQ(spans_of("It costs 55", {}), (std::vector<std::string>{"55"}));
  // A minus or plus opening a word is a sign ("-5°C" lost its minus); a hyphen is not.
  EXPECT_EQ(spans_of("It is -5°C, call +4 or (-3) at x-1 in 5-7 days.", {}),
            (std::vector<std::string>{"-5°C", "+4", "(-3)", "5-7"}));
  // What the caption rules once read around a number, they no longer do (docs/caption-rules.md):
  // units, clock times, ordinals and German ordinal dots go to the model with a single digit.
  EXPECT_EQ(spans_of("We open at 8 a.m., close at 10:30PM, run 5 km and win the 1st and the 25. Platz.", {}),
            (std::vector<std::string>{"10:30PM", "25"}));
  // A quotation passes alone, never merged with a span beside it (which keeps its own stand-in);
  // what it holds goes with it. The marks of quoted words pass alone, both or neither: in
  // "“size 12”" the 12 took the ” along.
  EXPECT_EQ(spans_of("\"Hello\", Mrs. Brown said: \"Dr. Who 42\" 24 hours a \"day\".", {}),
            (std::vector<std::string>{"\"Hello\"", "Mrs. Brown", "\"Dr. Who 42\"", "24", "\"", "\""}));
  EXPECT_EQ(spans_of("A woman in a “size 12” shirt and « tenue de rue ».", {}),
            (std::vector<std::string>{"12”", "«", "»"}));
  const std::string mixed = "小明 holds 25 balloons";  // seeds of both kinds, in text order
  EXPECT_EQ(spans_of(mixed, {unknown(mixed, "小明")}), (std::vector<std::string>{"小明", "25"}));
}

TEST(CutSpans, TakeOutTheSpanWithTheSpaceBeforeIt) {
  const auto cut = [](std::string_view text, std::string_view part) {
    const size_t begin = text.find(part);
    return cut_spans(text, {ByteRange{begin, begin + part.size()}});
  };
  CutText middle = cut("A man 😀 rides.", "😀");
  EXPECT_EQ(middle.text, "A man rides.");
  EXPECT_EQ(middle.cut_at, (std::vector<size_t>{5}));
  CutText start = cut("😀 A dog runs.", "😀");
  EXPECT_EQ(start.text, "A dog runs.");
  EXPECT_EQ(start.cut_at, (std::vector<size_t>{0}));
  CutText end = cut("A man in 北京.", "北京");
  EXPECT_EQ(end.text, "A man in.");
  EXPECT_EQ(end.cut_at, (std::vector<size_t>{8}));
  // Opening the text, the span leaves the next word the capital: not after an emoji, nor where
  // the text opens in lowercase.
  EXPECT_EQ(cut("On Mondays a man plays.", "On Mondays").text, "A man plays.");
  EXPECT_EQ(cut("12 dogs play.", "12").text, "Dogs play.");
  EXPECT_EQ(cut("😀 a dog runs.", "😀").text, "a dog runs.");
  EXPECT_EQ(cut("iPhones are sold.", "iPhones").text, "are sold.");
  EXPECT_EQ(cut("A man and 12 dogs.", "12").text, "A man and dogs.");
  // Glued to the word after it (an opening quotation mark), the space before it stays.
  const std::string quoted = "A man in \"street clothes\" dances.";
  EXPECT_EQ(cut_spans(quoted, {ByteRange{9, 10}, ByteRange{24, 25}}).text, "A man in street clothes dances.");
}

// Target text as SentencePiece decodes it: ▁ is a space, the leading one dropped. Ids index `pieces`.
std::string insert(const std::vector<std::string>& pieces, const std::vector<Insertion>& insertions) {
  std::vector<int> ids;
  for (int i = 0; i < static_cast<int>(pieces.size()); ++i) ids.push_back(i);
  return insert_spans(ids, pieces, insertions, [&](const std::vector<int>& run) {
    std::string text;
    for (int id : run) text += pieces[id];
    for (size_t at; (at = text.find("▁")) != std::string::npos;) text.replace(at, std::string("▁").size(), " ");
    return text.substr(text.rfind(' ', 0) == 0 ? 1 : 0);
  });
}

TEST(CutSpans, AStandInTakesTheSpansPlace) {
  const std::string text = "Mrs. Brown talks to Dr. Smith.";
  const CutText cut = cut_spans(text, {{0, 10}, {20, 29}}, {"Someone", "someone"});
  EXPECT_EQ(cut.text, "Someone talks to someone.");
  EXPECT_EQ(cut.cut_at, (std::vector<size_t>{0, 17}));
  // Without one, the span is taken out as before.
  EXPECT_EQ(cut_spans(text, {{0, 10}, {20, 29}}, {"", "someone"}).text, "Talks to someone.");
}

TEST(StandIn, ATitleAndNameInTheModelsSourceLanguage) {
  auto stand_in = [](const std::string& text, const std::string& span, Language language = Language::english) {
    const size_t at = text.find(span);
    return stand_in_for(text, ByteRange{at, at + span.size()}, language);
  };
  EXPECT_EQ(stand_in("Mrs. Brown reads a book.", "Mrs. Brown"), "Someone");
  // A number after a number word is read as "4", in any language: with a hole there the models
  // wrote a number of their own ("the number 7 eight").
  EXPECT_EQ(stand_in("A player with the number 7 runs.", "7"), "4");
  EXPECT_EQ(stand_in("Der Bus Nr. 1047 fährt.", "1047", Language::german), "6");  // the sentence holds a 4
  EXPECT_EQ(stand_in("The number 7 scored 4 goals in 16 games.", "7"), "");  // and a 6: a hole
  EXPECT_EQ(stand_in("Four men stand in front of 2000 people.", "2000"), "");
  // A quotation is read as "S" between its marks, which the models copy as a quotation of their own.
  EXPECT_EQ(stand_in("A boat named \"El Corazon\" sails.", "\"El Corazon\""), "\"S\"");
  EXPECT_EQ(stand_in("Ein Schild mit der Aufschrift „Memoria Justicia“.", "„Memoria Justicia“", Language::german), "„S“");
  EXPECT_EQ(stand_in("A player with the number $5 runs.", "$5"), "");
  EXPECT_EQ(stand_in("A woman talks to Dr. J. Baker.", "Dr. J. Baker"), "someone");
  EXPECT_EQ(stand_in("Eine Frau spricht mit Dr. Müller.", "Dr. Müller", Language::german), "jemand");
  EXPECT_EQ(stand_in("Mme Dupont lit un livre.", "Mme Dupont", Language::french), "Quelqu'un");
  EXPECT_EQ(stand_in("M. Dupont lit un livre.", "M. Dupont", Language::french), "Quelqu'un");  // "M." is a title in French
  // The language is the model file's, not the sentence's: no guess from its words.
  EXPECT_EQ(stand_in("Mme Dupont lit un livre.", "Mme Dupont"), "Someone");
  EXPECT_EQ(stand_in("Mrs. Brown reads a book.", "Mrs. Brown", Language::unknown), "");  // a file naming none
  EXPECT_EQ(stand_in("A man drinks Dr Pepper 22.", "Dr Pepper 22"), "");  // more than a title and name
  EXPECT_EQ(stand_in("A man in 北京.", "北京"), "");
}

TEST(InsertSpans, SetOffBySpacesExceptBeforeGluedPunctuation) {
  const std::vector<std::string> pieces = {"▁Ein", "▁Mann", "▁fährt", "▁in", "."};
  EXPECT_EQ(insert(pieces, {}), "Ein Mann fährt in.");
  EXPECT_EQ(insert(pieces, {{"😀", 2}, {"北京", 4}}), "Ein Mann 😀 fährt in 北京.");
  EXPECT_EQ(insert(pieces, {{"😀", 0}, {"🐶", 0}}), "😀 🐶 Ein Mann fährt in.");
  EXPECT_EQ(insert(pieces, {{"😀", 5}}), "Ein Mann fährt in. 😀");
  EXPECT_EQ(insert({}, {{"北京", 0}}), "北京");
  // In place of the pieces up to replaces_until: "Mann" (a stand-in's translation) and its "▁".
  EXPECT_EQ(insert(pieces, {{"Dr. Smith", 1, 2}}), "Ein Dr. Smith fährt in.");
  EXPECT_EQ(insert(pieces, {{"Dr. Smith", 0, 2}, {"😀", 1}}), "Dr. Smith 😀 fährt in.");
  EXPECT_EQ(insert(pieces, {{"Dr. Smith", 3, 4}}), "Ein Mann fährt Dr. Smith.");
  // Quotation marks glued to the words they quote.
  EXPECT_EQ(insert(pieces, {{"„", 1, 0, false, true}, {"“", 2, 0, true, false}}), "Ein „Mann“ fährt in.");
  EXPECT_EQ(insert(pieces, {{"„", 3, 0, false, true}, {"“", 4, 0, true, false}}), "Ein Mann fährt „in“.");
  // Glued to what comes right after it only: a span after the quoted words keeps its space.
  EXPECT_EQ(insert(pieces, {{"„", 1, 0, false, true}, {"12", 2}, {"“", 2, 0, true, false}}), "Ein „Mann 12“ fährt in.");
  EXPECT_EQ(insert(pieces, {{"„", 1, 0, false, true}, {"12", 1}, {"“", 2, 0, true, false}}), "Ein „12 Mann“ fährt in.");
}

TEST(PlacePassThrough, AfterTheTargetWordAlignedWithTheSourceWordBefore) {
  // Source "😀 A man 🐶 rides a bike in 北京. 🎉" read as "A man rides a bike in." (7 pieces + eos).
  PreparedSource source;
  source.ids = {10, 11, 12, 13, 14, 15, 16, 3};
  source.pass_through = {{"😀", -1, ""}, {"🐶", 1, ""}, {"北京", 5, ""}, {"🎉", 6, ""}};
  const std::vector<std::string> source_pieces = {"▁A", "▁man", "▁rides", "▁a", "▁bike", "▁in", "."};
  const std::vector<std::string> target_pieces = {"▁Ein", "▁Mann", "▁fährt", "▁Fahr", "rad", "▁in", "."};
  // Source words A man rides a bike in. -> target words Ein Mann fährt Fahrrad Fahrrad in.
  const std::vector<int> alignment = {0, 1, 2, 3, 3, 4};
  const std::vector<Insertion> placed = place_pass_through(source, source_pieces, target_pieces, alignment);
  ASSERT_EQ(placed.size(), 4u);
  EXPECT_EQ(insert(target_pieces, placed), "😀 Ein Mann 🐶 fährt Fahrrad in 北京. 🎉");
  // A span that opens the sentence goes before the word the first source word aligns with;
  // spans at one place keep their source order.
  EXPECT_EQ(insert(target_pieces, place_pass_through(source, source_pieces, target_pieces, {2, 1, 0, 3, 3, 4})),
            "Ein Mann 😀 🐶 fährt Fahrrad in 北京. 🎉");
  // A span closing a sentence without final punctuation goes where its neighbour aligns.
  PreparedSource unpunctuated = source;
  unpunctuated.pass_through = {{"北京", 5, ""}};
  EXPECT_EQ(insert(target_pieces, place_pass_through(unpunctuated, {"▁A", "▁man", "▁rides", "▁a", "▁bike", "▁in"},
                                                     target_pieces, {0, 1, 2, 3, 3, 4})),
            "Ein Mann fährt Fahrrad in 北京.");
  // Faces closing it stand for its final mark: after the target's ("... in. :) 😀"); other emoji
  // stand for words ("... in 🚲.").
  for (const auto& [span, placed] : {std::pair{":) 😀", "Ein Mann fährt Fahrrad in. :) 😀"},
                                     std::pair{"xD", "Ein Mann fährt Fahrrad in. xD"},
                                     std::pair{"🚲", "Ein Mann fährt Fahrrad in 🚲."},
                                     std::pair{"<3", "Ein Mann fährt Fahrrad in <3."}}) {
    unpunctuated.pass_through = {{span, 5, ""}};
    EXPECT_EQ(insert(target_pieces, place_pass_through(unpunctuated, {"▁A", "▁man", "▁rides", "▁a", "▁bike", "▁in"},
                                                       target_pieces, {0, 1, 2, 3, 3, 4})),
              placed);
  }
  // A face inside the sentence goes where its neighbour aligns, like any span.
  unpunctuated.pass_through = {{":)", 4, ""}};
  EXPECT_EQ(insert(target_pieces, place_pass_through(unpunctuated, {"▁A", "▁man", "▁rides", "▁a", "▁bike", "▁in"},
                                                     target_pieces, {0, 1, 2, 3, 3, 4})),
            "Ein Mann fährt Fahrrad :) in.");
  // A span with a stand-in replaces the target word aligned with the stand-in's word: "Dr. Smith
  // rides a bike in." read as "Someone rides a bike in." -> "Jemand fährt Fahrrad in."
  PreparedSource stood_in = source;
  stood_in.pass_through = {{"Dr. Smith", -1, "Someone"}};
  const std::vector<std::string> someone_pieces = {"▁Someone", "▁rides", "▁a", "▁bike", "▁in", "."};
  const std::vector<std::string> jemand = {"▁Jemand", "▁fährt", "▁Fahr", "rad", "▁in", "."};
  EXPECT_EQ(insert(jemand, place_pass_through(stood_in, someone_pieces, jemand, {0, 1, 2, 2, 3})),
            "Dr. Smith fährt Fahrrad in.");
  // Two stand-ins aligned with one word: the second takes the other word written the same (in
  // either case). "M. Dupont et Mme Martin sont là." read as "Quelqu'un et quelqu'un sont là."
  stood_in.pass_through = {{"M. Dupont", -1, "Quelqu'un"}, {"Mme Martin", 4, "quelqu'un"}};
  const std::vector<std::string> twice = {"▁Quel", "qu", "'", "un", "▁et", "▁quel", "qu", "'", "un", "▁sont", "▁là", "."};
  const std::vector<std::string> someone_twice = {"▁Someone", "▁and", "▁someone", "▁are", "▁there", "."};
  EXPECT_EQ(insert(someone_twice, place_pass_through(stood_in, twice, someone_twice, {0, 1, 0, 3, 4})),
            "M. Dupont and Mme Martin are there.");
  EXPECT_EQ(insert(someone_twice, place_pass_through(stood_in, twice, someone_twice, {2, 1, 2, 3, 4})),
            "Mme Martin and M. Dupont are there.");  // the nearest word first, on either side
  // Punctuation after the word aside: "M. Dupont parle avec Mme Martin." -> "Someone talks with someone."
  stood_in.pass_through = {{"M. Dupont", -1, "Quelqu'un"}, {"Mme Martin", 6, "quelqu'un"}};
  const std::vector<std::string> with = {"▁Quel", "qu", "'", "un", "▁parle", "▁avec", "▁quel", "qu", "'", "un", "."};
  const std::vector<std::string> talks = {"▁Someone", "▁talks", "▁with", "▁someone", "."};
  EXPECT_EQ(insert(talks, place_pass_through(stood_in, with, talks, {0, 1, 2, 0})), "M. Dupont talks with Mme Martin.");
  // The stand-in's word may begin with a lone "▁" piece of its own (after_piece holds it).
  stood_in.pass_through = {{"Dr. Smith", 0, "Someone"}};
  EXPECT_EQ(insert(jemand, place_pass_through(stood_in, {"▁", "Some", "one", "▁rides", "▁a", "▁bike", "▁in", "."}, jemand,
                                              {0, 1, 2, 2, 3})),
            "Dr. Smith fährt Fahrrad in.");
  stood_in.pass_through = {{"Dr. Smith", 2, "someone"}};  // "A man rides someone." -> "... fährt jemanden."
  const std::vector<std::string> object = {"▁Ein", "▁Mann", "▁fährt", "▁jemanden", "."};
  EXPECT_EQ(insert(object, place_pass_through(stood_in, {"▁A", "▁man", "▁rides", "▁someone", "."}, object, {0, 1, 2, 3})),
            "Ein Mann fährt Dr. Smith.");
  // "A man waits at 5 p.m." read as "A man waits at.": the span lent the model its last dot as the
  // full stop and takes it back when it lands inside the translation, not at its end.
  PreparedSource lent_dot;
  lent_dot.pass_through = {{"5 p.m", 3, ""}};
  const std::vector<std::string> waits = {"▁A", "▁man", "▁waits", "▁at", "."};
  const std::vector<std::string> wartet = {"▁Zwei", "▁Männer", "▁warten", "▁an", "▁Ständen", "▁dort", "."};
  EXPECT_EQ(insert(wartet, place_pass_through(lent_dot, waits, wartet, {0, 1, 2, 3})), "Zwei Männer warten an 5 p.m. Ständen dort.");
  EXPECT_EQ(insert(wartet, place_pass_through(lent_dot, waits, wartet, {0, 1, 2, 5})), "Zwei Männer warten an Ständen dort 5 p.m.");
  for (const char* kept : {"5 pm", "3.5", "example.com"}) {  // no dotted letters: the dot was the text's
    lent_dot.pass_through = {{kept, 3, ""}};
    EXPECT_EQ(insert(wartet, place_pass_through(lent_dot, waits, wartet, {0, 1, 2, 3})),
              "Zwei Männer warten an " + std::string(kept) + " Ständen dort.");
  }
  lent_dot.pass_through = {{"U.S", 2, ""}};  // not before the final dot: no dot to take back
  EXPECT_EQ(insert(wartet, place_pass_through(lent_dot, waits, wartet, {0, 1, 2, 3})), "Zwei Männer warten U.S an Ständen dort.");
  // A span that goes before the next word (PassThrough::before_next_word: an opening quotation
  // mark) goes before the translation of the word after it: "Ein Mann steht am 3. Tor." read as
  // "Ein Mann steht am Tor." -> "A man stands at the goal."
  PreparedSource ordinal;
  ordinal.pass_through = {{"3.", 3, "", true}};
  const std::vector<std::string> tor = {"▁Ein", "▁Mann", "▁steht", "▁am", "▁Tor", "."};
  const std::vector<std::string> goal = {"▁A", "▁man", "▁stands", "▁at", "▁the", "▁goal", "."};
  EXPECT_EQ(insert(goal, place_pass_through(ordinal, tor, goal, {0, 1, 2, 3, 5})), "A man stands at the 3. goal.");
  // Other spans follow the word before them.
  ordinal.pass_through[0].before_next_word = false;
  EXPECT_EQ(insert(goal, place_pass_through(ordinal, tor, goal, {0, 1, 2, 3, 5})), "A man stands at 3. the goal.");
  ordinal.pass_through[0].before_next_word = true;  // the word after it aligned with none: after the one before
  EXPECT_EQ(insert(goal, place_pass_through(ordinal, tor, goal, {0, 1, 2, 3, -1})), "A man stands at 3. the goal.");
  // No target words: everything at the end, in source order.
  EXPECT_EQ(insert({}, place_pass_through(source, source_pieces, {}, {-1, -1, -1, -1, -1, -1})), "😀 🐶 北京 🎉");
}

TEST(PlacePassThrough, ASpanEndingInADotTakesTheTranslationsFullStop) {
  // "A man from the U.S. walks with a dog." read as "A man from the walks with a dog."
  PreparedSource source;
  source.pass_through = {{"U.S.", 3, ""}};
  const std::vector<std::string> from = {"▁A", "▁man", "▁from", "▁the", "▁walks", "▁with", "▁a", "▁dog", "."};
  const std::vector<std::string> hund = {"▁Ein", "▁Mann", "▁geht", "▁mit", "▁einem", "▁Hund", "."};
  EXPECT_EQ(insert(hund, place_pass_through(source, from, hund, {0, 1, 5, 5, 2, 3, 4, 5})),
            "Ein Mann geht mit einem Hund U.S.");  // not "… U.S.."
  EXPECT_EQ(insert(hund, place_pass_through(source, from, hund, {0, 1, 1, 1, 2, 3, 4, 5})),
            "Ein Mann U.S. geht mit einem Hund.");
  const std::vector<std::string> asks = {"▁Ein", "▁Mann", "▁geht", "▁mit", "▁einem", "▁Hund", "?"};
  EXPECT_EQ(insert(asks, place_pass_through(source, from, asks, {0, 1, 5, 5, 2, 3, 4, 5})),
            "Ein Mann geht mit einem Hund U.S.?");  // a question keeps its mark
  // Two spans before the full stop: the last one's dot takes its place.
  source.pass_through = {{"U.S.", 3, ""}, {"😀", 3, ""}};
  EXPECT_EQ(insert(hund, place_pass_through(source, from, hund, {0, 1, 5, 5, 2, 3, 4, 5})), "Ein Mann geht mit einem Hund U.S. 😀.");
  source.pass_through = {{"😀", 3, ""}, {"U.S.", 3, ""}};
  EXPECT_EQ(insert(hund, place_pass_through(source, from, hund, {0, 1, 5, 5, 2, 3, 4, 5})), "Ein Mann geht mit einem Hund 😀 U.S.");
}

TEST(PlacePassThrough, TitlesTheTranslationsWay) {
  // "A woman talks to Mr. Smith in the park." read as "A woman talks to someone in the park."
  PreparedSource source;
  source.text = "A woman talks to Mr. Smith in the park.";
  source.pass_through = {{"Mr. Smith", 3, "someone"}};
  const std::vector<std::string> talks = {"▁A", "▁woman", "▁talks", "▁to", "▁someone", "▁in", "▁the", "▁park", "."};
  const std::vector<std::string> spricht = {"▁Eine", "▁Frau", "▁spricht", "▁mit", "▁jemand", "▁im", "▁Park", "."};
  const LanguagePair en_de{Language::english, Language::german};  // the model file's
  EXPECT_EQ(insert(spricht, place_pass_through(source, talks, spricht, {0, 1, 2, 3, 4, 5, 5, 6}, en_de)),
            "Eine Frau spricht mit Herrn Smith im Park.");  // after a preposition
  const std::vector<std::string> sieht = {"▁Eine", "▁Frau", "▁sieht", "▁jemand", "▁im", "▁Park", "."};
  EXPECT_EQ(insert(sieht, place_pass_through(source, talks, sieht, {0, 1, 2, 2, 3, 4, 4, 5}, en_de)),
            "Eine Frau sieht Herr Smith im Park.");
  // "M. Dupont lit un livre." read as "Quelqu'un lit un livre."
  source.text = "M. Dupont lit un livre.";
  source.pass_through = {{"M. Dupont", -1, "Quelqu'un"}};
  const std::vector<std::string> lit = {"▁Quelqu'un", "▁lit", "▁un", "▁livre", "."};
  const std::vector<std::string> reads = {"▁Someone", "▁reads", "▁a", "▁book", "."};
  const LanguagePair fr_en{Language::french, Language::english};
  EXPECT_EQ(insert(reads, place_pass_through(source, lit, reads, {0, 1, 2, 3}, fr_en)), "Mr. Dupont reads a book.");
  // Without a stand-in, placed after the word before: "Frau Müller" in a German source.
  source.text = "Ein Hund läuft zu Frau Müller.";
  source.pass_through = {{"Frau Müller", 3, ""}};
  const std::vector<std::string> zu = {"▁Ein", "▁Hund", "▁läuft", "▁zu", "."};
  const std::vector<std::string> runs = {"▁A", "▁dog", "▁runs", "▁to", "."};
  const LanguagePair de_en{Language::german, Language::english};
  EXPECT_EQ(insert(runs, place_pass_through(source, zu, runs, {0, 1, 2, 3}, de_en)), "A dog runs to Ms. Müller.");
  // A title of another language than the source's stays: "Mr. Bean" in German text.
  source.text = "Ein Hund läuft zu Mr. Bean.";
  source.pass_through = {{"Mr. Bean", 3, ""}};
  EXPECT_EQ(insert(runs, place_pass_through(source, zu, runs, {0, 1, 2, 3}, de_en)), "A dog runs to Mr. Bean.");
  // A file that names no languages: every title as written.
  source.pass_through = {{"Frau Müller", 3, ""}};
  EXPECT_EQ(insert(runs, place_pass_through(source, zu, runs, {0, 1, 2, 3})), "A dog runs to Frau Müller.");
}

TEST(PlacePassThrough, QuotationMarksAroundTheTranslationOfWhatTheyQuoted) {
  // "A man in "street clothes" dances." read as "A man in street clothes dances."
  PreparedSource source;
  source.pass_through = {{"\"", 2, "", true}, {"\"", 4, "", false}};
  const std::vector<std::string> read = {"▁A", "▁man", "▁in", "▁street", "▁clothes", "▁dances", "."};
  const std::vector<std::string> german = {"▁Ein", "▁Mann", "▁in", "▁Straßen", "kleidung", "▁tanzt", "."};
  EXPECT_EQ(insert(german, place_pass_through(source, read, german, {0, 1, 2, 3, 3, 4}, {Language::english, Language::german})),
            "Ein Mann in „Straßenkleidung“ tanzt.");
  // Turned around by the translation ("tenue" for "clothes" before "rue" for "street"): around both.
  const std::vector<std::string> french = {"▁Un", "▁homme", "▁en", "▁tenue", "▁de", "▁rue", "▁danse", "."};
  EXPECT_EQ(insert(french, place_pass_through(source, read, french, {0, 1, 2, 5, 3, 6}, {Language::english, Language::french})),
            "Un homme en \"tenue de rue\" danse.");
  // Turned around and next to each other: the closing mark after the word right before the opening one's.
  const std::vector<std::string> english = {"▁A", "▁man", "▁in", "▁a", "▁street", "▁outfit", "▁dances", "."};
  EXPECT_EQ(insert(english, place_pass_through(source, read, english, {0, 1, 2, 5, 4, 6}, {Language::english, Language::english})),
            "A man in a \"street outfit\" dances.");
}

}  // namespace
}  // namespace attend
