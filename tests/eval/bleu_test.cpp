// Corpus BLEU against hand-computed statistics (formulas in native/eval/bleu.cpp).
#include <gtest/gtest.h>

#include <cmath>

#include "attend/error.h"
#include "metrics.h"

namespace attend::eval {
namespace {

constexpr double kTolerance = 1e-9;

TEST(CorpusBleu, IdenticalSentenceIs100) {
  // 6 tokens: matches 6/6, 5/5, 4/4, 3/3; BP = 1; BLEU = exp(log 100) = 100.
  const BleuScore s = corpus_bleu({"the cat sat on the mat"}, {"the cat sat on the mat"});
  EXPECT_NEAR(s.score, 100.0, kTolerance);
  EXPECT_EQ(s.correct, (std::array<int64_t, 4>{6, 5, 4, 3}));
  EXPECT_EQ(s.total, (std::array<int64_t, 4>{6, 5, 4, 3}));
  EXPECT_EQ(s.brevity_penalty, 1.0);
  EXPECT_EQ(format_bleu(s),
            "BLEU = 100.00 100.0/100.0/100.0/100.0 (BP = 1.000 ratio = 1.000 hyp_len = 6 "
            "ref_len = 6)");
}

TEST(CorpusBleu, EmptyHypothesisIsZero) {
  // sys_len = 0 < ref_len = 2, so BP = 0; no n-gram matches: BLEU = 0, precisions 0.
  const BleuScore s = corpus_bleu({""}, {"the cat"});
  EXPECT_EQ(s.score, 0.0);
  EXPECT_EQ(s.brevity_penalty, 0.0);
  EXPECT_EQ(s.ratio, 0.0);
  EXPECT_EQ(s.sys_len, 0);
  EXPECT_EQ(s.ref_len, 2);
  EXPECT_EQ(s.precisions, (std::array<double, 4>{0, 0, 0, 0}));
}

TEST(CorpusBleu, EmptyCorpusIsZero) {
  // sacreBLEU raises on an empty corpus; here every statistic is 0, BP = 1 (0 >= 0).
  const BleuScore s = corpus_bleu({}, {});
  EXPECT_EQ(s.score, 0.0);
  EXPECT_EQ(s.brevity_penalty, 1.0);
  EXPECT_EQ(s.ratio, 0.0);
  EXPECT_EQ(format_bleu(s),
            "BLEU = 0.00 0.0/0.0/0.0/0.0 (BP = 1.000 ratio = 0.000 hyp_len = 0 ref_len = 0)");
}

TEST(CorpusBleu, BrevityPenalty) {
  // hyp 5 tokens, ref 6: all n-grams match (5/5, 4/4, 3/3, 2/2);
  // BP = exp(1 - 6/5) = exp(-0.2) = 0.818730753..., BLEU = 100 * BP.
  const BleuScore s = corpus_bleu({"the cat sat on the"}, {"the cat sat on the mat"});
  EXPECT_NEAR(s.brevity_penalty, std::exp(-0.2), kTolerance);
  EXPECT_NEAR(s.score, 100.0 * std::exp(-0.2), kTolerance);
  EXPECT_EQ(format_bleu(s),
            "BLEU = 81.87 100.0/100.0/100.0/100.0 (BP = 0.819 ratio = 0.833 hyp_len = 5 "
            "ref_len = 6)");
}

TEST(CorpusBleu, ExpSmoothingOfZero4GramMatches) {
  // hyp "the cat sat down" / ref "the cat sat up":
  //   1-grams 3/4, 2-grams 2/3, 3-grams 1/2, 4-grams 0/1 -> p4 = 100 / (2 * 1) = 50.
  //   BLEU = (75 * 66.67 * 50 * 50)^(1/4) = 12500000^(1/4) = 59.46035575...
  const BleuScore s = corpus_bleu({"the cat sat down"}, {"the cat sat up"});
  EXPECT_EQ(s.correct, (std::array<int64_t, 4>{3, 2, 1, 0}));
  EXPECT_EQ(s.total, (std::array<int64_t, 4>{4, 3, 2, 1}));
  EXPECT_DOUBLE_EQ(s.precisions[3], 50.0);
  EXPECT_NEAR(s.score, std::pow(12500000.0, 0.25), kTolerance);
}

TEST(CorpusBleu, ExpSmoothingDoublesPerZeroOrder) {
  // hyp "a b c d x" / ref "a b y c d": 1-grams 4/5, 2-grams 2/4 ("a b", "c d"), 3-grams 0/3,
  // 4-grams 0/2 -> p3 = 100 / (2 * 3) = 16.67, p4 = 100 / (4 * 2) = 12.5.
  // BLEU = (80 * 50 * 16.67 * 12.5)^(1/4) = 30.21375397...
  const BleuScore s = corpus_bleu({"a b c d x"}, {"a b y c d"});
  EXPECT_DOUBLE_EQ(s.precisions[2], 100.0 / 6.0);
  EXPECT_DOUBLE_EQ(s.precisions[3], 12.5);
  EXPECT_NEAR(s.score, std::pow(80.0 * 50.0 * (100.0 / 6.0) * 12.5, 0.25), kTolerance);
}

TEST(CorpusBleu, NoFourGramsAtAllGivesZero) {
  // 3 tokens: total[4] = 0 stops the loop, p4 stays 0 and log(0) is taken as -9999999999.
  const BleuScore s = corpus_bleu({"a b c"}, {"a b c"});
  EXPECT_EQ(s.score, 0.0);
  EXPECT_EQ(s.precisions, (std::array<double, 4>{100, 100, 100, 0}));
}

TEST(CorpusBleu, LowercaseOption) {
  const std::vector<std::string> hyps = {"ÉCOLE À PARIS, ÇA VA"};
  const std::vector<std::string> refs = {"école à paris, ça va"};
  // Mixed case: only "," matches (1/6), no 2..4-gram matches: smoothed p2..p4 =
  // 100/(2*5), 100/(4*4), 100/(8*3) -> BLEU = (16.67 * 10 * 6.25 * 4.167)^(1/4) = 8.11669788...
  const BleuScore mixed = corpus_bleu(hyps, refs);
  EXPECT_EQ(mixed.correct, (std::array<int64_t, 4>{1, 0, 0, 0}));
  EXPECT_NEAR(mixed.score, std::pow((100.0 / 6) * 10 * 6.25 * (100.0 / 24), 0.25), kTolerance);
  const BleuScore lower = corpus_bleu(hyps, refs, BleuOptions{true});
  EXPECT_NEAR(lower.score, 100.0, kTolerance);
}

TEST(CorpusBleu, Signature) {
  EXPECT_EQ(bleu_signature({}),
            "nrefs:1|case:mixed|eff:no|tok:13a|smooth:exp|version:attend-sacrebleu2-compatible");
  EXPECT_EQ(bleu_signature(BleuOptions{true}),
            "nrefs:1|case:lc|eff:no|tok:13a|smooth:exp|version:attend-sacrebleu2-compatible");
}

TEST(CorpusBleu, BadInputThrowsTypedErrors) {
  try {
    corpus_bleu({"a", "b"}, {"a"});
    FAIL() << "expected attend::Error";
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ErrorCode::invalid_argument);
    EXPECT_NE(std::string(e.what()).find("2 vs 1"), std::string::npos) << e.what();
  }
  try {
    corpus_bleu({"ok", "bad \xFF"}, {"ok", "ok"});
    FAIL() << "expected attend::Error";
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ErrorCode::invalid_input);
    EXPECT_NE(std::string(e.what()).find("hypothesis line 2"), std::string::npos) << e.what();
  }
}

// A small German/French corpus. Expected values come from a throwaway Python script (not
// committed) that applies the mteval-v13a regexes with Python's `re`, str.lower() and
// collections.Counter, and the formulas of bleu.cpp; they were not produced by sacreBLEU.
const std::vector<std::string> kHyps = {
    "Die Katze saß auf der Matte.",
    "Er kaufte 3,5 Kilo Äpfel für 12.50 €.",
    "« C'est très-bien », dit-il à l'École.",
    "ÜBER DEN WOLKEN muss die Freiheit grenzenlos sein",
    "The 2-3 weeks &amp; (maybe) more!"};
const std::vector<std::string> kRefs = {
    "Die Katze saß auf der Matte .",
    "Er hat 3,5 kg Äpfel für 12,50 € gekauft.",
    "« C'est très bien », a-t-il dit à l'école.",
    "Über den Wolken muss die Freiheit wohl grenzenlos sein.",
    "The 2-3 weeks & (perhaps) more !"};

TEST(CorpusBleu, SmallCorpusMatchesPythonFormulas) {
  const BleuScore s = corpus_bleu(kHyps, kRefs);
  EXPECT_EQ(s.correct, (std::array<int64_t, 4>{34, 20, 12, 8}));
  EXPECT_EQ(s.total, (std::array<int64_t, 4>{44, 39, 34, 29}));
  EXPECT_EQ(s.sys_len, 44);
  EXPECT_EQ(s.ref_len, 49);
  EXPECT_NEAR(s.brevity_penalty, 0.8925824723203238, kTolerance);
  EXPECT_NEAR(s.score, 39.55895777958078, kTolerance);
  EXPECT_EQ(format_bleu(s),
            "BLEU = 39.56 77.3/51.3/35.3/27.6 (BP = 0.893 ratio = 0.898 hyp_len = 44 "
            "ref_len = 49)");

  const BleuScore lower = corpus_bleu(kHyps, kRefs, BleuOptions{true});
  EXPECT_EQ(lower.correct, (std::array<int64_t, 4>{38, 25, 16, 11}));
  EXPECT_NEAR(lower.score, 50.04479020811112, kTolerance);
}


// Sentence BLEU: the corpus formula on one segment, the mean over the effective order.

TEST(SentenceBleu, IdenticalSentenceIs100) {
  EXPECT_NEAR(sentence_bleu("the cat sat on the mat", "the cat sat on the mat").score, 100.0, kTolerance);
}

TEST(SentenceBleu, ShortHypothesisUsesItsOrdersOnly) {
  // hyp "the cat" (2 tokens), ref "the cat sat" (3): p1 = 2/2, p2 = 1/1, no 3- or 4-grams, so the
  // mean is over 2 orders: exp((log 100 + log 100) / 2) = 100; BP = exp(1 - 3/2).
  const BleuScore s = sentence_bleu("the cat", "the cat sat");
  EXPECT_NEAR(s.score, 100.0 * std::exp(-0.5), kTolerance);
  EXPECT_EQ(s.total, (std::array<int64_t, 4>{2, 1, 0, 0}));
  // The corpus score of the same segment averages over 4 orders, two of them log(0): 0.
  EXPECT_EQ(corpus_bleu({"the cat"}, {"the cat sat"}).score, 0.0);
}

TEST(SentenceBleu, ExpSmoothingOfAZeroOrder) {
  // hyp "cat the", ref "the cat": p1 = 2/2; no bigram matches, p2 = 100 / (2 · 1) = 50;
  // BLEU = exp((log 100 + log 50) / 2) = sqrt(5000).
  EXPECT_NEAR(sentence_bleu("cat the", "the cat").score, std::sqrt(5000.0), kTolerance);
}

TEST(SentenceBleu, NoMatchesOrEmptyIsZero) {
  EXPECT_EQ(sentence_bleu("dog", "the cat").score, 0.0);
  EXPECT_EQ(sentence_bleu("", "the cat").score, 0.0);
  EXPECT_EQ(sentence_bleu("the cat", "").score, 0.0);
}

TEST(SentenceBleu, InvalidUtf8Throws) {
  try {
    sentence_bleu("bad \xff", "the cat");
    FAIL() << "no error";
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ErrorCode::invalid_input);
  }
}

}  // namespace
}  // namespace attend::eval
