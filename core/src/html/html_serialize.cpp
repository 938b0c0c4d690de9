// serialize_html, block_texts and equality (attend/html.h).
#include <algorithm>
#include <string>
#include <vector>

#include "attend/error.h"
#include "attend/html.h"
#include "html/html_text.h"

namespace attend {
namespace {

[[noreturn]] void malformed(size_t element, const std::string& what) {
  throw Error(ErrorCode::invalid_argument, "HTML block element " + std::to_string(element) + ": " + what);
}

class BlockWriter {
 public:
  BlockWriter(const HtmlBlock& block, std::string& out) : block_(block), out_(out), children_(block.elements.size() + 1) {
    std::vector<int> depth(block.elements.size(), 0);
    for (size_t k = 0; k < block.elements.size(); ++k) {
      const HtmlElement& e = block.elements[k];
      if (e.parent < -1 || e.parent >= static_cast<int>(k)) malformed(k, "its parent does not come before it");
      if (e.begin > e.end || e.end > block.text.size()) malformed(k, "its range is outside the text");
      if (e.line_break && (e.end != e.begin + 1 || block.text[e.begin] != '\n')) malformed(k, "a line break not over a \"\\n\"");
      depth[k] = e.parent < 0 ? 1 : depth[e.parent] + 1;
      if (depth[k] > kMaxHtmlDepth + 1) malformed(k, "nested too deep");
      children_[e.parent + 1].push_back(static_cast<int>(k));
    }
    for (std::vector<int>& siblings : children_) {
      std::stable_sort(siblings.begin(), siblings.end(), [&](int a, int b) {
        const HtmlElement &x = block.elements[a], &y = block.elements[b];
        return x.begin != y.begin ? x.begin < y.begin : x.end < y.end;
      });
    }
  }

  void write() { write_inside(-1, 0, block_.text.size()); }

 private:
  // The text [begin, end) of element `parent` (-1: the block) and its children.
  void write_inside(int parent, size_t begin, size_t end) {
    size_t at = begin;
    for (const int k : children_[parent + 1]) {
      const HtmlElement& child = block_.elements[k];
      if (child.begin < at || child.end > end) malformed(k, "it overlaps a sibling or leaves its parent");
      append_escaped(out_, std::string_view(block_.text).substr(at, child.begin - at));
      out_ += child.open;
      if (!child.line_break) write_inside(k, child.begin, child.end);
      out_ += child.close;
      at = child.end;
    }
    append_escaped(out_, std::string_view(block_.text).substr(at, end - at));
  }

  const HtmlBlock& block_;
  std::string& out_;
  std::vector<std::vector<int>> children_;  // [parent + 1]: its children, in text order
};

}  // namespace

std::string serialize_block(const HtmlBlock& block) {
  std::string out;
  BlockWriter(block, out).write();
  return out;
}

std::string serialize_html(const HtmlFragment& fragment) {
  if (fragment.markup.size() != fragment.blocks.size() + 1) {
    throw Error(ErrorCode::invalid_argument, "an HTML fragment of " + std::to_string(fragment.blocks.size()) + " blocks needs " +
                                                 std::to_string(fragment.blocks.size() + 1) + " markup strings, got " +
                                                 std::to_string(fragment.markup.size()));
  }
  std::string out = fragment.markup[0];
  for (size_t k = 0; k < fragment.blocks.size(); ++k) {
    out += serialize_block(fragment.blocks[k]);
    out += fragment.markup[k + 1];
  }
  return out;
}

std::string block_text(const HtmlBlock& block) {
  std::string text = block.text;
  for (char& c : text) {
    if (is_html_space(c)) c = ' ';
  }
  for (const HtmlElement& element : block.elements) {
    if (element.line_break) text[element.begin] = '\n';
  }
  return text;
}

std::vector<std::string> block_texts(const HtmlFragment& fragment) {
  std::vector<std::string> texts;
  for (const HtmlBlock& block : fragment.blocks) texts.push_back(block_text(block));
  return texts;
}

bool operator==(const HtmlElement& a, const HtmlElement& b) {
  return a.begin == b.begin && a.end == b.end && a.open == b.open && a.close == b.close && a.parent == b.parent &&
         a.line_break == b.line_break;
}
bool operator==(const HtmlBlock& a, const HtmlBlock& b) { return a.text == b.text && a.elements == b.elements; }
bool operator==(const HtmlFragment& a, const HtmlFragment& b) { return a.blocks == b.blocks && a.markup == b.markup; }

}  // namespace attend
