// parse_html, serialize_html and block_texts on hand-made fragments.
#include <gtest/gtest.h>

#include <string>

#include "attend/error.h"
#include "attend/html.h"

namespace attend {
namespace {

// The fragment's blocks' texts, joined by '|'.
std::string texts(const HtmlFragment& f) {
  std::string out;
  for (const HtmlBlock& block : f.blocks) out += (out.empty() ? "" : "|") + block.text;
  return out;
}

TEST(ParseHtml, BlocksInlineElementsAndTheMarkupBetween) {
  const std::string html = "<p>A <b>red</b> car drives past <a href=\"/x\">a <i>small</i> house</a>.</p>\n<ul><li>Two dogs play.</li></ul>";
  const HtmlFragment f = parse_html(html);
  ASSERT_EQ(f.blocks.size(), 2u);
  EXPECT_EQ(texts(f), "A red car drives past a small house.|Two dogs play.");
  EXPECT_EQ(f.markup, (std::vector<std::string>{"<p>", "</p>\n<ul><li>", "</li></ul>"}));
  const std::vector<HtmlElement>& e = f.blocks[0].elements;
  ASSERT_EQ(e.size(), 3u);
  EXPECT_EQ(f.blocks[0].text.substr(e[0].begin, e[0].end - e[0].begin), "red");
  EXPECT_EQ(e[0].open, "<b>");
  EXPECT_EQ(e[0].close, "</b>");
  EXPECT_EQ(f.blocks[0].text.substr(e[1].begin, e[1].end - e[1].begin), "a small house");
  EXPECT_EQ(f.blocks[0].text.substr(e[2].begin, e[2].end - e[2].begin), "small");
  EXPECT_EQ(e[2].parent, 1);
  EXPECT_EQ(serialize_html(f), html);
}

TEST(ParseHtml, CharacterReferencesAreDecodedAndEscapedBack) {
  const HtmlFragment f = parse_html("<p>Tom &amp; Jerry &lt;3 &quot;x&quot; &#39;y&#39; a&nbsp;b &#233;&#xE9; &euro; &bogus; &amp no</p>");
  EXPECT_EQ(texts(f), "Tom & Jerry <3 \"x\" 'y' a\u00A0b \u00E9\u00E9 \u20AC &bogus; &amp no");
  // & < > and the no-break space are written as references, the rest as characters.
  EXPECT_EQ(serialize_html(f), "<p>Tom &amp; Jerry &lt;3 \"x\" 'y' a&nbsp;b \u00E9\u00E9 \u20AC &amp;bogus; &amp;amp no</p>");
  EXPECT_EQ(texts(parse_html("&#0;&#xD800;&#99999999999;&#x110000;")), "\uFFFD\uFFFD\uFFFD\uFFFD");
}

TEST(ParseHtml, AttributesAreCopiedByteForByte) {
  const std::string open = "<a  HREF='/x?a=1&amp;b=2' title=\"1 > 0 &lt; 2\" data-x=y\tdisabled >";
  const HtmlFragment f = parse_html("<p>" + open + "link</A></p>");
  ASSERT_EQ(f.blocks[0].elements.size(), 1u);
  EXPECT_EQ(f.blocks[0].elements[0].open, open);
  EXPECT_EQ(f.blocks[0].elements[0].close, "</A>");
  EXPECT_EQ(texts(f), "link");
}

TEST(ParseHtml, RawTextElementsAndCommentsAreKeptWhole) {
  const std::string script = "<script>if (a < b && c > d) { x = \"</p>\"; }</script>";
  const std::string style = "<style>p > b { color: red }</style>";
  const std::string templ = "<template><p>Not <b>translated</b></p></template>";
  const std::string comment = "<!-- a <b>comment</b> -->";
  const std::string pre = "<pre>  keep   this\n  text</pre>";
  const std::string html = script + style + templ + comment + pre + "<p>A dog " + comment + "<code>ls -l</code> runs.</p>";
  const HtmlFragment f = parse_html(html);
  ASSERT_EQ(f.blocks.size(), 1u);
  EXPECT_EQ(f.markup[0], script + style + templ + comment + pre + "<p>");
  EXPECT_EQ(texts(f), "A dog  runs.");
  ASSERT_EQ(f.blocks[0].elements.size(), 2u);
  EXPECT_EQ(f.blocks[0].elements[0].open, comment);
  EXPECT_EQ(f.blocks[0].elements[1].open, "<code>ls -l</code>");
  EXPECT_EQ(f.blocks[0].elements[1].begin, 6u);
  EXPECT_EQ(f.blocks[0].elements[1].end, 6u);
  EXPECT_EQ(serialize_html(f), html);
  // Left open: closed at the end (block tags are copied as written, never made up).
  EXPECT_EQ(serialize_html(parse_html("<p>x<script>a < b")), "<p>x<script>a < b</script>");
  EXPECT_EQ(serialize_html(parse_html("<p>x<!-- a")), "<p>x<!-- a-->");
  EXPECT_EQ(serialize_html(parse_html("<b>x<!x")), "<b>x<!x></b>");
  EXPECT_EQ(serialize_html(parse_html("<SCRIPT>x</Script >y")), "<SCRIPT>x</Script >y");
}

TEST(ParseHtml, LineBreaksAndVoidElements) {
  const HtmlFragment f = parse_html("<p>One line.<br>Another <img src=\"a.png\" alt=\"<b>\"> line.<br/></p><hr><p>x</p>");
  ASSERT_EQ(f.blocks.size(), 2u);
  EXPECT_EQ(f.blocks[0].text, "One line.\nAnother  line.\n");
  EXPECT_TRUE(f.blocks[0].elements[0].line_break);
  EXPECT_EQ(f.blocks[0].elements[1].open, "<img src=\"a.png\" alt=\"<b>\">");
  EXPECT_EQ(f.markup[1], "</p><hr><p>");
  // block_texts: other whitespace becomes spaces, a <br> stays a line break.
  EXPECT_EQ(block_texts(parse_html("<p>A man\n  rides<br>a\tbike.</p>"))[0], "A man   rides\na bike.");
}

TEST(ParseHtml, WhitespaceBetweenBlocksIsMarkupAndInsideIsText) {
  // Whitespace before a block's first text is markup, also when a dropped tag stood between them
  // (found by the html fuzzer: written back without the tag, the two were one text).
  EXPECT_EQ(parse_html("</p>\n</code>a b").markup[0], "</p>\n");
  EXPECT_EQ(parse_html("<p>&#32;\n&#9;a b").markup[0], "<p> \n\t");
  const std::string html = "\n<div>\n  <p>\n    A dog.\n  </p>\n</div>\n";
  const HtmlFragment f = parse_html(html);
  EXPECT_EQ(texts(f), "A dog.\n  ");
  EXPECT_EQ(f.markup[0], "\n<div>\n  <p>\n    ");
  EXPECT_EQ(serialize_html(f), html);
}

TEST(ParseHtml, MalformedInputIsRepaired) {
  // Unclosed inline elements close at their block's end; stray end tags go.
  EXPECT_EQ(serialize_html(parse_html("<p><b>bold <i>both</p>after</i></b>")), "<p><b>bold <i>both</i></b></p>after");
  // Misnested: the inner element is closed and opened again after the outer one's end.
  EXPECT_EQ(serialize_html(parse_html("<b>x<i>y</b>z</i>")), "<b>x<i>y</i></b><i>z</i>");
  // '<' starting no tag is text; so is a tag the input ends inside.
  EXPECT_EQ(texts(parse_html("a < b <3 <> x</ y <a href=\"x")), "a < b <3 <> x</ y <a href=\"x");
  EXPECT_EQ(serialize_html(parse_html("1 < 2")), "1 &lt; 2");
  // Doctype and processing instructions are kept as markup.
  EXPECT_EQ(serialize_html(parse_html("<!DOCTYPE html><?xml x?>t")), "<!DOCTYPE html><?xml x?>t");
}

TEST(ParseHtml, NestingBombsStayWithinTheDepthLimit) {
  std::string html;
  for (int i = 0; i < 100000; ++i) html += "<b>";
  html += "deep";
  for (int i = 0; i < 100000; ++i) html += "</i><div>";
  const HtmlFragment f = parse_html(html);
  EXPECT_EQ(f.blocks[0].elements.size(), static_cast<size_t>(kMaxHtmlDepth));
  EXPECT_EQ(parse_html(serialize_html(f)), f);
  std::string misnested;  // every </b> closes and reopens 255 elements: more than kept open again
  for (int i = 0; i < 300; ++i) misnested += "<b><i>";
  for (int i = 0; i < 10000; ++i) misnested += "x</b>";
  EXPECT_LT(parse_html(misnested).blocks[0].elements.size(), 1000u);
  std::string unterminated;  // each '<' would read to the end: read once, the rest is text
  for (int i = 0; i < 200000; ++i) unterminated += "<a x=\"";
  EXPECT_EQ(texts(parse_html(unterminated)), unterminated);
}

TEST(ParseHtml, InvalidUtf8IsRefused) {
  try {
    parse_html("<p>ab\xC3(</p>");
    FAIL() << "no error";
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ErrorCode::invalid_input);
    EXPECT_NE(std::string(e.what()).find("byte 5"), std::string::npos) << e.what();
  }
}

TEST(ParseHtml, EmptyInputIsAnEmptyFragment) {
  const HtmlFragment f = parse_html("");
  EXPECT_TRUE(f.blocks.empty());
  EXPECT_EQ(serialize_html(f), "");
}

TEST(SerializeHtml, RefusesOverlappingElements) {
  HtmlBlock block{"abc", {HtmlElement{0, 2, "<b>", "</b>"}, HtmlElement{1, 3, "<i>", "</i>"}}};
  EXPECT_THROW(serialize_block(block), Error);
  block.elements[1].begin = 2;
  EXPECT_EQ(serialize_block(block), "<b>ab</b><i>c</i>");
}

}  // namespace
}  // namespace attend
