// Text inside HTML: whitespace, character references in, escapes out.
#pragma once

#include <string>
#include <string_view>

#include "attend/html.h"
#include "text/ascii.h"  // is_ascii_punctuation, for the rules over text

namespace attend {

// HTML's whitespace: space, tab, line feed, carriage return, form feed.
bool is_html_space(char c);
bool is_html_whitespace(std::string_view text);  // every byte is (true for "")

// `raw` with its character references decoded: the named ones html_names.h knows and numeric
// ones (&#233; &#xE9;), each ended by ';'. Anything else, an unknown name or a reference
// without ';', stays as written.
std::string decode_references(std::string_view raw);

// block_texts' text of one block.
std::string block_text(const HtmlBlock& block);

// `text` with & < > and U+00A0 written as &amp; &lt; &gt; &nbsp;.
void append_escaped(std::string& out, std::string_view text);

}  // namespace attend
