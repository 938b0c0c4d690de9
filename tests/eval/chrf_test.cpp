// Corpus chrF against hand-computed statistics (formulas in native/eval/chrf.cpp).
// F2 = 5 * P * R / (4 * P + R), P and R averaged over the orders with hyp > 0 and ref > 0.
#include <gtest/gtest.h>

#include "attend/error.h"
#include "metrics.h"

namespace attend::eval {
namespace {

constexpr double kTolerance = 1e-9;

TEST(CorpusChrf, IdenticalIs100) {
  // "abc": orders 1..3 have P = R = 1; orders 4..6 have no n-grams and are skipped.
  const ChrfScore s = corpus_chrf({"abc"}, {"abc"});
  EXPECT_NEAR(s.score, 100.0, kTolerance);
  ASSERT_EQ(s.stats.size(), 6u);
  EXPECT_EQ(s.stats[2].match, 1);
  EXPECT_EQ(s.stats[3].hyp, 0);
}

TEST(CorpusChrf, DisjointIsZero) {
  // P = R = 0 on orders 1..3, so P + R = 0 and chrF = 0.
  EXPECT_EQ(corpus_chrf({"abc"}, {"xyz"}).score, 0.0);
}

TEST(CorpusChrf, EmptyInputsAreZero) {
  EXPECT_EQ(corpus_chrf({}, {}).score, 0.0);
  EXPECT_EQ(corpus_chrf({""}, {"abc"}).score, 0.0);
  EXPECT_EQ(corpus_chrf({"abc"}, {""}).score, 0.0);
}

TEST(CorpusChrf, HandComputedPrefix) {
  // hyp "ab" / ref "abc": order 1: 2 hyp, 3 ref, 2 match; order 2: 1, 2, 1; order 3: no hyp.
  // P = (2/2 + 1/1) / 2 = 1, R = (2/3 + 1/2) / 2 = 7/12,
  // F2 = 5 * 7/12 / (4 + 7/12) = 35/55 = 7/11 -> 63.6363...
  EXPECT_NEAR(corpus_chrf({"ab"}, {"abc"}).score, 700.0 / 11.0, kTolerance);
}

TEST(CorpusChrf, SumsStatisticsOverTheCorpusWithoutWhitespace) {
  // "a b" -> "ab" vs "ab": order 1: 2,2,2; order 2: 1,1,1.
  // "cd" vs "ce":          order 1: 2,2,1; order 2: 1,1,0.
  // Corpus: order 1: 4,4,3; order 2: 2,2,1 -> P = R = (3/4 + 1/2) / 2 = 0.625 -> chrF 62.5.
  const ChrfScore s = corpus_chrf({"a b", "cd"}, {"ab", "ce"});
  EXPECT_NEAR(s.score, 62.5, kTolerance);
  EXPECT_EQ(s.stats[0].hyp, 4);
  EXPECT_EQ(s.stats[0].match, 3);
}

TEST(CorpusChrf, HypothesisCountIgnoredWhereReferenceHasNoNgrams) {
  // "abcd" vs "ab": orders 3, 4 of the reference are empty, so the hypothesis' 2 trigrams
  // and 1 four-gram are not counted. "xyz" vs "xyz": 3,3,3 / 2,2,2 / 1,1,1.
  // Corpus: order 1: 7,5,5; order 2: 5,3,3; order 3: 1,1,1; orders 4..6: none.
  // P = (5/7 + 3/5 + 1) / 3 = 27/35, R = 1, F2 = 5 * 27/35 / (4 * 27/35 + 1) = 135/143.
  const ChrfScore s = corpus_chrf({"abcd", "xyz"}, {"ab", "xyz"});
  EXPECT_EQ(s.stats[2].hyp, 1);
  EXPECT_NEAR(s.score, 13500.0 / 143.0, kTolerance);
}

TEST(CorpusChrf, WordOrderAndOptions) {
  ChrfOptions plus_plus;
  plus_plus.word_order = 2;
  const ChrfScore s = corpus_chrf({"Hello, world!"}, {"Hello, world!"}, plus_plus);
  ASSERT_EQ(s.stats.size(), 8u);
  // words: "Hello" "," "world" "!" -> 4 unigrams, 3 bigrams.
  EXPECT_EQ(s.stats[6].hyp, 4);
  EXPECT_EQ(s.stats[7].hyp, 3);
  EXPECT_NEAR(s.score, 100.0, kTolerance);
  EXPECT_EQ(format_chrf(s, plus_plus), "chrF2++ = 100.00");

  ChrfOptions lowercase;
  lowercase.lowercase = true;
  EXPECT_NEAR(corpus_chrf({"ÉTÉ"}, {"été"}, lowercase).score, 100.0, kTolerance);
  EXPECT_EQ(corpus_chrf({"ÉTÉ"}, {"été"}).score, 0.0);

  EXPECT_THROW(corpus_chrf({"a"}, {"a"}, ChrfOptions{0, 0, 2, false, false}), Error);
}

TEST(CorpusChrf, SignatureAndFormat) {
  EXPECT_EQ(chrf_signature({}),
            "nrefs:1|case:mixed|eff:yes|nc:6|nw:0|space:no|version:attend-sacrebleu2-compatible");
  EXPECT_EQ(format_chrf(corpus_chrf({"ab"}, {"abc"}), {}), "chrF2 = 63.64");
}

TEST(CorpusChrf, SmallCorpusMatchesPythonFormulas) {
  // Same corpus as bleu_test.cpp; expected value from the same throwaway Python script
  // (str.split() whitespace removal, Counter intersections, formulas of chrf.cpp).
  const std::vector<std::string> hyps = {
      "Die Katze saß auf der Matte.", "Er kaufte 3,5 Kilo Äpfel für 12.50 €.",
      "« C'est très-bien », dit-il à l'École.",
      "ÜBER DEN WOLKEN muss die Freiheit grenzenlos sein", "The 2-3 weeks &amp; (maybe) more!"};
  const std::vector<std::string> refs = {
      "Die Katze saß auf der Matte .", "Er hat 3,5 kg Äpfel für 12,50 € gekauft.",
      "« C'est très bien », a-t-il dit à l'école.",
      "Über den Wolken muss die Freiheit wohl grenzenlos sein.",
      "The 2-3 weeks & (perhaps) more !"};
  const ChrfScore s = corpus_chrf(hyps, refs);
  EXPECT_EQ(s.stats[0].hyp, 155);
  EXPECT_EQ(s.stats[0].ref, 162);
  EXPECT_EQ(s.stats[0].match, 132);
  EXPECT_EQ(s.stats[5].match, 56);
  EXPECT_NEAR(s.score, 58.96902459901753, kTolerance);
}

}  // namespace
}  // namespace attend::eval
