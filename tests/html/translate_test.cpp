// translate_html on the shipped en-de model: markup kept around the right words, the rest of the
// fragment kept as it was, and errors.
#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <vector>

#include "attend/error.h"
#include "attend/html.h"
#include "html/sentence_alignment.h"
#include "model/model_impl.h"

namespace attend {
namespace {

Translator& shipped() {
  static Translator translator(Model::from_file(ATTEND_SHIPPED_MODEL));
  return translator;
}

TEST(TranslateHtml, InlineMarkupGoesAroundTheAlignedWords) {
  const HtmlTranslation t = translate_html(
      shipped(), "<p>A <b>red</b> car drives past <a href=\"/x\">a <i>small</i> house</a>.</p><ul><li>Two dogs play.</li></ul>");
  EXPECT_EQ(t.html, "<p>Ein <b>rotes</b> Auto fährt an <a href=\"/x\">einem <i>kleinen</i> Haus</a> vorbei.</p>"
                    "<ul><li>Zwei Hunde spielen.</li></ul>");
  const HtmlTranslation woman = translate_html(
      shipped(), "<p>The <em>young</em> woman is walking a <strong>brown dog</strong> on the beach.</p>");
  EXPECT_EQ(woman.html, "<p>Die <em>junge</em> Frau geht am Strand einen <strong>braunen Hund</strong> entlang.</p>");
}

TEST(TranslateHtml, PassedThroughNumbersAreWordsOfTheirOwn) {
  // The model never sees "512": it is put into the translation, and the element goes around it.
  const HtmlTranslation t = translate_html(shipped(), "<p>A man with <b>512</b> on his <i>shirt</i>.</p>");
  EXPECT_NE(t.html.find("<b>512</b>"), std::string::npos) << t.html;
  EXPECT_NE(t.html.find("<i>Hemd</i>"), std::string::npos) << t.html;
  // After a number word the model reads a stand-in ("4") in its place, and the markup is placed by
  // positions (html/sentence_alignment.h): the number is still kept, whole, in its element.
  const HtmlTranslation number = translate_html(shipped(), "<p>A man with the number <b>512</b> on his <i>shirt</i>.</p>");
  EXPECT_NE(number.html.find("512"), std::string::npos) << number.html;
  EXPECT_EQ(number.html.find("4"), std::string::npos) << number.html;
  EXPECT_NE(number.html.find("<i>"), std::string::npos) << number.html;
}

TEST(SentenceAlignment, PassThroughSpansAreWordsAlignedWithThemselves) {
  Translator& translator = shipped();
  const Model::Impl& model = translator.model().impl();
  TranslateOptions options;
  options.capture_attention = true;
  for (const std::string sentence : {"A man 😀 rides a bike in 北京.", "2000 people watch 12 dogs.", "A (小明) dog runs.", "Two 55 5 dogs run.",
                                     "A red car drives past a small house."}) {
    const PreparedSource source = translator.prepare(sentence);
    const Translation translation = translator.translate_prepared({source}, options)[0];
    const SentenceAlignment a = sentence_alignment(sentence, source, translation, *model.src_tokenizer, *model.tgt_tokenizer);
    EXPECT_FALSE(a.by_position) << sentence;
    const std::string& text = translation.hypotheses[0].text;
    for (const PassThrough& span : source.pass_through) {  // its source word aligns with exactly its own text
      size_t w = 0;
      while (w < a.source.size() && sentence.substr(a.source[w].begin, a.source[w].end - a.source[w].begin) != span.text) ++w;
      ASSERT_LT(w, a.source.size()) << span.text;
      ASSERT_EQ(a.aligned[w].size(), 1u);
      const ByteRange& target = a.target[a.aligned[w][0]];
      EXPECT_EQ(text.substr(target.begin, target.end - target.begin), span.text);
    }
  }
  // Without attention: words cut at spaces, aligned by position.
  const PreparedSource source = translator.prepare("A dog runs.");
  const Translation plain = translator.translate_prepared({source})[0];
  EXPECT_TRUE(sentence_alignment("A dog runs.", source, plain, *model.src_tokenizer, *model.tgt_tokenizer).by_position);
}

TEST(TranslateHtml, ATitleAndNameReadAsSomeoneKeepTheTextAndPlaceElementsByPosition) {
  const HtmlTranslation t = translate_html(shipped(), "<p>A woman talks to <b>Mrs. Brown</b>.</p>");
  ASSERT_EQ(t.sentences.size(), 1u);
  EXPECT_EQ(t.sentences[0].translation.hypotheses[0].text, shipped().translate("A woman talks to Mrs. Brown.").hypotheses[0].text);
  EXPECT_NE(t.html.find("Frau Brown"), std::string::npos) << t.html;
  EXPECT_EQ(t.html.find("jemand"), std::string::npos) << t.html;
}

TEST(TranslateHtml, AnElementOverTwoSentencesIsCutInTwo) {
  const HtmlTranslation t = translate_html(shipped(), "<p>A <b>man rides a bike. Two</b> dogs play.</p>");
  ASSERT_EQ(t.sentences.size(), 2u);
  EXPECT_EQ(t.html, "<p>Ein <b>Mann fährt auf einem Fahrrad.</b> <b>Zwei</b> Hunde spielen.</p>") << t.html;
}

TEST(TranslateHtml, AFragmentOfParagraphsAndAListKeepsItsStructure) {
  const std::string html =
      "<article>\n  <h2 class=\"title\">A <a href=\"/dogs\" title=\"Dogs and more dogs\">dog</a> story</h2>\n"
      "  <p>A brown dog runs through the grass. It carries a <b>stick</b> in its mouth.</p>\n"
      "  <script>const text = \"A dog.\";</script>\n"
      "  <p>Two children are playing in the <em>water</em>.<br>A dog watches them.</p>\n"
      "  <ul>\n    <li>A man sleeps.</li>\n    <li><!-- second -->A woman reads a <code>book</code>.</li>\n  </ul>\n"
      "</article>\n";
  const HtmlFragment source = parse_html(html);
  const HtmlTranslation t = translate_html(shipped(), html);
  const HtmlFragment translated = parse_html(t.html);
  // Every byte between blocks is kept: block tags with their attributes, whitespace, the script.
  EXPECT_EQ(translated.markup, source.markup);
  ASSERT_EQ(translated.blocks.size(), 5u);
  // The line break stays between the two lines' translations.
  EXPECT_NE(t.html.find("<br>"), std::string::npos);
  EXPECT_NE(t.html.find("title=\"Dogs and more dogs\">"), std::string::npos) << t.html;
  EXPECT_NE(t.html.find("<!-- second -->"), std::string::npos) << t.html;
  EXPECT_NE(t.html.find("<code>book</code>"), std::string::npos) << t.html;
  EXPECT_NE(t.html.find("<b>Stock</b>"), std::string::npos) << t.html;
  EXPECT_NE(t.html.find("<em>Wasser</em>"), std::string::npos) << t.html;
  // Each sentence is translated as it is without markup.
  ASSERT_EQ(t.sentences.size(), 7u);
  const std::vector<std::string> texts = block_texts(source);
  for (const HtmlSentence& s : t.sentences) {
    EXPECT_EQ(s.source, texts[s.block].substr(s.begin, s.end - s.begin));
    EXPECT_EQ(s.translation.hypotheses[0].text, shipped().translate(s.source).hypotheses[0].text) << s.source;
  }
  EXPECT_EQ(t.sentences[1].source, "A brown dog runs through the grass.");
}

TEST(TranslateHtml, AttentionIsCapturedForSentencesWithMarkupAndReturnedOnlyIfAsked) {
  const std::string html = "<p>A <b>dog</b> runs. A cat sleeps.</p>";
  const HtmlTranslation plain = translate_html(shipped(), html);
  ASSERT_EQ(plain.sentences.size(), 2u);
  EXPECT_FALSE(plain.sentences[0].translation.attention.has_value());
  TranslateOptions options;
  options.capture_attention = true;
  int steps_of_second = 0;
  options.on_step = [&](const StepEvent& e) {
    steps_of_second += e.sentence == 1;
    return true;
  };
  const HtmlTranslation captured = translate_html(shipped(), html, options);
  EXPECT_TRUE(captured.sentences[0].translation.attention.has_value());
  EXPECT_TRUE(captured.sentences[1].translation.attention.has_value());
  EXPECT_EQ(captured.html, plain.html);
  // on_step numbers the sentences in the fragment.
  EXPECT_EQ(steps_of_second, captured.sentences[1].translation.hypotheses[0].tokens);
}

TEST(TranslateHtml, UnreadableSentencesKeepTheirElements) {
  const HtmlTranslation t = translate_html(shipped(), "<p>这是<b>一本</b>书。</p>");
  EXPECT_EQ(t.html, "<p>这是<b>一本</b>书。</p>");
  // Compared with the text the sentence was cut from (whitespace as spaces), not as written.
  EXPECT_EQ(translate_html(shipped(), "<p>这是一本\n<b>很好的</b>书。</p>").html, "<p>这是一本 <b>很好的</b>书。</p>");
}

TEST(TranslateHtml, ASetPhrasesElementsArePlacedByPositionAndASignatureIsKept) {
  // The model does not run on "Dear Mr Smith,": no attention aligns its words, so its elements
  // go by position (docs/html.md), and the text is the table's.
  // The signature in the block after the closing is kept.
  const HtmlTranslation t = translate_html(shipped(), "<p>Dear <b>Mr Smith</b>,</p><p>Best regards,</p><p>Anna</p>");
  EXPECT_EQ(t.html, "<p>Sehr geehrter <b>Herr Smith</b>,</p><p>Mit freundlichen Grüßen</p><p>Anna</p>");
}

TEST(TranslateHtml, AGreetingBeforeACommaIsASentenceOfItsOwn) {
  // "Dear Ms. Jones," and "thank you!" are set phrases; whole, the model made "Drachen, Frau
  // Jones sieht zu!" of them.
  const HtmlTranslation t = translate_html(shipped(), "<p>Dear <b>Ms. Jones</b>, <i>thank you</i>!</p>");
  EXPECT_EQ(t.html, "<p>Sehr geehrte <b>Frau Jones</b>, <i>Danke</i>!</p>");
  EXPECT_EQ(t.sentences.size(), 2u);
}

TEST(TranslateHtml, AFragmentWithoutSentencesComesBackUnchanged) {
  for (const std::string html : {"", "  \n", "<img src=\"a.png\"><br><hr>", "<p>2024 - 42</p>", "<script>A dog.</script>"}) {
    const HtmlTranslation t = translate_html(shipped(), html);
    EXPECT_EQ(t.html, html);
    EXPECT_TRUE(t.sentences.empty());
  }
  // Unchanged as serialize_html writes it: references other than &amp; &lt; &gt; &nbsp; decoded.
  EXPECT_EQ(translate_html(shipped(), "<p>2024 &mdash; 42</p>").html, "<p>2024 \u2014 42</p>");
}

TEST(TranslateHtml, Errors) {
  try {
    translate_html(shipped(), "<p>A dog \xFF runs.</p>");
    FAIL() << "no error";
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ErrorCode::invalid_input);
  }
  const HtmlFragment two_blocks = parse_html("<p>A dog.</p><p>A cat.</p>");
  try {
    translate_html(shipped(), two_blocks, {{}});
    FAIL() << "no error";
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ErrorCode::invalid_argument);
    EXPECT_STREQ(e.what(), "translate_html: 1 lists of sentence breaks for 2 blocks");
  }
}

TEST(TranslateHtml, BreaksFromTheCallerCutTheSentences) {
  // Two steps, as the browser calls them: its own breaks (here none) for each block's text.
  const HtmlFragment fragment = parse_html("<p>A dog runs. A <b>cat</b> sleeps.</p>");
  EXPECT_EQ(translate_html(shipped(), fragment, {{}}).sentences.size(), 1u);
  EXPECT_EQ(translate_html(shipped(), fragment, {{12}}).sentences.size(), 2u);
}

}  // namespace
}  // namespace attend
