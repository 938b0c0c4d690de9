// translate_document on the shipped en-de model: every sentence of a paragraph translated, none
// merged or dropped, the same as translating the sentences one per line; the structure around
// them kept; a face ending a sentence; progress and cancelling.
#include <gtest/gtest.h>

#include <optional>
#include <string>
#include <vector>

#include "attend/document.h"
#include "attend/error.h"
#include "attend/translator.h"

namespace attend {
namespace {

// Twelve caption-like sentences (the CLI, Node and page tests translate the same paragraph).
const std::vector<std::string> kTwelve = {
    "A dog runs through the snow.", "Two children are playing football on the beach.", "A woman is reading a book.",
    "A man in a blue shirt is riding a bike.", "Mr. Smith is cooking in the kitchen.", "Three girls are dancing on a stage.",
    "An old man sits on a bench.", "A black cat sleeps on the sofa.", "People are walking down a busy street.",
    "A boy jumps into the lake.", "Two women are talking at a table.", "A dog catches a ball in the park."};

Translator& translator() {
  static Translator t(Model::from_file(ATTEND_SHIPPED_MODEL));
  return t;
}

std::string joined(const std::vector<std::string>& sentences, const std::string& separator) {
  std::string out;
  for (const std::string& s : sentences) out += (out.empty() ? "" : separator) + s;
  return out;
}

std::vector<std::string> one_per_line(const std::vector<std::string>& sentences) {
  std::vector<std::string> out;
  for (const Translation& t : translator().translate_batch(sentences)) out.push_back(t.hypotheses[0].text);
  return out;
}

TEST(DocumentTranslation, TwelveSentencesAsOneParagraph) {
  const DocumentTranslation document = translate_document(translator(), joined(kTwelve, " "));
  ASSERT_EQ(document.sentences.size(), 12u);
  EXPECT_EQ(document.text, joined(one_per_line(kTwelve), " "));
}

TEST(DocumentTranslation, BlankLinesListsAndWhitespaceSurvive) {
  const std::string text = "  A dog runs through the snow. A woman is reading a book.\n\n- A black cat sleeps on the sofa.\n"
                           "2) A boy jumps into the lake.  \n";
  const std::vector<std::string> t = one_per_line({"A dog runs through the snow.", "A woman is reading a book.",
                                                   "A black cat sleeps on the sofa.", "A boy jumps into the lake."});
  EXPECT_EQ(translate_document(translator(), text).text,
            "  " + t[0] + " " + t[1] + "\n\n- " + t[2] + "\n2) " + t[3] + "  \n");
}

TEST(DocumentTranslation, ProgressAfterEachGroupAndCancelling) {
  std::vector<std::string> many;
  for (int i = 0; i < 5; ++i) many.insert(many.end(), kTwelve.begin(), kTwelve.end());
  std::vector<size_t> done;
  translate_document(translator(), joined(many, " "), {}, 2, [&](const DocumentProgress& p) {
    EXPECT_EQ(p.sentences, 60u);
    done.push_back(p.sentences_done);
    return true;
  });
  EXPECT_EQ(done, (std::vector<size_t>{16, 32, 48, 60}));  // groups of 8 batches of 2
  try {
    translate_document(translator(), joined(many, " "), {}, 2, [](const DocumentProgress&) { return false; });
    FAIL() << "not cancelled";
  } catch (const Error& error) {
    EXPECT_EQ(error.code(), ErrorCode::cancelled);
  }
}

// A face ends a sentence (text/faces.h): "Ein Hund spielt im Park. :) Ein Junge springt in den See. 😀",
// where ICU's one sentence lost words, and each face comes after the model's full stop.
TEST(DocumentTranslation, AFaceEndsASentenceAndFollowsItsFullStop) {
  const std::vector<std::string> two = {"A dog plays in the park :)", "A boy jumps into the lake 😀"};
  const DocumentTranslation document = translate_document(translator(), joined(two, " "));
  ASSERT_EQ(document.sentences.size(), 2u);
  const std::vector<std::string> t = one_per_line(two);
  EXPECT_EQ(document.text, joined(t, " "));
  EXPECT_EQ(t[0].substr(t[0].size() - 4), ". :)") << t[0];
  EXPECT_EQ(t[1].substr(t[1].size() - 6), ". 😀") << t[1];
}

TEST(DocumentTranslation, LongRunOnTextIsCutNotRefused) {
  std::string run_on;
  for (int i = 0; i < 120; ++i) run_on += "a dog and a cat and ";
  run_on += "a bird";  // ~600 tokens without a sentence end: more than the model's 256 positions
  const DocumentTranslation document = translate_document(translator(), run_on);
  EXPECT_GE(document.sentences.size(), 3u);
  for (const Translation& t : document.sentences) EXPECT_LE(t.source_ids.size(), 256u);
}

TEST(DocumentTranslation, Errors) {
  auto code_of = [](std::string_view text, int batch = 32) -> std::optional<ErrorCode> {
    try {
      translate_document(translator(), text, {}, batch);
    } catch (const Error& error) {
      return error.code();
    }
    return std::nullopt;
  };
  EXPECT_EQ(code_of(""), ErrorCode::empty_input);
  EXPECT_EQ(code_of(" \n\n ... \n"), ErrorCode::empty_input);
  EXPECT_EQ(code_of("\xE2\x80\x8B"), ErrorCode::empty_input);  // a zero-width space alone
  EXPECT_EQ(code_of("A dog runs. \xC3\x28"), ErrorCode::invalid_input);
  EXPECT_EQ(code_of("A dog runs.", 0), ErrorCode::invalid_argument);
  EXPECT_EQ(code_of("A dog runs. \xEF\xBB\xBF A cat sleeps."), std::nullopt);  // a byte-order mark between
}

}  // namespace
}  // namespace attend
