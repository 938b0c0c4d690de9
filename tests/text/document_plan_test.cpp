// plan_document with ICU's sentence breaks: the splitting corpus, Multi30k lines joined into
// paragraphs, and the rules plan_document adds to UAX #29 one by one.
#include <gtest/gtest.h>
#include <zlib.h>

#include <fstream>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "attend/document.h"
#include "attend/error.h"

namespace attend {
namespace {

// The sentences of English text (or of `language`'s), planned with `check`.
std::vector<std::string> sentences_of(std::string_view text, const SentenceCheck& check = {}, const std::string& language = "en") {
  PlanOptions options;
  options.check = check;
  options.language = language;
  std::vector<std::string> out;
  for (const DocumentSegment& s : plan_document(text, sentence_breaks(text, language), options)) {
    if (s.translate) out.emplace_back(text.substr(s.begin, s.end - s.begin));
  }
  return out;
}

std::vector<std::string> gzip_lines(const std::string& path) {
  gzFile file = gzopen(path.c_str(), "rb");
  if (file == nullptr) throw std::runtime_error("cannot open " + path);
  std::string text;
  char buffer[1 << 16];
  for (int n; (n = gzread(file, buffer, sizeof buffer)) > 0;) text.append(buffer, n);
  gzclose(file);
  std::vector<std::string> lines;
  for (size_t start = 0, end; start < text.size(); start = end + 1) {
    end = text.find('\n', start);
    if (end == std::string::npos) end = text.size();
    lines.push_back(text.substr(start, end - start));
  }
  return lines;
}

TEST(DocumentPlan, SplittingCorpus) {
  std::ifstream file(ATTEND_SPLITTING_CORPUS);
  const nlohmann::json corpus = nlohmann::json::parse(file);
  ASSERT_GE(corpus.size(), 25u);
  for (const auto& c : corpus) {
    if (c.value("caption_rules", false)) continue;  // the caption layer's phrases: tests/caption/letter_plan_test.cpp
    EXPECT_EQ(sentences_of(c["text"].get<std::string>(), {}, c.value("language", "en")),
              c["sentences"].get<std::vector<std::string>>())
        << c["name"];
  }
}

// Multi30k lines that end a sentence, joined five at a time into paragraphs, come back as the lines.
TEST(DocumentPlan, Multi30kLinesJoinedIntoParagraphs) {
  const std::pair<const char*, const char*> files[] = {
      {"val.en.gz", "en"}, {"val.de.gz", "de"}, {"val.fr.gz", "fr"}, {"test_2016_flickr.en.gz", "en"}};
  for (const auto& [file, language] : files) {
    std::vector<std::string> lines;
    for (std::string& line : gzip_lines(std::string(ATTEND_MULTI30K) + "/" + file)) {
      const bool ends_sentence = !line.empty() && std::string_view(".!?").find(line.back()) != std::string::npos;
      if (ends_sentence && std::isupper(static_cast<unsigned char>(line[0]))) lines.push_back(std::move(line));
    }
    ASSERT_GT(lines.size(), 900u) << file;
    for (size_t first = 0; first < lines.size(); first += 5) {
      const std::vector<std::string> expected(lines.begin() + first, lines.begin() + std::min(lines.size(), first + 5));
      std::string paragraph;
      for (const std::string& line : expected) paragraph += (paragraph.empty() ? "" : " ") + line;
      ASSERT_EQ(sentences_of(paragraph, {}, language), expected) << file << ", lines from " << first;
    }
  }
}

TEST(DocumentPlan, SegmentsCoverTheTextInOrder) {
  const std::string text = "  - A dog runs. A cat sleeps.  \n\n1. Mr. Smith waves!\r\n***\n";
  const std::vector<DocumentSegment> segments = plan_document(text, sentence_breaks(text));
  size_t at = 0;
  for (const DocumentSegment& s : segments) {
    EXPECT_EQ(s.begin, at);
    EXPECT_LT(s.begin, s.end);
    at = s.end;
  }
  EXPECT_EQ(at, text.size());
  EXPECT_EQ(assemble_document(text, segments, {"<1>", "<2>", "<3>"}), "  - <1> <2>  \n\n1. <3>\r\n***\n");
}

TEST(DocumentPlan, AssembleNeedsOneTranslationPerSentence) {
  const std::string text = "A dog runs. A cat sleeps.";
  const auto segments = plan_document(text, sentence_breaks(text));
  try {
    assemble_document(text, segments, {"one"});
    FAIL() << "no error for a missing translation";
  } catch (const Error& error) {
    EXPECT_EQ(error.code(), ErrorCode::invalid_argument);
  }
}

TEST(DocumentPlan, EmptyAndBlankDocuments) {
  EXPECT_TRUE(plan_document("", {}).empty());
  const std::string blank = " \n\t\n";
  const auto segments = plan_document(blank, sentence_breaks(blank));
  ASSERT_EQ(segments.size(), 1u);
  EXPECT_FALSE(segments[0].translate);
}

TEST(DocumentPlan, AnEnumeratorInsideALineIsKeptWithTheBlanksAfterIt) {
  // Found by fuzz.document: blanks other than spaces after "2) " stayed in the sentence.
  const std::string text = "A dog runs. 2) \v\fA cat sleeps. (3)\t A bird sings.";
  std::vector<std::string> sentences;
  for (const DocumentSegment& s : plan_document(text, {12, 31})) {
    if (s.translate) sentences.emplace_back(text.substr(s.begin, s.end - s.begin));
  }
  EXPECT_EQ(sentences, (std::vector<std::string>{"A dog runs.", "A cat sleeps.", "A bird sings."}));
}

TEST(DocumentPlan, WithoutBreaksEachLineIsOneSentence) {
  const std::string text = "A dog runs. A cat sleeps.\nA bird sings.";
  std::vector<std::string> sentences;
  for (const DocumentSegment& s : plan_document(text, {})) {
    if (s.translate) sentences.emplace_back(text.substr(s.begin, s.end - s.begin));
  }
  EXPECT_EQ(sentences, (std::vector<std::string>{"A dog runs. A cat sleeps.", "A bird sings."}));
}

TEST(DocumentPlan, SentencesTheModelFindsEmptyAreKept) {
  const std::string text = "A dog runs.\n\xEF\xBB\xBF\nA cat sleeps.";  // a byte-order mark alone between them
  const SentenceCheck empty_if_invisible = [](std::string_view s) {
    return s.find("\xEF\xBB\xBF") == 0 ? SentenceFit::empty : SentenceFit::whole;
  };
  EXPECT_EQ(sentences_of(text, empty_if_invisible), (std::vector<std::string>{"A dog runs.", "A cat sleeps."}));
}

// A sentence ends at a number's dot in English; in German the dot may mark an ordinal.
TEST(DocumentPlan, AbbreviationsAndOrdinalsAreTheTextLanguages) {
  const std::string ordinal = "Der 1. Platz geht an einen Jungen.";
  EXPECT_EQ(sentences_of(ordinal, {}, "de"), (std::vector<std::string>{ordinal}));
  EXPECT_EQ(sentences_of(ordinal, {}, "de-CH"), (std::vector<std::string>{ordinal}));
  EXPECT_EQ(sentences_of("He won 1. Place was his.", {}, "en"), (std::vector<std::string>{"He won 1.", "Place was his."}));
  EXPECT_EQ(sentences_of(ordinal, {}, "en"), (std::vector<std::string>{"Der 1.", "Platz geht an einen Jungen."}));
  // "bzw." is German's; English text has no such word, and a language without a list takes every list.
  const std::string german = "Hut bzw. Mütze.";
  EXPECT_EQ(sentences_of(german, {}, "de"), (std::vector<std::string>{german}));
  EXPECT_EQ(sentences_of("Hut bzw. Mütze.", {}, "en"), (std::vector<std::string>{"Hut bzw.", "Mütze."}));
  EXPECT_EQ(sentences_of(german, {}, "nl"), (std::vector<std::string>{german}));
  EXPECT_EQ(sentences_of(german, {}, ""), (std::vector<std::string>{german}));
}

TEST(DocumentPlan, ABadLanguageCodeIsRefused) {
  try {
    sentence_breaks("A dog runs.", "not a code!");
    FAIL() << "a bad code was taken";
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ErrorCode::invalid_argument);
    EXPECT_NE(std::string(e.what()).find("not a code!"), std::string::npos) << e.what();
  }
}

TEST(DocumentPlan, BreaksInsideACharacterAreIgnored) {
  const std::string text = "Ein Bär läuft.";  // "ä" is two bytes: 5 is inside it
  EXPECT_EQ(plan_document(text, {5, 100}).size(), 1u);
}

// A sentence the model would not take whole is cut at the clause mark nearest its middle, then at spaces.
TEST(DocumentPlan, SentencesTooLongForTheModelAreCut) {
  auto at_most = [](size_t bytes) {
    return [bytes](std::string_view s) { return s.size() <= bytes ? SentenceFit::whole : SentenceFit::too_long; };
  };
  const SentenceCheck at_most_30_bytes = at_most(30);
  EXPECT_EQ(sentences_of("A man in a red shirt, with a hat, rides a bike.", at_most_30_bytes),
            (std::vector<std::string>{"A man in a red shirt,", "with a hat, rides a bike."}));
  const std::string words(200, 'a');
  for (const std::string& part : sentences_of(words + " " + words, at_most(64))) {
    EXPECT_LE(part.size(), 64u);
  }
}

}  // namespace
}  // namespace attend
