// place_elements and translate_block on hand-made alignments.
#include <gtest/gtest.h>

#include <chrono>
#include <string>
#include <vector>

#include "attend/html.h"
#include "html/block_translation.h"
#include "html/placement.h"

namespace attend {
namespace {

// The words of `text` cut at spaces.
std::vector<ByteRange> words(const std::string& text) {
  std::vector<ByteRange> out;
  for (size_t at = 0; at < text.size();) {
    const size_t end = std::min(text.find(' ', at), text.size());
    if (end > at) out.push_back(ByteRange{at, end});
    at = end + 1;
  }
  return out;
}

SentenceAlignment alignment(const std::string& source, const std::string& target, std::vector<std::vector<int>> aligned) {
  return SentenceAlignment{words(source), words(target), std::move(aligned)};
}

// The text each placed range covers.
std::vector<std::string> covered(const std::string& text, const std::vector<ByteRange>& ranges) {
  std::vector<std::string> out;
  for (const ByteRange& r : ranges) out.push_back(text.substr(r.begin, r.end - r.begin) + "@" + std::to_string(r.begin));
  return out;
}

const std::string kSource = "A red car drives past a small house";   // A(0) red(2) car(6) drives(10) past(17) a(22) small(24) house(30)
// Ein(0) rotes(4) Auto(10) fährt(15) an(22) einem(25) kleinen(31) Haus(39) vorbei(44)
const std::string kTarget = "Ein rotes Auto fährt an einem kleinen Haus vorbei";
// Word for word but "past" -> "an ... vorbei".
const SentenceAlignment kAligned = alignment(kSource, kTarget, {{0}, {1}, {2}, {3}, {4, 8}, {5}, {6}, {7}});

TEST(PlaceElements, AnElementCoversTheTargetWordsItsWordsAlignWith) {
  EXPECT_EQ(covered(kTarget, place_elements(kAligned, kSource, kTarget, {{2, 5, -1}, {24, 35, -1}})),
            (std::vector<std::string>{"rotes@4", "kleinen Haus@31"}));
  // The smallest run holding every aligned word: "past" aligns with "an" and "vorbei".
  EXPECT_EQ(covered(kTarget, place_elements(kAligned, kSource, kTarget, {{17, 21, -1}})),
            (std::vector<std::string>{"an einem kleinen Haus vorbei@22"}));
  // Part of a word is the word.
  EXPECT_EQ(covered(kTarget, place_elements(kAligned, kSource, kTarget, {{7, 8, -1}})), (std::vector<std::string>{"Auto@10"}));
  // A word's trailing punctuation is left out, unless the element holds the sentence's own.
  SentenceAlignment ended = alignment("A small house.", "Ein kleines Haus.", {{0}, {1}, {2}});
  ended.target.back().end -= 1;
  EXPECT_EQ(covered("Ein kleines Haus.", place_elements(ended, "A small house.", "Ein kleines Haus.", {{8, 13, -1}})),
            (std::vector<std::string>{"Haus@12"}));
  EXPECT_EQ(covered("Ein kleines Haus.", place_elements(ended, "A small house.", "Ein kleines Haus.", {{2, 14, -1}})),
            (std::vector<std::string>{"kleines Haus.@4"}));
}

TEST(PlaceElements, ChildrenStayInsideTheirParent) {
  // "a small house" -> "einem kleinen Haus"; the child "small" inside it.
  EXPECT_EQ(covered(kTarget, place_elements(kAligned, kSource, kTarget, {{22, 35, -1}, {24, 29, 0}})),
            (std::vector<std::string>{"einem kleinen Haus@25", "kleinen@31"}));
  // "car drives" -> "rotes Auto fährt" loses "rotes" to its sibling "red": its child "car" ->
  // "rotes Auto" keeps the part inside it ...
  SentenceAlignment a = kAligned;
  a.aligned[2] = {1, 2};
  EXPECT_EQ(covered(kTarget, place_elements(a, kSource, kTarget, {{2, 5, -1}, {6, 16, -1}, {6, 9, 1}})),
            (std::vector<std::string>{"rotes@4", "Auto fährt@10", "Auto@10"}));
  // ... and with nothing inside ("car" -> "rotes"), takes its parent's whole range.
  a.aligned[2] = {1};
  EXPECT_EQ(covered(kTarget, place_elements(a, kSource, kTarget, {{2, 5, -1}, {6, 16, -1}, {6, 9, 1}})),
            (std::vector<std::string>{"rotes@4", "Auto fährt@10", "Auto fährt@10"}));
}

TEST(PlaceElements, SiblingsDoNotOverlap) {
  SentenceAlignment a = kAligned;
  a.aligned[2] = {1, 2};  // "car" -> "rotes Auto", overlapping "red" -> "rotes"
  // The later sibling keeps its part after the earlier one ...
  EXPECT_EQ(covered(kTarget, place_elements(a, kSource, kTarget, {{2, 5, -1}, {6, 9, -1}})),
            (std::vector<std::string>{"rotes@4", "Auto@10"}));
  // ... or its part before it ...
  a.aligned[2] = {0, 1};
  EXPECT_EQ(covered(kTarget, place_elements(a, kSource, kTarget, {{2, 5, -1}, {6, 9, -1}})),
            (std::vector<std::string>{"rotes@4", "Ein@0"}));
  // ... or, with none, is empty right after it.
  a.aligned[2] = {1};
  EXPECT_EQ(covered(kTarget, place_elements(a, kSource, kTarget, {{2, 5, -1}, {6, 9, -1}})),
            (std::vector<std::string>{"rotes@4", "@9"}));
}

TEST(PlaceElements, ElementsOverNoWordGoAfterTheWordBefore) {
  // An image after "car", one at the start, one over spaces only after "house"; an image after
  // "car " goes after the space following "Auto".
  EXPECT_EQ(covered(kTarget, place_elements(kAligned, kSource, kTarget, {{9, 9, -1}, {0, 0, -1}, {35, 35, -1}, {10, 10, -1}})),
            (std::vector<std::string>{"@14", "@0", "@43", "@15"}));
  // One that would land inside a sibling goes to its end.
  SentenceAlignment a = kAligned;
  a.aligned[2] = {6};  // "car" -> "kleinen": an image after "car" would go after "kleinen", inside "einem kleinen Haus"
  EXPECT_EQ(covered(kTarget, place_elements(a, kSource, kTarget, {{22, 35, -1}, {9, 9, -1}})),
            (std::vector<std::string>{"einem kleinen Haus@25", "@43"}));
}

TEST(PlaceElements, WithoutTargetWordsEverythingIsEmptyAtTheStart) {
  const SentenceAlignment none{words(kSource), {}, std::vector<std::vector<int>>(8)};
  EXPECT_EQ(covered("", place_elements(none, kSource, "", {{2, 5, -1}, {9, 9, -1}})), (std::vector<std::string>{"@0", "@0"}));
}

TEST(ProportionalAlignment, SpreadsSourceWordsOverTargetWords) {
  EXPECT_EQ(proportional_alignment(4, 2), (std::vector<std::vector<int>>{{0}, {0}, {1}, {1}}));
  EXPECT_EQ(proportional_alignment(2, 4), (std::vector<std::vector<int>>{{0}, {2}}));
  EXPECT_EQ(proportional_alignment(2, 0), (std::vector<std::vector<int>>{{}, {}}));
}

TEST(AlignmentByWords, WordsWrittenAlikeAndTheWordsBeforeThemAlign) {
  using Words = std::vector<std::string_view>;
  using Aligned = std::vector<std::vector<int>>;
  // "Smith," with "Smith,"; "Mr" before it with "Herr"; "Dear" by position in what is left.
  EXPECT_EQ(alignment_by_words(Words{"Dear", "Mr", "Smith,"}, Words{"Sehr", "geehrter", "Herr", "Smith,"}),
            (Aligned{{0}, {2}, {3}}));
  // The punctuation around a word aside; in order only: the later "Brown" has no pair.
  EXPECT_EQ(alignment_by_words(Words{"Mrs.", "Brown", "reads."}, Words{"Frau", "Brown", "liest."}), (Aligned{{0}, {1}, {2}}));
  EXPECT_EQ(alignment_by_words(Words{"(Anna)", "and", "Tom"}, Words{"Tom", "und", "Anna"}), (Aligned{{}, {}, {0}}));
  // No words alike: by position alone.
  EXPECT_EQ(alignment_by_words(Words{"a", "b", "c", "d"}, Words{"x", "y"}), proportional_alignment(4, 2));
  EXPECT_EQ(alignment_by_words(Words{"a", "b"}, Words{}), (Aligned{{}, {}}));
}

// Block "A dog runs. The cat sleeps." translated sentence by sentence, word for word.
const std::string kBlock = "A dog runs. The cat sleeps.";
std::vector<TranslatedSentence> two_sentences() {
  return {TranslatedSentence{0, 11, "Ein Hund rennt.", alignment("A dog runs.", "Ein Hund rennt.", {{0}, {1}, {2}})},
          TranslatedSentence{12, 27, "Die Katze schläft.", alignment("The cat sleeps.", "Die Katze schläft.", {{0}, {1}, {2}})}};
}

std::string translated(std::vector<HtmlElement> elements) {
  return serialize_block(translate_block(HtmlBlock{kBlock, std::move(elements)}, two_sentences()));
}

TEST(TranslateBlock, ElementsOverWholeSentencesOrKeptTextMoveWithThem) {
  EXPECT_EQ(translated({{0, 27, "<b>", "</b>"}}), "<b>Ein Hund rennt. Die Katze schläft.</b>");
  EXPECT_EQ(translated({{12, 27, "<i>", "</i>"}, {11, 12, "<u>", "</u>"}}), "Ein Hund rennt.<u> </u><i>Die Katze schläft.</i>");
  EXPECT_EQ(translated({{27, 27, "<img>", ""}}), "Ein Hund rennt. Die Katze schläft.<img>");
}

TEST(TranslateBlock, ElementsInsideASentenceArePlacedByItsAlignment) {
  EXPECT_EQ(translated({{2, 5, "<b>", "</b>"}, {16, 19, "<a href=x>", "</a>"}, {18, 19, "<i>", "</i>", 1}}),
            "Ein <b>Hund</b> rennt. Die <a href=x><i>Katze</i></a> schläft.");
}

TEST(TranslateBlock, AnElementAcrossSentencesIsCutInOnePerSentence) {
  // "dog runs. The" -> "Hund rennt." and "Die"; the space between them is left out; the child
  // "runs. The" is cut too, each part inside its parent's part.
  EXPECT_EQ(translated({{2, 15, "<b>", "</b>"}, {6, 15, "<i>", "</i>", 0}}),
            "Ein <b>Hund <i>rennt.</i></b> <b><i>Die</i></b> Katze schläft.");
}

TEST(TranslateBlock, ASentenceTranslatedIntoItselfKeepsItsElements) {
  std::vector<TranslatedSentence> sentences = two_sentences();
  sentences[1].text = "The cat sleeps.";
  sentences[1].alignment = {};
  EXPECT_EQ(serialize_block(translate_block(HtmlBlock{kBlock, {{16, 19, "<b>", "</b>"}}}, sentences)),
            "Ein Hund rennt. The <b>cat</b> sleeps.");
}

TEST(TranslateBlock, ManySentencesAndElementsTakeLinearishTime) {
  // 50,000 images in the first sentence, then 20,000 sentences with an element each.
  HtmlBlock block;
  std::vector<TranslatedSentence> sentences;
  for (int i = 0; i < 50000; ++i) block.elements.push_back(HtmlElement{1, 1, "<img>", ""});
  for (int i = 0; i < 20000; ++i) {
    const size_t begin = block.text.size();
    block.text += "A dog runs. ";
    block.elements.push_back(HtmlElement{begin + 2, begin + 5, "<b>", "</b>"});
    sentences.push_back(TranslatedSentence{begin, begin + 11, "Ein Hund rennt.", alignment("A dog runs.", "Ein Hund rennt.", {{0}, {1}, {2}})});
  }
  const auto start = std::chrono::steady_clock::now();
  const HtmlBlock translated = translate_block(block, sentences);
  const std::string html = serialize_block(translated);
  EXPECT_LT(std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count(), 10.0);
  EXPECT_EQ(translated.elements.size(), 70000u);
  EXPECT_EQ(html.substr(0, 13), "Ein<img><img>");
}

TEST(TranslateBlock, HoldsMarkupWhenAnElementStartsOrEndsInside) {
  const std::vector<size_t> edges = element_edges(HtmlBlock{kBlock, {{2, 5, "<b>", "</b>"}, {12, 27, "<i>", "</i>"}}});
  EXPECT_TRUE(holds_markup(edges, 0, 11));
  EXPECT_FALSE(holds_markup(edges, 12, 27));
  EXPECT_FALSE(holds_markup(edges, 5, 12));
}

}  // namespace
}  // namespace attend
