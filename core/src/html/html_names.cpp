#include "html/html_names.h"

#include <algorithm>
#include <array>
#include <utility>

namespace attend {
namespace {

template <size_t N>
bool among(const std::array<std::string_view, N>& names, std::string_view name) {
  return std::find(names.begin(), names.end(), name) != names.end();
}

constexpr std::array<std::string_view, 52> kBlocks = {
    "address", "article", "aside", "blockquote", "body", "caption", "center", "colgroup", "dd", "details",
    "dialog", "dir", "div", "dl", "dt", "fieldset", "figcaption", "figure", "footer", "form", "h1", "h2", "h3",
    "h4", "h5", "h6", "head", "header", "hgroup", "html", "legend", "li", "main", "menu", "nav", "ol",
    "optgroup", "option", "p", "section", "select", "summary", "table", "tbody", "td", "tfoot", "th",
    "thead", "tr", "ul", "datalist", "search"};
constexpr std::array<std::string_view, 7> kBlockVoids = {"hr", "meta", "link", "base", "col", "frame", "param"};
constexpr std::array<std::string_view, 7> kInlineVoids = {"img", "input", "wbr", "embed", "source", "track", "area"};
constexpr std::array<std::string_view, 20> kRawInline = {
    "script", "style", "template", "textarea", "title", "noscript", "xmp", "iframe", "noembed", "noframes",
    "svg", "math", "code", "kbd", "samp", "var", "video", "audio", "canvas", "object"};

constexpr std::array<std::pair<std::string_view, uint32_t>, 36> kReferences = {{
    {"amp", '&'},       {"lt", '<'},         {"gt", '>'},         {"quot", '"'},      {"apos", '\''},
    {"nbsp", 0xA0},     {"shy", 0xAD},       {"copy", 0xA9},      {"reg", 0xAE},      {"trade", 0x2122},
    {"hellip", 0x2026}, {"mdash", 0x2014},   {"ndash", 0x2013},   {"lsquo", 0x2018},  {"rsquo", 0x2019},
    {"sbquo", 0x201A},  {"ldquo", 0x201C},   {"rdquo", 0x201D},   {"bdquo", 0x201E},  {"laquo", 0xAB},
    {"raquo", 0xBB},    {"euro", 0x20AC},    {"pound", 0xA3},     {"yen", 0xA5},      {"cent", 0xA2},
    {"sect", 0xA7},     {"deg", 0xB0},       {"middot", 0xB7},    {"bull", 0x2022},   {"times", 0xD7},
    {"divide", 0xF7},   {"para", 0xB6},      {"thinsp", 0x2009},  {"ensp", 0x2002},   {"emsp", 0x2003},
    {"zwnj", 0x200C},
}};

}  // namespace

ElementKind element_kind(std::string_view name) {
  if (name == "br") return ElementKind::line_break;
  if (name == "pre" || name == "listing" || name == "plaintext") return ElementKind::raw_block;
  if (among(kBlocks, name)) return ElementKind::block;
  if (among(kBlockVoids, name)) return ElementKind::block_void;
  if (among(kInlineVoids, name)) return ElementKind::inline_void;
  if (among(kRawInline, name)) return ElementKind::raw_inline;
  return ElementKind::inline_element;
}

std::optional<uint32_t> named_reference(std::string_view name) {
  for (const auto& [reference, code_point] : kReferences) {
    if (reference == name) return code_point;
  }
  return std::nullopt;
}

std::string utf8_of(uint32_t c) {
  if (c == 0 || (c >= 0xD800 && c <= 0xDFFF) || c > 0x10FFFF) c = 0xFFFD;
  std::string out;
  if (c < 0x80) {
    out += static_cast<char>(c);
  } else if (c < 0x800) {
    out += static_cast<char>(0xC0 | (c >> 6));
    out += static_cast<char>(0x80 | (c & 0x3F));
  } else if (c < 0x10000) {
    out += static_cast<char>(0xE0 | (c >> 12));
    out += static_cast<char>(0x80 | ((c >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (c & 0x3F));
  } else {
    out += static_cast<char>(0xF0 | (c >> 18));
    out += static_cast<char>(0x80 | ((c >> 12) & 0x3F));
    out += static_cast<char>(0x80 | ((c >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (c & 0x3F));
  }
  return out;
}

}  // namespace attend
