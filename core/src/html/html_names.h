// What the HTML parser knows of element names and character references.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace attend {

enum class ElementKind {
  inline_element,  // b, i, a, span, unknown names, ...: a range over the block's text
  block,           // p, div, li, h1, td, ...: ends the block before it and starts a new one
  block_void,      // hr, meta, link, ...: ends the block; no content, no end tag
  line_break,      // br
  inline_void,     // img, input, wbr, ...: markup at one place of the text
  raw_inline,      // code, script, svg, textarea, ...: kept whole at one place, content never translated
  raw_block,       // pre: ends the block and is kept whole
};

// The kind of a lowercase element name.
ElementKind element_kind(std::string_view name);

// The code point of a named character reference without its & and ; ("amp" -> '&'), for the
// common names docs/html.md lists.
std::optional<uint32_t> named_reference(std::string_view name);

// `code_point` in UTF-8; U+FFFD for 0, a surrogate or above U+10FFFF (as browsers decode them).
std::string utf8_of(uint32_t code_point);

}  // namespace attend
