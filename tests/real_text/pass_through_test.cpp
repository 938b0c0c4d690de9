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

TEST(PassThroughSpans, NumbersOfTwoOrMoreDigitsOrWithASign) {
  const std::string text = "3 dogs, 42nd Street, 1,000 people at 10:30 and 7.";
  EXPECT_EQ(spans_of(text, {}), (std::vector<std::string>{"42nd", "1,000", "at 10:30"}));  // a time after "at"
  const std::string prices = "Call 555-0199 on 12/03/2024 about $50 and 12% off, or 10 - 20 bags (#4521).";
  EXPECT_EQ(spans_of(prices, {}), (std::vector<std::string>{"555-0199", "12/03/2024", "$50", "12%", "10 - 20", "(#4521)"}));
  EXPECT_EQ(spans_of("The price is 50011 dollars.", {}), (std::vector<std::string>{"50011 dollars"}));
  EXPECT_EQ(spans_of("A man with 3 dogs, 2 cats and 1 bird.", {}), (std::vector<std::string>{}));
  // Single digits joined by - or / are one number: the models lost "5-7" whole.
  EXPECT_EQ(spans_of("Children (aged 5-7) ate 1/2 a cake, 2-year-old 3 - 4 dogs.", {}),
            (std::vector<std::string>{"5-7", "1/2"}));
  // A single digit with its sign: the models lost the sign or the digit.
  EXPECT_EQ(spans_of("It costs $6 at 5% off for the #1 player.", {}), (std::vector<std::string>{"$6", "5%", "#1"}));
  // A currency sign before or after it, or a % after a space: "un gâteau 4 €" lost the 4.
  EXPECT_EQ(spans_of("Un café à €3, un gâteau à 4 €, un thé à 2€ et 5 % de plus, pas 7\n%.", {}),
            (std::vector<std::string>{"€3", "4 €", "2€", "5 %"}));
  EXPECT_EQ(spans_of("A tea for £2 and a cake for ¥5 or 3 $ and 9 horses.", {}), (std::vector<std::string>{"£2", "¥5", "3 $"}));
  // A unit of measure after it and at most one space, before no letter or apostrophe: "He ran 5 km."
  // was "Fünf Krankenschwestern".
  EXPECT_EQ(spans_of("He ran 5 km at 12 km/h with 2kg and 1 l and 3 °C; 5 mice, 2 gifts, 4 m.", {}),
            (std::vector<std::string>{"5 km", "12 km/h", "2kg", "1 l", "3 °C", "4 m"}));
  EXPECT_EQ(spans_of("Il boit 2 l'eau et 5 min.", {}), (std::vector<std::string>{"5 min"}));
  EXPECT_EQ(spans_of("It costs 5", {}), (std::vector<std::string>{}));  // a number ending the text
  EXPECT_EQ(spans_of("It costs 55", {}), (std::vector<std::string>{"55"}));
  // A minus or plus opening a word is a sign ("-5°C" lost its minus); a hyphen is not.
  EXPECT_EQ(spans_of("It is -5°C, call +4 or (-3) at x-1 in 5-7 days.", {}),
            (std::vector<std::string>{"-5°C", "+4", "(-3)", "5-7"}));
  // A single digit with an ordinal's ending: "He finished 1st" was "Da ist ein Mann".
  EXPECT_EQ(spans_of("He came 1st, she 2ND and 3rd; le 1er, la 1re, le 2e et le 3ème, la 1ère, 4 then 5 these 6e7.", {}),
            (std::vector<std::string>{"1st", "2ND", "3rd", "1er", "1re", "2e", "3ème", "1ère"}));
  // A clock time with its am or pm, of any length: "5 p.m." was "fünf Seiten" (pages), with its
  // preposition ("at", "um", "à"), which the models dropped beside the time. The text's last dot
  // is the sentence's full stop.
  EXPECT_EQ(spans_of("We open at 8 a.m. and close at 10:30PM or 7 pm on Friday, 5 P.M.", {}),
            (std::vector<std::string>{"at 8 a.m.", "at 10:30PM", "7 pm on Friday, 5 P.M"}));  // "on Friday" too
  EXPECT_EQ(spans_of("We met at 5 p.m.", {}), (std::vector<std::string>{"at 5 p.m"}));
  // After its preposition an hour with minutes and a colon is a clock time; a decimal is a number.
  EXPECT_EQ(spans_of("We meet At 8:15 or around 9:45, not at 8.15 or at 2:5, um 2.50 Euro.", {}),
            (std::vector<std::string>{"At 8:15", "around 9:45", "8.15", "2:5", "2.50 Euro"}));
  EXPECT_EQ(spans_of("5 apples, 3 pmx and 2 a.x", {}), (std::vector<std::string>{}));
  // A closing quote or bracket after the text's last dot leaves it to the model too.
  // (The quotation's marks pass alone: caption/quotations.h word_quotation_marks.)
  EXPECT_EQ(spans_of("He said \"come at 5 p.m.\"", {}), (std::vector<std::string>{"\"", "at 5 p.m", "\""}));
  // German "am" (at the) is no time: "um 8 am Bahnhof"; "7am", "7 am." and "7 pm Bahnhof" are.
  EXPECT_EQ(spans_of("Wir treffen uns um 8 am Bahnhof.", {}), (std::vector<std::string>{}));
  EXPECT_EQ(spans_of("Wir treffen uns um 8 am besten und um 9 pm.", {}), (std::vector<std::string>{"um 9 pm"}));  // German text
  EXPECT_EQ(spans_of("We meet at 8 am sharp.", {}), (std::vector<std::string>{"at 8 am"}));
  EXPECT_EQ(spans_of("Up at 7am Monday, 6 am. Back at 7 pm Monday.", {}),
            (std::vector<std::string>{"at 7am", "6 am", "at 7 pm"}));
  // A German clock time with its Uhr: "um 20 Uhr" was "a 20 watch".
  EXPECT_EQ(spans_of("Treffen um 20 Uhr, Abfahrt 8.30 Uhr oder 9:15 Uhr, dann 2 Uhr. Keine 3 Uhren, 4 Uhrzeiten.", {}),
            (std::vector<std::string>{"um 20 Uhr", "8.30 Uhr", "9:15 Uhr", "2 Uhr"}));
  // A range of clock times goes whole, with its "von", "from", ...: the models read "von 10 bis
  // 20 Uhr" as "von bis" and a hole, and the 10 kept no clock ("from 10 to 8 p.m.").
  EXPECT_EQ(spans_of("Das Museum ist von 10 bis 20 Uhr offen, der Laden 9-18 Uhr, aber (zwischen 8 und 10 Uhr) nicht.", {}),
            (std::vector<std::string>{"von 10 bis 20 Uhr", "9-18 Uhr", "(zwischen 8 und 10 Uhr)"}));
  EXPECT_EQ(spans_of("We open from 9 a.m. to 5 p.m., or 9 to 5 p.m. on Sunday, or 10 to 2 p.m.", {}),
            (std::vector<std::string>{"from 9 a.m. to 5 p.m.", "9 to 5 p.m. on Sunday", "10 to 2 p.m"}));
  EXPECT_EQ(spans_of("Le musée est ouvert de 10 à 18 h.", {}), (std::vector<std::string>{"de 10 à 18 h"}));
  EXPECT_EQ(spans_of("Das Café ist von 10:00-18:00 Uhr geöffnet.", {}), (std::vector<std::string>{"von 10:00-18:00 Uhr"}));
  // A quotation passes alone, never merged with a span beside it (which keeps its own stand-in);
  // what it holds goes with it. The marks of quoted words pass alone, both or neither: in
  // "“size 12”" the 12 took the ” along.
  EXPECT_EQ(spans_of("\"Hello\", Mrs. Brown said: \"Dr. Who 42\" 24 hours a \"day\".", {}),
            (std::vector<std::string>{"\"Hello\"", "Mrs. Brown", "\"Dr. Who 42\"", "24", "\"", "\""}));
  EXPECT_EQ(spans_of("A woman in a “size 12” shirt and « tenue de rue ».", {}),
            (std::vector<std::string>{"12”", "«", "»"}));
  // So does a range of weekdays or months: "Monday to Friday" was read "to" and lost it ("Montag Freitag").
  EXPECT_EQ(spans_of("Our office is open Monday to Friday, from 9 a.m. to 5 p.m.", {}),
            (std::vector<std::string>{"Monday to Friday, from 9 a.m. to 5 p.m"}));
  EXPECT_EQ(spans_of("Das Museum ist von Montag bis Freitag offen.", {}), (std::vector<std::string>{"von Montag bis Freitag"}));
  // A currency's name goes with its number: "Der Eintritt kostet 12 Euro" was "… a bite 12".
  EXPECT_EQ(spans_of("Der Eintritt kostet 12 Euro, für Kinder 6 Euro; 3 Europäer.", {}),
            (std::vector<std::string>{"12 Euro", "6 Euro"}));
  // A French clock time with its h: "à 8 h 30" was "8 8 30". Without minutes only in French text.
  EXPECT_EQ(spans_of("Le marché ouvre à 8 h 30 et ferme à 14h30, le train part à 9h, le bus à 20 h.", {}),
            (std::vector<std::string>{"à 8 h 30", "à 14h30", "à 9h", "à 20 h"}));
  EXPECT_EQ(spans_of("Un homme avec 8 hérons et 3 h.", {}), (std::vector<std::string>{"3 h"}));
  EXPECT_EQ(spans_of("He ran for 8 h and 5 hours, then 9 h 15 more.", {}), (std::vector<std::string>{"9 h 15"}));
  EXPECT_EQ(spans_of("A man with 8 h2o bottles and 123 h.", {}), (std::vector<std::string>{"123"}));
  // A German ordinal goes with its dot ("Der 1. Platz": "The 1 1."); a number ending a sentence
  // or a line's list marker does not, nor does a number in text not guessed German.
  EXPECT_EQ(spans_of("Der 1. Platz geht an den 25. Läufer mit der Nummer 7.", {}),
            (std::vector<std::string>{"1.", "25.", "7"}));
  EXPECT_EQ(spans_of("Der 1. Platz geht am 25. Mai an den Jungen.", {}),  // a date with its preposition, whole
            (std::vector<std::string>{"1.", "am 25. Mai"}));
  EXPECT_EQ(spans_of("Das Kind ist 5. Es spielt mit 12. Dann schläft es.", {}), (std::vector<std::string>{"12"}));
  EXPECT_EQ(spans_of("The boy won 1. Place was his.", {}), (std::vector<std::string>{}));
  const std::string mixed = "小明 holds 25 balloons";  // seeds of both kinds, in text order
  EXPECT_EQ(spans_of(mixed, {unknown(mixed, "小明")}), (std::vector<std::string>{"小明", "25"}));
}

TEST(PassThroughSpans, ASingleDigitBesideAMonth) {
  // A day: "The party is on May 5." was "auf May fünf"; with its month and preposition, a date
  // (caption/calendar_names.h date_with_preposition_in).
  EXPECT_EQ(spans_of("The party is on May 5, the fair on 7 June; May has 3 days off.", {}),
            (std::vector<std::string>{"on May 5", "on 7 June"}));
  EXPECT_EQ(spans_of("La fête est le 5 mai.", {}), (std::vector<std::string>{"le 5 mai"}));
  EXPECT_EQ(spans_of("Il pleut depuis le 5 mai.", {}), (std::vector<std::string>{"5"}));  // "le" of "depuis"
}

TEST(PassThroughSpans, ASingleDigitAfterANumberWord) {
  // "mit der Nummer 7" was "with the number 47" (de-en), "number 7" "Nummer 5" (en-de).
  EXPECT_EQ(spans_of("A player with the number 7 runs past Number 3, No. 5 and 2 dogs.", {}),
            (std::vector<std::string>{"7", "3", "5"}));
  EXPECT_EQ(spans_of("Der Spieler mit der Nummer 7, der Bus Nr. 5 und (Startnummer 2) mit 3 Hunden.", {}),
            (std::vector<std::string>{"7", "5", "2"}));
  EXPECT_EQ(spans_of("Le joueur avec le numéro 7 et le n° 8, pas les 3 chiens.", {}), (std::vector<std::string>{"7", "8"}));
  // Only right after it, at most one space between: a quantity stays with the model.
  EXPECT_EQ(spans_of("The numbers are 7 and 8; a number of 3 dogs; no 5 cats; casino 2.", {}), (std::vector<std::string>{}));
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

TEST(StandIn, ATitleAndNameInTheSentencesLanguage) {
  auto stand_in = [](const std::string& text, const std::string& span) {
    const size_t at = text.find(span);
    return stand_in_for(text, ByteRange{at, at + span.size()});
  };
  EXPECT_EQ(stand_in("Mrs. Brown reads a book.", "Mrs. Brown"), "Someone");
  // A number after a number word is read as "4", in any language: with a hole there the models
  // wrote a number of their own ("the number 7 eight").
  EXPECT_EQ(stand_in("A player with the number 7 runs.", "7"), "4");
  EXPECT_EQ(stand_in("Der Bus Nr. 1047 fährt.", "1047"), "6");  // the sentence holds a 4
  EXPECT_EQ(stand_in("The number 7 scored 4 goals in 16 games.", "7"), "");  // and a 6: a hole
  EXPECT_EQ(stand_in("Four men stand in front of 2000 people.", "2000"), "");
  // A quotation is read as "S" between its marks, which the models copy as a quotation of their own.
  EXPECT_EQ(stand_in("A boat named \"El Corazon\" sails.", "\"El Corazon\""), "\"S\"");
  EXPECT_EQ(stand_in("Ein Schild mit der Aufschrift „Memoria Justicia“.", "„Memoria Justicia“"), "„S“");
  EXPECT_EQ(stand_in("A player with the number $5 runs.", "$5"), "");
  EXPECT_EQ(stand_in("A woman talks to Dr. J. Baker.", "Dr. J. Baker"), "someone");
  EXPECT_EQ(stand_in("Eine Frau spricht mit Dr. Müller.", "Dr. Müller"), "jemand");
  EXPECT_EQ(stand_in("Mme Dupont lit un livre.", "Mme Dupont"), "Quelqu'un");
  EXPECT_EQ(stand_in("M. Dupont lit un livre.", "M. Dupont"), "Quelqu'un");  // "M." is a title in French text
  // No function word tells the language: the title's own does ("Mrs." is English's alone) ...
  EXPECT_EQ(stand_in("Mrs. Marple drinks tea.", "Mrs. Marple"), "Someone");
  EXPECT_EQ(stand_in("Mme Dupont !", "Mme Dupont"), "Quelqu'un");
  EXPECT_EQ(stand_in("Dr. Smith!", "Dr. Smith"), "");  // ... but "Dr." all three write alike
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
  // (A translation in no language the function words tell: the clock time is not rewritten.)
  PreparedSource lent_dot;
  lent_dot.pass_through = {{"5 p.m", 3, ""}};
  const std::vector<std::string> waits = {"▁A", "▁man", "▁waits", "▁at", "."};
  const std::vector<std::string> wartet = {"▁Zwei", "▁Männer", "▁warten", "▁an", "▁Ständen", "▁dort", "."};
  EXPECT_EQ(insert(wartet, place_pass_through(lent_dot, waits, wartet, {0, 1, 2, 3})), "Zwei Männer warten an 5 p.m. Ständen dort.");
  EXPECT_EQ(insert(wartet, place_pass_through(lent_dot, waits, wartet, {0, 1, 2, 5})), "Zwei Männer warten an Ständen dort 5 p.m.");
  // Rewritten the translation's way, it takes no dot back.
  const std::vector<std::string> german = {"▁Ein", "▁Mann", "▁wartet", "▁an", "▁einem", "▁Stand", "."};
  EXPECT_EQ(insert(german, place_pass_through(lent_dot, waits, german, {0, 1, 2, 3})), "Ein Mann wartet an 17 Uhr einem Stand.");
  for (const char* kept : {"5 pm", "3.5", "example.com"}) {  // no dotted letters: the dot was the text's
    lent_dot.pass_through = {{kept, 3, ""}};
    EXPECT_EQ(insert(wartet, place_pass_through(lent_dot, waits, wartet, {0, 1, 2, 3})),
              "Zwei Männer warten an " + std::string(kept) + " Ständen dort.");
  }
  lent_dot.pass_through = {{"U.S", 2, ""}};  // not before the final dot: no dot to take back
  EXPECT_EQ(insert(wartet, place_pass_through(lent_dot, waits, wartet, {0, 1, 2, 3})), "Zwei Männer warten U.S an Ständen dort.");
  // A German ordinal goes before the translation of the word after it: "Ein Mann steht am 3. Tor."
  // read as "Ein Mann steht am Tor." -> "A man stands at the goal."
  PreparedSource ordinal;
  ordinal.pass_through = {{"3.", 3, "", true}};
  const std::vector<std::string> tor = {"▁Ein", "▁Mann", "▁steht", "▁am", "▁Tor", "."};
  const std::vector<std::string> goal = {"▁A", "▁man", "▁stands", "▁at", "▁the", "▁goal", "."};
  EXPECT_EQ(insert(goal, place_pass_through(ordinal, tor, goal, {0, 1, 2, 3, 5})), "A man stands at the 3rd goal.");
  // Other spans follow the word before them (and an ordinal before a capital is kept as written:
  // "42nd Street").
  ordinal.pass_through[0].before_next_word = false;
  EXPECT_EQ(insert(goal, place_pass_through(ordinal, tor, goal, {0, 1, 2, 3, 5})), "A man stands at 3. the goal.");
  ordinal.pass_through[0].before_next_word = true;  // the word after it aligned with none: after the one before
  EXPECT_EQ(insert(goal, place_pass_through(ordinal, tor, goal, {0, 1, 2, 3, -1})), "A man stands at 3rd the goal.");
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
  EXPECT_EQ(insert(spricht, place_pass_through(source, talks, spricht, {0, 1, 2, 3, 4, 5, 5, 6})),
            "Eine Frau spricht mit Herrn Smith im Park.");  // after a preposition
  const std::vector<std::string> sieht = {"▁Eine", "▁Frau", "▁sieht", "▁jemand", "▁im", "▁Park", "."};
  EXPECT_EQ(insert(sieht, place_pass_through(source, talks, sieht, {0, 1, 2, 2, 3, 4, 4, 5})),
            "Eine Frau sieht Herr Smith im Park.");
  // "M. Dupont lit un livre." read as "Quelqu'un lit un livre."
  source.text = "M. Dupont lit un livre.";
  source.pass_through = {{"M. Dupont", -1, "Quelqu'un"}};
  const std::vector<std::string> lit = {"▁Quelqu'un", "▁lit", "▁un", "▁livre", "."};
  const std::vector<std::string> reads = {"▁Someone", "▁reads", "▁a", "▁book", "."};
  EXPECT_EQ(insert(reads, place_pass_through(source, lit, reads, {0, 1, 2, 3})), "Mr. Dupont reads a book.");
  // Without a stand-in, placed after the word before: "Frau Müller" in a German source.
  source.text = "Ein Hund läuft zu Frau Müller.";
  source.pass_through = {{"Frau Müller", 3, ""}};
  const std::vector<std::string> zu = {"▁Ein", "▁Hund", "▁läuft", "▁zu", "."};
  const std::vector<std::string> runs = {"▁A", "▁dog", "▁runs", "▁to", "."};
  EXPECT_EQ(insert(runs, place_pass_through(source, zu, runs, {0, 1, 2, 3})), "A dog runs to Ms. Müller.");
  // A title of another language than the source's stays: "Mr. Bean" in German text.
  source.text = "Ein Hund läuft zu Mr. Bean.";
  source.pass_through = {{"Mr. Bean", 3, ""}};
  EXPECT_EQ(insert(runs, place_pass_through(source, zu, runs, {0, 1, 2, 3})), "A dog runs to Mr. Bean.");
}

TEST(PlacePassThrough, OrdinalsTheTranslationsWayButInAName) {
  // "He finished 1st in the race." read as "He finished in the race."
  PreparedSource source;
  source.pass_through = {{"1st", 1, ""}};
  const std::vector<std::string> finished = {"▁He", "▁finished", "▁in", "▁the", "▁race", "."};
  const std::vector<std::string> rennen = {"▁Er", "▁wurde", "▁im", "▁Rennen", "."};
  EXPECT_EQ(insert(rennen, place_pass_through(source, finished, rennen, {0, 1, 2, 2, 3})), "Er wurde 1. im Rennen.");
  // "A sign reads 42nd Street." read as "A sign reads Street.": part of a name, kept.
  source.pass_through = {{"42nd", 2, ""}};
  const std::vector<std::string> street = {"▁A", "▁sign", "▁reads", "▁Street", "."};
  const std::vector<std::string> schild = {"▁Ein", "▁Schild", "▁zeigt", "▁die", "▁Street", "."};
  EXPECT_EQ(insert(schild, place_pass_through(source, street, schild, {0, 1, 2, 4})), "Ein Schild zeigt 42nd die Street.");
  // A span opening the sentence reads the source's own capital after it, not the model's: "3rd
  // place goes to Tom." read as "Place goes to Tom." writes its ordinal ("42nd Street" would not).
  PreparedSource third;
  third.text = "3rd place goes to Tom.";
  third.pass_through = {{"3rd", -1, ""}};
  const std::vector<std::string> place = {"▁Place", "▁goes", "▁to", "▁Tom", "."};
  const std::vector<std::string> platz = {"▁Der", "▁Platz", "▁geht", "▁an", "▁Tom", "."};
  EXPECT_EQ(insert(platz, place_pass_through(third, place, platz, {1, 2, 3, 4})), "Der 3. Platz geht an Tom.");
  third.text = "42nd Street is busy.";
  third.pass_through = {{"42nd", -1, ""}};
  const std::vector<std::string> busy = {"▁Street", "▁is", "▁busy", "."};
  const std::vector<std::string> strasse = {"▁Street", "▁ist", "▁belebt", "."};
  EXPECT_EQ(insert(strasse, place_pass_through(third, busy, strasse, {0, 1, 2})), "42nd Street ist belebt.");
}

TEST(PlacePassThrough, QuotationMarksAroundTheTranslationOfWhatTheyQuoted) {
  // "A man in "street clothes" dances." read as "A man in street clothes dances."
  PreparedSource source;
  source.pass_through = {{"\"", 2, "", true}, {"\"", 4, "", false}};
  const std::vector<std::string> read = {"▁A", "▁man", "▁in", "▁street", "▁clothes", "▁dances", "."};
  const std::vector<std::string> german = {"▁Ein", "▁Mann", "▁in", "▁Straßen", "kleidung", "▁tanzt", "."};
  EXPECT_EQ(insert(german, place_pass_through(source, read, german, {0, 1, 2, 3, 3, 4})),
            "Ein Mann in „Straßenkleidung“ tanzt.");
  // Turned around by the translation ("tenue" for "clothes" before "rue" for "street"): around both.
  const std::vector<std::string> french = {"▁Un", "▁homme", "▁en", "▁tenue", "▁de", "▁rue", "▁danse", "."};
  EXPECT_EQ(insert(french, place_pass_through(source, read, french, {0, 1, 2, 5, 3, 6})),
            "Un homme en \"tenue de rue\" danse.");
  // Turned around and next to each other: the closing mark after the word right before the opening one's.
  const std::vector<std::string> english = {"▁A", "▁man", "▁in", "▁a", "▁street", "▁outfit", "▁dances", "."};
  EXPECT_EQ(insert(english, place_pass_through(source, read, english, {0, 1, 2, 5, 4, 6})),
            "A man in a \"street outfit\" dances.");
}

TEST(PlacePassThrough, ClockTimesTheTranslationsWay) {
  // "Treffen um 20 Uhr." read as "Treffen um."
  PreparedSource source;
  source.pass_through = {{"20 Uhr", 1, ""}};
  const std::vector<std::string> um = {"▁Treffen", "▁um", "."};
  const std::vector<std::string> english = {"▁The", "▁meeting", "▁is", "▁at", "."};
  EXPECT_EQ(insert(english, place_pass_through(source, um, english, {1, 3})), "The meeting is at 8 p.m.");
  const std::vector<std::string> french = {"▁La", "▁réunion", "▁est", "▁à", "."};
  EXPECT_EQ(insert(french, place_pass_through(source, um, french, {1, 3})), "La réunion est à 20 h.");
  // A range, whole: "Das Museum ist von 10 bis 20 Uhr offen." read as "Das Museum ist offen."
  source.pass_through = {{"von 10 bis 20 Uhr", 2, ""}};
  const std::vector<std::string> offen = {"▁Das", "▁Museum", "▁ist", "▁offen", "."};
  const std::vector<std::string> open = {"▁The", "▁museum", "▁is", "▁open", "."};
  EXPECT_EQ(insert(open, place_pass_through(source, offen, open, {0, 1, 2, 3})), "The museum is from 10 a.m. to 8 p.m. open.");
  source.pass_through = {{"Montag, von 10 bis 20 Uhr", -1, ""}};  // merged with a weekday, opening the translation
  EXPECT_EQ(insert(open, place_pass_through(source, offen, open, {0, 1, 2, 3})),
            "Monday, from 10 a.m. to 8 p.m. the museum is open.");
  source.pass_through = {{"von 10 bis 20 Uhr", -1, ""}};
  EXPECT_EQ(insert(open, place_pass_through(source, offen, open, {0, 1, 2, 3})), "From 10 a.m. to 8 p.m. the museum is open.");
  source.pass_through = {{"von Montag bis Freitag, 10-20 Uhr", 2, ""}};  // weekdays too
  EXPECT_EQ(insert(open, place_pass_through(source, offen, open, {0, 1, 2, 3})),
            "The museum is from Monday to Friday, 10 a.m.-8 p.m. open.");
  const std::vector<std::string> ouvert = {"▁Le", "▁musée", "▁est", "▁ouvert", "."};
  EXPECT_EQ(insert(ouvert, place_pass_through(source, offen, ouvert, {0, 1, 2, 3})),
            "Le musée est du lundi au vendredi, 10 h-20 h ouvert.");
  source.pass_through = {{"12 Euro", 2, ""}};  // an amount of money
  EXPECT_EQ(insert(open, place_pass_through(source, offen, open, {0, 1, 2, 3})), "The museum is 12 euros open.");
}

TEST(PlacePassThrough, AWeekdayAfterANameAndAClockTime) {
  // "I meet Mr. Smith on Friday at 5 p.m. Monday to Friday." read as "I meet.": the name stays,
  // the weekday after its preposition does not, the title is French; no sentence opens after "p.m."
  // before a weekday.
  PreparedSource source;
  source.text = "I meet Mr. Smith on Friday, at 5 p.m. Monday to Friday.";
  source.pass_through = {{"Mr. Smith on Friday, at 5 p.m. Monday to Friday", 1, ""}};
  const std::vector<std::string> meet = {"▁I", "▁meet", "."};
  const std::vector<std::string> rencontre = {"▁Je", "▁rencontre", "."};
  EXPECT_EQ(insert(rencontre, place_pass_through(source, meet, rencontre, {0, 1}, Language::french)),
            "Je rencontre M. Smith vendredi, à 17 h du lundi au vendredi.");
}

TEST(PlacePassThrough, APhraseOfTimeOpeningTheSourceOpensTheTranslation) {
  // "Am 3. Oktober feiern viele Menschen." read as "feiern viele Menschen.": "feiern" is aligned
  // with "gathering", after the model's article ("A on October 3 gathering …").
  PreparedSource source;
  source.pass_through = {{"Am 3. Oktober", -1, ""}};
  const std::vector<std::string> feiern = {"▁feiern", "▁viele", "▁Menschen", "."};
  const std::vector<std::string> gathering = {"▁A", "▁gathering", "▁of", "▁people", "."};
  EXPECT_EQ(insert(gathering, place_pass_through(source, feiern, gathering, {1, 2, 3})),
            "On October 3 a gathering of people.");
  // After a lone "▁" before a comma too: "Le 14 juillet, des gens regardent." read as "▁ , des gens regardent.".
  source.pass_through = {{"Le 14 juillet", 0, ""}};
  const std::vector<std::string> regardent = {"▁", ",", "▁des", "▁gens", "▁regardent", "."};
  const std::vector<std::string> watch = {"▁People", "▁are", "▁watching", "."};
  const auto knows = [](std::string_view word) { return word == "people"; };  // in lowercase: no name
  EXPECT_EQ(insert(watch, place_pass_through(source, regardent, watch, {0, 0, 0, 2}, Language::unknown, knows)),
            "On July 14 people are watching.");
  // Other spans go before the translation of the first source word, as before.
  source.pass_through = {{"3. Oktober", -1, ""}};
  EXPECT_EQ(insert(gathering, place_pass_through(source, feiern, gathering, {1, 2, 3})), "A October 3 gathering of people.");
}

TEST(PlacePassThrough, FrenchDurationsInHours) {
  // "La visite dure de 2 à 3 h." read as "La visite dure.": hours, not a range of clock times.
  PreparedSource source;
  source.text = "La visite dure de 2 à 3 h.";
  source.pass_through = {{"de 2 à 3 h", 2, ""}};
  const std::vector<std::string> dure = {"▁La", "▁visite", "▁dure", "."};
  const std::vector<std::string> lasts = {"▁The", "▁tour", "▁lasts", "."};
  EXPECT_EQ(insert(lasts, place_pass_through(source, dure, lasts, {0, 1, 2})), "The tour lasts 2 to 3 hours.");
  const std::vector<std::string> starts = {"▁La", "▁visite", "▁commence", "."};  // "commence de 2 à 3 h": times
  EXPECT_EQ(insert(lasts, place_pass_through(source, starts, lasts, {0, 1, 2})), "The tour lasts from 2:00 to 3:00.");
}

TEST(PlacePassThrough, NumbersTheTranslationsWay) {
  // "The shirt costs $12.99." read as "The shirt costs.": the German translation wrote "$12.99".
  PreparedSource source;
  source.text = "The shirt costs $12.99.";
  source.pass_through = {{"$12.99", 2, ""}};
  const std::vector<std::string> costs = {"▁The", "▁shirt", "▁costs", "."};
  const std::vector<std::string> kostet = {"▁Das", "▁Hemd", "▁kostet", "."};
  EXPECT_EQ(insert(kostet, place_pass_through(source, costs, kostet, {0, 1, 2})), "Das Hemd kostet 12,99 $.");
  // A unit does not keep the number as written; a name beside it does ("Python 3.5").
  source.pass_through = {{"3.5 kg", 2, ""}};
  EXPECT_EQ(insert(kostet, place_pass_through(source, costs, kostet, {0, 1, 2})), "Das Hemd kostet 3,5 kg.");
  source.pass_through = {{"Python 3.5", 2, ""}};
  EXPECT_EQ(insert(kostet, place_pass_through(source, costs, kostet, {0, 1, 2})), "Das Hemd kostet Python 3.5.");
  // Nor does a web address (a review found "…/2024 %20report").
  source.pass_through = {{"example.com/v3.5/2024%20report", 2, ""}};
  EXPECT_EQ(insert(kostet, place_pass_through(source, costs, kostet, {0, 1, 2})),
            "Das Hemd kostet example.com/v3.5/2024%20report.");
  source.pass_through = {{"https://example.com/1.5", 2, ""}};
  EXPECT_EQ(insert(kostet, place_pass_through(source, costs, kostet, {0, 1, 2})), "Das Hemd kostet https://example.com/1.5.");
  // A British time after "at" is no decimal number ("We meet at 10.30.").
  const std::vector<std::string> meet = {"▁We", "▁meet", "▁at", "."};
  const std::vector<std::string> treffen = {"▁Wir", "▁treffen", "▁uns", "."};
  source.pass_through = {{"10.30", 2, ""}};
  EXPECT_EQ(insert(treffen, place_pass_through(source, meet, treffen, {0, 1, 2})), "Wir treffen uns 10.30.");
  source.pass_through = {{"10.5", 2, ""}};
  EXPECT_EQ(insert(treffen, place_pass_through(source, meet, treffen, {0, 1, 2})), "Wir treffen uns 10,5.");
  // German to English: the sign goes before the number.
  source.text = "Das Hemd kostet 12,99 €.";
  source.pass_through = {{"12,99 €", 2, ""}};
  EXPECT_EQ(insert(costs, place_pass_through(source, kostet, costs, {0, 1, 2})), "The shirt costs €12.99.");
  // A source with no function word ("1,000 people watch.") is the pair's other language, told by the
  // function words the vocabulary holds; without them, the number stays as written.
  source.text = "1,000 people watch.";
  source.pass_through = {{"1,000", -1, ""}};
  const std::vector<std::string> leute = {"▁Leute", "▁schauen", "."};
  const std::vector<std::string> people = {"▁People", "▁watch", "."};
  const auto knows = [](std::string_view word) { return word == "the" || word == "and" || word == "der" || word == "und"; };
  EXPECT_EQ(insert(leute, place_pass_through(source, people, leute, {0, 1}, Language::german, knows)), "1.000 Leute schauen.");
  EXPECT_EQ(insert(leute, place_pass_through(source, people, leute, {0, 1}, Language::german)), "1,000 Leute schauen.");
}

TEST(PlacePassThrough, WeeklyDaysTheTranslationsWay) {
  // "The museum is closed on Sundays." read as "The museum is closed."
  PreparedSource source;
  source.pass_through = {{"on Sundays", 3, ""}};
  const std::vector<std::string> closed = {"▁The", "▁museum", "▁is", "▁closed", "."};
  const std::vector<std::string> ferme = {"▁Le", "▁musée", "▁est", "▁fermé", "."};
  EXPECT_EQ(insert(ferme, place_pass_through(source, closed, ferme, {0, 1, 2, 3})), "Le musée est fermé le dimanche.");
  // "Sonntags die Kinder spielen." read as "Die Kinder spielen.": opening the translation, the
  // article after it loses its capital; a German noun keeps it.
  source.pass_through = {{"Sonntags", -1, ""}};
  const std::vector<std::string> die = {"▁Die", "▁Kinder", "▁spielen", "."};
  const std::vector<std::string> play = {"▁The", "▁children", "▁play", "."};
  EXPECT_EQ(insert(play, place_pass_through(source, die, play, {0, 1, 2})), "On Sundays the children play.");
  source.pass_through = {{"On Sundays", -1, ""}};  // "On Sundays children play."
  const std::vector<std::string> kinder = {"▁Kinder", "▁spielen", "."};
  EXPECT_EQ(insert(kinder, place_pass_through(source, {"▁Children", "▁play", "."}, kinder, {0, 1}, Language::german)),
            "Sonntags Kinder spielen.");
  EXPECT_EQ(insert(die, place_pass_through(source, play, die, {0, 1, 2}, Language::german)), "Sonntags die Kinder spielen.");
  // Not after an emoji: "😀 Ein Mann" (AfterTheTargetWordAlignedWithTheSourceWordBefore).
  // In English and French, a word the target vocabulary holds whole in lowercase loses its
  // capital too ("12 Hunde spielen." -> "12 dogs play."), not a name or "I".
  source.pass_through = {{"12", -1, ""}};
  const std::vector<std::string> hunde = {"▁Hunde", "▁spielen", "."};
  const auto knows = [](std::string_view word) { return word == "dogs" || word == "i" || word == "play"; };
  EXPECT_EQ(insert({"▁Dogs", "▁play", "."}, place_pass_through(source, hunde, {"▁Dogs", "▁play", "."}, {0, 1}, Language::english, knows)),
            "12 dogs play.");
  EXPECT_EQ(insert({"▁Dogs", "▁play", "."}, place_pass_through(source, hunde, {"▁Dogs", "▁play", "."}, {0, 1}, Language::english)),
            "12 Dogs play.");  // nothing known
  EXPECT_EQ(insert({"▁Paris", "▁dogs", "."}, place_pass_through(source, hunde, {"▁Paris", "▁dogs", "."}, {0, 1}, Language::english, knows)),
            "12 Paris dogs.");
  EXPECT_EQ(insert({"▁I", "▁play", "."}, place_pass_through(source, hunde, {"▁I", "▁play", "."}, {0, 1}, Language::english, knows)),
            "12 I play.");
  EXPECT_EQ(insert(kinder, place_pass_through(source, hunde, kinder, {0, 1}, Language::german, [](std::string_view) { return true; })),
            "12 Kinder spielen.");  // German nouns keep theirs
  // Two in one span, a sentence's end between them ("Wir arbeiten sonntags. Samstags nicht."
  // read as "Wir arbeiten. nicht."): each written, the second capitalised.
  source.pass_through = {{"sonntags. Samstags", 1, ""}};
  const std::vector<std::string> arbeiten = {"▁Wir", "▁arbeiten", ".", "▁nicht", "."};
  const std::vector<std::string> work = {"▁We", "▁work", ".", "▁Not", "."};
  EXPECT_EQ(insert(work, place_pass_through(source, arbeiten, work, {0, 1, 2}, Language::english)), "We work on Sundays. On Saturdays. Not.");
}

TEST(PlacePassThrough, MonthsAndWeekdaysInTheTranslationsLanguage) {
  // "Am Freitag spielen die Kinder." read as "Am spielen die Kinder."
  PreparedSource source;
  source.pass_through = {{"Freitag", 0, ""}};
  const std::vector<std::string> am = {"▁Am", "▁spielen", "▁die", "▁Kinder", "."};
  const std::vector<std::string> english = {"▁The", "▁children", "▁play", "▁on", "▁the", "▁beach", "."};
  EXPECT_EQ(insert(english, place_pass_through(source, am, english, {3, 2, 0, 1})), "The children play on Friday the beach.");
  const std::vector<std::string> french = {"▁Les", "▁enfants", "▁jouent", "▁sur", "▁la", "▁plage", "."};
  EXPECT_EQ(insert(french, place_pass_through(source, am, french, {3, 2, 0, 1})), "Les enfants jouent sur vendredi la plage.");
  // Opening the translation: capitalised, and the article after it loses its capital.
  source.pass_through = {{"Freitag", -1, ""}};
  EXPECT_EQ(insert(french, place_pass_through(source, am, french, {0, 2, 0, 1})), "Vendredi les enfants jouent sur la plage.");
  // French capitalised where a French sentence opens: "Lundi, les enfants jouent." read without it.
  PreparedSource lundi;
  lundi.text = "Lundi, les enfants jouent.";
  lundi.pass_through = {{"Lundi", -1, ""}};
  const std::vector<std::string> jouent = {",", "▁les", "▁enfants", "▁jouent", "."};
  const std::vector<std::string> play = {",", "▁the", "▁children", "▁are", "▁playing", "."};
  EXPECT_EQ(insert(play, place_pass_through(lundi, jouent, play, {0, 1, 2, 3})), "Monday, the children are playing.");
  lundi.pass_through = {{"Lundi", 0, ""}};  // after a lone "▁" before the comma: "▁ , les enfants jouent ."
  EXPECT_EQ(insert(play, place_pass_through(lundi, {"▁", ",", "▁les", "▁enfants", "▁jouent", "."}, play, {0, 1, 2, 3})),
            ", Monday the children are playing.");
  lundi.pass_through = {{"Lundi", -1, ""}};
  lundi.text = "Lundi, the children play.";  // not French: a name
  EXPECT_EQ(insert(play, place_pass_through(lundi, jouent, play, {0, 1, 2, 3})), "Lundi, the children are playing.");
  // A date, written the translation's way ("25. Mai" -> "May 25"); a name stays ("June Carter").
  source.pass_through = {{"25. Mai", 0, ""}};
  EXPECT_EQ(insert(english, place_pass_through(source, am, english, {3, 2, 0, 1})), "The children play on May 25 the beach.");
  // A month that is a first name too (in English) only after a preposition of time: "Das Fest
  // beginnt im Juni." read as "Das Fest beginnt im.", "The festival starts with June." as "… with.".
  const std::vector<std::string> im = {"▁Das", "▁Fest", "▁beginnt", "▁im", "."};
  const std::vector<std::string> starts = {"▁The", "▁festival", "▁starts", "▁in", "."};
  source.pass_through = {{"Juni", 3, ""}};
  EXPECT_EQ(insert(starts, place_pass_through(source, im, starts, {0, 1, 2, 3})), "The festival starts in June.");
  source.pass_through = {{"June", 3, ""}};
  const std::vector<std::string> french_starts = {"▁Le", "▁festival", "▁commence", "▁en", "."};
  EXPECT_EQ(insert(french_starts, place_pass_through(source, starts, french_starts, {0, 1, 2, 3})),
            "Le festival commence en juin.");
  EXPECT_EQ(insert(french_starts, place_pass_through(source, {"▁The", "▁festival", "▁starts", "▁with", "."}, french_starts,
                                                     {0, 1, 2, 3})),
            "Le festival commence en June.");
  source.pass_through = {{"June 5", 3, ""}};  // with a digit: a date wherever it stands
  EXPECT_EQ(insert(french_starts, place_pass_through(source, {"▁The", "▁festival", "▁starts", "▁with", "."}, french_starts,
                                                     {0, 1, 2, 3})),
            "Le festival commence en 5 juin.");
  source.pass_through = {{"Freitag, 14. Juli", 0, ""}};  // merged: rewritten part by part
  EXPECT_EQ(insert(english, place_pass_through(source, am, english, {3, 2, 0, 1})),
            "The children play on Friday, July 14 the beach.");
  source.pass_through = {{"June Carter", 0, ""}};
  EXPECT_EQ(insert(english, place_pass_through(source, am, english, {3, 2, 0, 1})),
            "The children play on June Carter the beach.");
  // A translation whose language is not recognised keeps the span as written.
  source.pass_through = {{"Freitag", 0, ""}};
  const std::vector<std::string> unknown = {"▁Kinder", "▁spielen", "."};
  EXPECT_EQ(insert(unknown, place_pass_through(source, am, unknown, {0, 1, 0, 0})), "Kinder Freitag spielen.");
  // Unless the caller knows it from the model's vocabulary (translation_language_fallback).
  EXPECT_EQ(insert(unknown, place_pass_through(source, am, unknown, {0, 1, 0, 0}, Language::english)), "Kinder Friday spielen.");
}

}  // namespace
}  // namespace attend
