// HTML fragments: a web page's markup translated with its inline tags kept around the right words.
//
// parse_html cuts a fragment (untrusted bytes; nothing is ever executed) into blocks of text (a
// paragraph, a list item, a table cell, ...) and the markup between them, copied byte for byte.
// A block's inline elements (<b>, <a href>, <span>, ...) are ranges over its text; after
// translation each is put around the words of the translation the cross-attention aligns with
// the words it held (docs/html.md). Two steps, so that the browser can give its own sentence
// breaks (Intl.Segmenter) for block_texts: parse_html + block_texts, then translate_html.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "attend/document.h"
#include "attend/translator.h"

namespace attend {

// An element inside a block's text: an inline element (b, a, span, ...) over text[begin, end),
// or markup at one place (begin == end): <img>, <input>, a comment, an element whose content is
// never translated (<code>, <script>, <svg>, ...) held whole in `open`.
struct HtmlElement {
  size_t begin = 0, end = 0;  // bytes of the block's text
  std::string open;           // as written: "<a href=\"/x\">", "<img src=a.png>", "<!-- c -->", "<code>f(x)</code>"
  std::string close;          // "</a>" as written, made up ("</b>") for one the source left open; "" for markup at a place
  int parent = -1;            // the enclosing element of the block (index in elements), -1 for none
  // <br>: stands for text[begin, end) == "\n" (a line break the sentence cut keeps) and is
  // written as `open` instead of it.
  bool line_break = false;
};

// A block's text (character references decoded) and its elements, in document order: a parent
// comes before its children; siblings do not overlap.
struct HtmlBlock {
  std::string text;
  std::vector<HtmlElement> elements;
};

// markup[k] (block tags, whitespace, comments, raw-text elements between blocks, byte for byte)
// comes before blocks[k]; markup has blocks.size() + 1 entries, the last after the last block.
struct HtmlFragment {
  std::vector<HtmlBlock> blocks;
  std::vector<std::string> markup{std::string()};
};

// Parses a fragment. Throws Error(invalid_input) for invalid UTF-8 (naming the byte); anything
// else is taken as a browser roughly would (docs/html.md): unclosed inline elements are closed
// at the end of their block, stray end tags dropped, misnested ones repaired, a '<' that starts
// no tag is text, inline elements nested deeper than kMaxHtmlDepth are dropped.
HtmlFragment parse_html(std::string_view html);

inline constexpr int kMaxHtmlDepth = 256;

// The fragment written out: markup copied, text escaped (& < > and U+00A0 as &nbsp;). For a
// parsed fragment, serialize_html(parse_html(x)) == x when x closes what it opens and escapes
// its text that way; parse_html(serialize_html(f)) == f for any f = parse_html(x). Throws
// invalid_argument for a fragment no parse or translation makes: markup not blocks.size() + 1
// long, an element outside its parent or the text, overlapping siblings, a parent after its child.
std::string serialize_html(const HtmlFragment& fragment);
std::string serialize_block(const HtmlBlock& block);

// What plan_document cuts, per block: the text with every whitespace character but a <br>'s
// "\n" turned into a space (same byte offsets), so that a line wrapped in the source is one line.
std::vector<std::string> block_texts(const HtmlFragment& fragment);

struct HtmlSentence {
  size_t block = 0;             // index in HtmlFragment::blocks
  size_t begin = 0, end = 0;    // bytes of that block's text
  std::string source;           // what the model was given: block_texts(fragment)[block] from begin to end
  Translation translation;
};

struct HtmlTranslation {
  std::string html;                     // the translated fragment
  std::vector<HtmlSentence> sentences;  // every translated sentence, in document order
};

// Translates every sentence of the fragment (plan_document of block_texts(fragment)[k] with
// breaks_per_block[k], model_sentence_check) in batches of batch_size, capturing the attention
// of the sentences holding markup (all of them if options.capture_attention), and places each
// element (docs/html.md). A fragment without any sentence is not an error: html is
// serialize_html(fragment) and sentences is empty. Throws invalid_argument when
// breaks_per_block does not have one entry per block; Error(cancelled) if options.on_step
// returns false (it hears sentences numbered in the fragment, in document order).
HtmlTranslation translate_html(Translator& translator, const HtmlFragment& fragment,
                               const std::vector<std::vector<size_t>>& breaks_per_block,
                               const TranslateOptions& options = {}, int batch_size = 32);

#ifndef __EMSCRIPTEN__
// parse_html, then translate_html with ICU's sentence_breaks of each block's text.
HtmlTranslation translate_html(Translator& translator, std::string_view html, const TranslateOptions& options = {},
                               int batch_size = 32);
#endif

bool operator==(const HtmlElement& a, const HtmlElement& b);
bool operator==(const HtmlBlock& a, const HtmlBlock& b);
bool operator==(const HtmlFragment& a, const HtmlFragment& b);

}  // namespace attend
