// other_language (CLD2, hinted with the model's source language) on real sentences: Multi30k's
// captions in their own language are almost never taken for another, and captions given to a model
// of another source language are found; the threshold kOtherLanguagePercent is measured here.
#include "detect/language_detection.h"

#include <zlib.h>

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace attend {
namespace {

std::vector<std::string> gzip_lines(const std::string& path) {
  gzFile file = gzopen(path.c_str(), "rb");
  if (file == nullptr) return {};
  std::string text;
  char buffer[1 << 16];
  for (int n; (n = gzread(file, buffer, sizeof buffer)) > 0;) text.append(buffer, n);
  gzclose(file);
  std::vector<std::string> lines;
  for (size_t start = 0; start < text.size();) {
    const size_t end = text.find('\n', start);
    lines.push_back(text.substr(start, end == std::string::npos ? std::string::npos : end - start));
    start = end == std::string::npos ? text.size() : end + 1;
  }
  return lines;
}

struct Corpus {
  const char* file;
  const char* language;
};
const Corpus kCorpora[] = {{"val.en.gz", "en"},
                           {"val.de.gz", "de"},
                           {"test_2016_flickr.en.gz", "en"},
                           {"test_2016_flickr.de.gz", "de"},
                           {"test_2016_flickr.fr.gz", "fr"}};

TEST(OtherLanguage, MultiThirtyKCaptionsInTheirOwnLanguageAreAlmostNeverFlagged) {
  for (const Corpus& corpus : kCorpora) {
    const auto lines = gzip_lines(std::string(ATTEND_MULTI30K) + "/" + corpus.file);
    ASSERT_GE(lines.size(), 1000u) << corpus.file;
    size_t flagged = 0;
    for (const std::string& line : lines) flagged += other_language(line, corpus.language).has_value();
    // Measured: 0 for val en and de and test en, 1 for test de (Norwegian) and fr (English).
    EXPECT_LE(flagged, 2u) << corpus.file;
  }
}

TEST(OtherLanguage, MultiThirtyKCaptionsGivenToAModelOfAnotherLanguageAreFound) {
  for (const Corpus& corpus : kCorpora) {
    const auto lines = gzip_lines(std::string(ATTEND_MULTI30K) + "/" + corpus.file);
    for (const char* reads : {"en", "de", "fr"}) {
      if (std::string(reads) == corpus.language) continue;
      size_t found = 0, named_right = 0;
      for (const std::string& line : lines) {
        const auto other = other_language(line, reads);
        found += other.has_value();
        named_right += other.has_value() && other->language == corpus.language;
      }
      // Measured: 969 to 1,013 of each 1,000 or 1,014 (96.9-99.9%).
      EXPECT_GE(found, lines.size() * 95 / 100) << corpus.file << " given to a model of " << reads;
      EXPECT_GE(named_right, found * 99 / 100) << corpus.file << " given to a model of " << reads;
    }
  }
}

TEST(OtherLanguage, TheIssuesGermanIntoAnEnglishModel) {
  const auto found = other_language("Ein Mann fährt auf einem Fahrrad die Straße hinunter.", "en");
  ASSERT_TRUE(found.has_value());
  EXPECT_EQ(found->language, "de");
  EXPECT_GE(found->confidence, kOtherLanguagePercent);
  EXPECT_FALSE(other_language("Ein Mann fährt auf einem Fahrrad die Straße hinunter.", "de").has_value());
}

TEST(OtherLanguage, TextMostlyInTheSourceLanguageOrWithoutLettersIsLeftAlone) {
  // A German title quoted in an English paragraph.
  EXPECT_FALSE(other_language("Two women are reading a book called \"Die Verwandlung\" on a bench in the park. "
                              "A man in a blue shirt is riding a bike past them.", "en").has_value());
  EXPECT_FALSE(other_language("", "en").has_value());
  EXPECT_FALSE(other_language("12:30 - 14:00", "en").has_value());
  EXPECT_FALSE(other_language("Ein Mann mit einem orangefarbenen Hut \xff\xfe starrt auf etwas.", "en").has_value());
}

}  // namespace
}  // namespace attend
