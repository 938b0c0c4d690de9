// parse_html (attend/html.h): tags, comments, text and raw-text elements read in one pass; a
// block is open from its first text or inline element to the next block tag or the end.
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "attend/error.h"
#include "attend/html.h"
#include "html/html_names.h"
#include "html/html_text.h"
#include "text/ascii.h"
#include "tokenizer/utf8.h"

namespace attend {
namespace {

// A misnested end tag (<b>x<i>y</b>z</i>) closes the elements opened inside it and opens them
// again after it, as browsers do, when there are at most this many of them (browsers stop at 8
// too); more are closed only, so one end tag never costs more than this many new elements.
constexpr size_t kMaxReopened = 8;

char lower(char c) { return c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c; }

struct Tag {
  std::string name;  // lowercase
  bool end_tag = false;
  size_t end = std::string_view::npos;  // past its '>'; npos: the input ends inside the tag
};

// The tag html[at] == '<' starts: "<name ...>" or "</name ...>", a quoted attribute value read
// whole (it may hold '>'). nullopt when the '<' starts no tag.
std::optional<Tag> read_tag(std::string_view html, size_t at) {
  Tag tag;
  size_t i = at + 1;
  if (i < html.size() && html[i] == '/') {
    tag.end_tag = true;
    ++i;
  }
  if (i >= html.size() || !is_ascii_letter(html[i])) return std::nullopt;
  while (i < html.size() && !is_html_space(html[i]) && html[i] != '/' && html[i] != '>') tag.name += lower(html[i++]);
  while (i < html.size()) {
    if (html[i] == '>') {
      tag.end = i + 1;
      return tag;
    }
    if (html[i++] != '=') continue;
    while (i < html.size() && is_html_space(html[i])) ++i;
    if (i < html.size() && (html[i] == '"' || html[i] == '\'')) {
      const size_t close = html.find(html[i], i + 1);
      if (close == std::string_view::npos) return tag;
      i = close + 1;
    }
  }
  return tag;
}

class Parser {
 public:
  explicit Parser(std::string_view html) : html_(html), lower_(html) {
    for (char& c : lower_) c = lower(c);
  }

  HtmlFragment parse() {
    size_t text_from = 0;  // html[text_from, at) is text not yet taken
    for (size_t at = html_.find('<'); at != std::string_view::npos; at = html_.find('<', at)) {
      const size_t next = markup_at(at, text_from);
      if (next == at) {
        ++at;  // a '<' that starts nothing: text
      } else {
        at = text_from = next;
      }
    }
    add_text(html_.substr(text_from));
    end_block();
    return std::move(fragment_);
  }

 private:
  struct Open {
    size_t element = 0;
    std::string name;
  };

  // Takes the markup starting at html_[at] (the text before it first) and returns where it ends;
  // `at` when nothing starts there.
  size_t markup_at(size_t at, size_t text_from) {
    if (html_.compare(at, 4, "<!--") == 0) {
      add_text(html_.substr(text_from, at - text_from));
      const size_t close = html_.find("-->", at + 4);
      const size_t end = close == std::string_view::npos ? html_.size() : close + 3;
      add_markup(std::string(html_.substr(at, end - at)) + (close == std::string_view::npos ? "-->" : ""));
      return end;
    }
    if (html_.compare(at, 2, "<!") == 0 || html_.compare(at, 2, "<?") == 0) {  // doctype, CDATA, processing instruction
      add_text(html_.substr(text_from, at - text_from));
      const size_t close = html_.find('>', at);
      const size_t end = close == std::string_view::npos ? html_.size() : close + 1;
      add_markup(std::string(html_.substr(at, end - at)) + (close == std::string_view::npos ? ">" : ""));
      return end;
    }
    const std::optional<Tag> tag = read_tag(html_, at);
    if (!tag) return at;
    if (tag->end == std::string_view::npos) {  // the input ends inside it: the rest is text (so no '<' is read twice)
      add_text(html_.substr(text_from));
      return html_.size();
    }
    add_text(html_.substr(text_from, at - text_from));
    const std::string written(html_.substr(at, tag->end - at));
    if (tag->end_tag) {
      end_tag(*tag, written);
      return tag->end;
    }
    return start_tag(at, *tag, written);
  }

  size_t start_tag(size_t at, const Tag& tag, const std::string& written) {
    switch (element_kind(tag.name)) {
      case ElementKind::block:
      case ElementKind::block_void:
        end_block();
        fragment_.markup.back() += written;
        return tag.end;
      case ElementKind::raw_block: {
        end_block();
        const auto [whole, end] = raw_element(at, tag);
        fragment_.markup.back() += whole;
        return end;
      }
      case ElementKind::raw_inline: {
        const auto [whole, end] = raw_element(at, tag);
        add_markup(whole);
        return end;
      }
      case ElementKind::inline_void:
        add_markup(written);
        return tag.end;
      case ElementKind::line_break:
        if (!in_block_) {
          fragment_.markup.back() += written;
          return tag.end;
        }
        add_element(written, 1).line_break = true;
        block().text += '\n';
        return tag.end;
      case ElementKind::inline_element:
        if (open_.size() < static_cast<size_t>(kMaxHtmlDepth)) open_element(written, tag.name);
        return tag.end;
    }
    return tag.end;
  }

  void end_tag(const Tag& tag, const std::string& written) {
    switch (element_kind(tag.name)) {
      case ElementKind::block:
      case ElementKind::block_void:
      case ElementKind::raw_block:
        end_block();
        fragment_.markup.back() += written;
        return;
      case ElementKind::inline_element:
        close_element(tag.name, written);
        return;
      default:
        return;  // </br>, </img>, a raw element's end without its start: stray, dropped
    }
  }

  // The raw-text element starting at html_[at] with `tag`, whole up to its "</name...>", the end
  // tag made up if the input ends first; and where it ends in html_.
  std::pair<std::string, size_t> raw_element(size_t at, const Tag& tag) const {
    const std::string close = "</" + tag.name;
    for (size_t end = lower_.find(close, tag.end); end != std::string::npos; end = lower_.find(close, end + 1)) {
      const size_t after = end + close.size();
      if (after == html_.size() || is_html_space(html_[after]) || html_[after] == '/' || html_[after] == '>') {
        const size_t gt = html_.find('>', after);
        const size_t stop = gt == std::string_view::npos ? html_.size() : gt + 1;
        return {std::string(html_.substr(at, stop - at)) + (gt == std::string_view::npos ? ">" : ""), stop};
      }
    }
    return {std::string(html_.substr(at)) + close + ">", html_.size()};
  }

  HtmlBlock& block() { return fragment_.blocks.back(); }

  void start_block() {
    if (in_block_) return;
    fragment_.blocks.emplace_back();
    fragment_.markup.emplace_back();
    in_block_ = true;
  }

  void end_block() {
    if (!in_block_) return;
    close_open_from(0);
    in_block_ = false;
  }

  // Text of the source (character references not yet decoded). Whitespace between blocks, and
  // before a block's first text, is markup (a reference to a space, "&#32;", becomes one there).
  void add_text(std::string_view raw) {
    std::string text = decode_references(raw);
    if (!in_block_) {
      size_t space = 0;
      while (space < text.size() && is_html_space(text[space])) ++space;
      fragment_.markup.back() += text.substr(0, space);
      text.erase(0, space);
    }
    if (text.empty()) return;
    start_block();
    block().text += text;
  }

  // Markup at one place: in the open block, else between blocks.
  void add_markup(const std::string& written) {
    if (in_block_) {
      add_element(written, 0);
    } else {
      fragment_.markup.back() += written;
    }
  }

  // A new element of the open block over the next `length` bytes of text, inside the innermost open one.
  HtmlElement& add_element(const std::string& open, size_t length) {
    start_block();
    HtmlElement element;
    element.begin = block().text.size();
    element.end = element.begin + length;
    element.open = open;
    element.parent = open_.empty() ? -1 : static_cast<int>(open_.back().element);
    block().elements.push_back(std::move(element));
    return block().elements.back();
  }

  void open_element(const std::string& open, const std::string& name) {
    add_element(open, 0);
    open_.push_back(Open{block().elements.size() - 1, name});
  }

  void close_element(const std::string& name, const std::string& written) {
    size_t k = open_.size();
    while (k > 0 && open_[k - 1].name != name) --k;
    if (k == 0) return;  // a stray end tag
    const std::vector<Open> inside(open_.begin() + k, open_.end());
    close_open_from(k);
    HtmlElement& element = block().elements[open_.back().element];
    element.end = block().text.size();
    element.close = written;
    open_.pop_back();
    if (inside.size() > kMaxReopened) return;
    for (const Open& again : inside) open_element(block().elements[again.element].open, again.name);
  }

  // Ends the open elements open_[k ...] here, with made-up end tags.
  void close_open_from(size_t k) {
    while (open_.size() > k) {
      HtmlElement& element = block().elements[open_.back().element];
      element.end = block().text.size();
      element.close = "</" + open_.back().name + ">";
      open_.pop_back();
    }
  }

  std::string_view html_;
  std::string lower_;  // html_ in ASCII lowercase, for finding a raw-text element's end tag
  HtmlFragment fragment_;
  bool in_block_ = false;
  std::vector<Open> open_;  // the open inline elements of the open block, outermost first
};

}  // namespace

HtmlFragment parse_html(std::string_view html) {
  require_valid_utf8(html);
  return Parser(html).parse();
}

}  // namespace attend
