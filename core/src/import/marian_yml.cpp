#include "import/marian_yml.h"

#include <charconv>

#include "attend/error.h"
#include "tokenizer/utf8.h"

namespace attend {
namespace {

constexpr std::string_view kSpaces = " \t";

std::string_view trimmed(std::string_view s) {
  const size_t begin = s.find_first_not_of(kSpaces);
  if (begin == std::string_view::npos) return {};
  return s.substr(begin, s.find_last_not_of(kSpaces) - begin + 1);
}

// The first line of `text`, without its newline or a carriage return before it; `text` keeps the
// lines after it.
std::string_view take_line(std::string_view& text) {
  const size_t newline = text.find('\n');
  std::string_view line = text.substr(0, newline);
  text = newline == std::string_view::npos ? std::string_view() : text.substr(newline + 1);
  if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
  return line;
}

void append_utf8(std::string& out, uint32_t code) {
  if (code < 0x80) {
    out += static_cast<char>(code);
  } else if (code < 0x800) {
    out += static_cast<char>(0xC0 | (code >> 6));
    out += static_cast<char>(0x80 | (code & 0x3F));
  } else if (code < 0x10000) {
    out += static_cast<char>(0xE0 | (code >> 12));
    out += static_cast<char>(0x80 | ((code >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (code & 0x3F));
  } else {
    out += static_cast<char>(0xF0 | (code >> 18));
    out += static_cast<char>(0x80 | ((code >> 12) & 0x3F));
    out += static_cast<char>(0x80 | ((code >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (code & 0x3F));
  }
}

// Reads one line's scalars; every failure names the line.
class Line {
 public:
  // `label`: what the file is ("model.yml"), or empty when its name says it.
  Line(size_t number, const std::string& file_name, std::string_view label = "model.yml")
      : number_(number), file_name_(file_name), label_(label) {}

  [[noreturn]] void fail(const std::string& what) const {
    throw Error(ErrorCode::invalid_model,
                file_name_ + ": " + (label_.empty() ? "" : std::string(label_) + " ") + "line " + std::to_string(number_) +
                    ": " + what + " (Attend reads the flat `key: value` YAML Marian writes)");
  }

  // A scalar at the start of `s` (plain, "double" or 'single' quoted); `s` is left after it.
  // In a flow list (`in_list`) a plain scalar ends at a comma or the closing bracket.
  std::string scalar(std::string_view& s, bool in_list) const {
    s = trimmed(s);
    if (s.empty()) return {};
    if (s[0] == '"') return double_quoted(s);
    if (s[0] == '\'') return single_quoted(s);
    refuse_indicator(s[0]);
    size_t end = in_list ? s.find_first_of(",]") : s.size();
    if (end == std::string_view::npos) end = s.size();
    const size_t comment = s.find(" #");
    if (comment < end) end = comment;
    std::string_view value = trimmed(s.substr(0, end));
    if (value.find(": ") != std::string_view::npos || (!value.empty() && value.back() == ':')) fail("a nested map");
    if (in_list && (value.find('[') != std::string_view::npos || value.find('{') != std::string_view::npos)) {
      fail("a nested list or map");
    }
    s = s.substr(end);
    return std::string(value);
  }

  // What may follow a value on its line: nothing, or a comment.
  void expect_end(std::string_view rest) const {
    rest = trimmed(rest);
    if (!rest.empty() && rest[0] != '#') fail("'" + std::string(rest.substr(0, 20)) + "' after a value");
  }

  void refuse_indicator(char c) const {
    switch (c) {
      case '{': fail("a flow map");
      case '&': fail("an anchor");
      case '*': fail("an alias");
      case '!': fail("a tag");
      case '|':
      case '>': fail("a block scalar");
      case '%': fail("a directive");
      case '@':
      case '`': fail("a reserved indicator");
      case '?': fail("a complex key");
      default: return;
    }
  }

 private:
  std::string double_quoted(std::string_view& s) const {
    std::string out;
    size_t i = 1;
    for (; i < s.size() && s[i] != '"'; ++i) {
      if (s[i] != '\\') {
        out += s[i];
        continue;
      }
      if (++i == s.size()) break;
      switch (s[i]) {
        case '"': out += '"'; break;
        case '\\': out += '\\'; break;
        case '/': out += '/'; break;
        case 'n': out += '\n'; break;
        case 't':
        case '\t': out += '\t'; break;
        case 'r': out += '\r'; break;
        case '0': out += '\0'; break;
        case 'a': out += '\a'; break;
        case 'b': out += '\b'; break;
        case 'e': out += '\x1B'; break;
        case 'f': out += '\f'; break;
        case 'v': out += '\v'; break;
        case ' ': out += ' '; break;
        case 'N': append_utf8(out, 0x85); break;
        case '_': append_utf8(out, 0xA0); break;
        case 'L': append_utf8(out, 0x2028); break;
        case 'P': append_utf8(out, 0x2029); break;
        case 'x': append_utf8(out, hex(s, i, 2)); break;
        case 'u': append_utf8(out, hex(s, i, 4)); break;
        case 'U': append_utf8(out, hex(s, i, 8)); break;
        default: fail(std::string("the escape \\") + s[i] + " in a quoted string");
      }
    }
    if (i >= s.size()) fail("a quoted string without its closing quote");
    s = s.substr(i + 1);
    return out;
  }

  std::string single_quoted(std::string_view& s) const {
    std::string out;
    size_t i = 1;
    for (; i < s.size(); ++i) {
      if (s[i] != '\'') {
        out += s[i];
      } else if (i + 1 < s.size() && s[i + 1] == '\'') {
        out += '\'';
        ++i;
      } else {
        break;
      }
    }
    if (i >= s.size()) fail("a quoted string without its closing quote");
    s = s.substr(i + 1);
    return out;
  }

  // The `digits` hex digits after s[i], i left on the last.
  uint32_t hex(std::string_view s, size_t& i, int digits) const {
    uint32_t code = 0;
    for (int k = 0; k < digits; ++k) {
      const char c = ++i < s.size() ? s[i] : '\0';
      const int v = c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : c >= 'A' && c <= 'F' ? c - 'A' + 10 : -1;
      if (v < 0) fail("a \\x, \\u or \\U escape without its hex digits");
      code = code * 16 + static_cast<uint32_t>(v);
    }
    if (code > 0x10FFFF || (code >= 0xD800 && code <= 0xDFFF)) fail("an escape that is not a Unicode scalar value");
    return code;
  }

  size_t number_;
  const std::string& file_name_;
  std::string_view label_;
};

bool is_key(std::string_view key) {
  if (key.empty()) return false;
  for (char c : key) {
    const bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '-' || c == '_' || c == '.';
    if (!ok) return false;
  }
  return true;
}

}  // namespace

MarianYml::MarianYml(std::string_view text, std::string_view file_name, std::string_view label)
    : file_name_(file_name), label_(label) {
  Value* open_list = nullptr;  // the value of a `key:` line, filled by the indented lines after it
  bool open_list_closed = false;  // it held `[]`
  size_t number = 0;
  while (!text.empty()) {
    const std::string_view raw = take_line(text);
    ++number;
    const Line line(number, file_name_, label_);
    const std::string_view content = trimmed(raw);
    if (content.empty() || content[0] == '#') continue;
    if (content == "---" || content == "...") line.fail("a document marker");
    const bool indented = raw[0] == ' ' || raw[0] == '\t';
    if (indented || content[0] == '-') {
      if (open_list == nullptr || open_list_closed) line.fail("an indented line that belongs to no list");
      std::string_view rest = content;
      if (rest == "[]") {
        if (!open_list->items.empty()) line.fail("[] after list items");
        open_list_closed = true;
        continue;
      }
      if (rest.size() < 2 || rest[0] != '-' || (rest[1] != ' ' && rest[1] != '\t')) line.fail("a nested map");
      rest.remove_prefix(2);
      const std::string_view item = trimmed(rest);
      if (item == "-" || item.substr(0, 2) == "- " || item.substr(0, 1) == "[") line.fail("a nested list");
      open_list->items.push_back(line.scalar(rest, false));
      line.expect_end(rest);
      continue;
    }
    open_list = nullptr;
    open_list_closed = false;
    const size_t colon = content.find(':');
    if (colon == std::string_view::npos) line.fail("a line that is not `key: value`");
    const std::string_view key = content.substr(0, colon);
    if (!is_key(key)) line.fail("the key '" + std::string(key.substr(0, 40)) + "'");
    std::string_view rest = content.substr(colon + 1);
    if (!rest.empty() && rest[0] != ' ' && rest[0] != '\t') line.fail("the key '" + std::string(key) + "' without a space after its colon");
    auto [it, inserted] = values_.emplace(std::string(key), Value{});
    if (!inserted) line.fail("the key '" + std::string(key) + "' a second time");
    Value& value = it->second;
    rest = trimmed(rest);
    if (rest.empty() || rest[0] == '#') {
      value.is_list = true;  // or null, when no items follow: an empty list then
      open_list = &value;
    } else if (rest[0] == '[') {
      value.is_list = true;
      rest.remove_prefix(1);
      if (trimmed(rest).substr(0, 1) == "]") {
        rest = trimmed(rest).substr(1);
      } else {
        for (;;) {
          value.items.push_back(line.scalar(rest, true));
          rest = trimmed(rest);
          if (rest.empty()) line.fail("a flow list without its closing ]");
          if (rest[0] == ']') {
            rest.remove_prefix(1);
            break;
          }
          if (rest[0] != ',') line.fail("'" + std::string(rest.substr(0, 20)) + "' in a flow list");
          rest.remove_prefix(1);
        }
      }
      line.expect_end(rest);
    } else {
      value.scalar = line.scalar(rest, false);
      line.expect_end(rest);
    }
  }
}

void MarianYml::refuse(const std::string& key, const std::string& what) const {
  throw Error(ErrorCode::invalid_model, file_name_ + ": " + (label_.empty() ? "" : label_ + " ") + "'" + key + "' " + what);
}

const MarianYml::Value* MarianYml::scalar(const std::string& key) const {
  const auto it = values_.find(key);
  if (it == values_.end()) return nullptr;
  if (it->second.is_list && !it->second.items.empty()) refuse(key, "is a list, not one value");
  return &it->second;
}

std::string MarianYml::text(const std::string& key, const std::string& fallback) const {
  const Value* value = scalar(key);
  return value ? value->scalar : fallback;
}

int MarianYml::integer(const std::string& key, int fallback) const {
  const Value* value = scalar(key);
  if (!value) return fallback;
  const std::string& s = value->scalar;
  int out = 0;
  const auto [end, error] = std::from_chars(s.data(), s.data() + s.size(), out);
  if (s.empty() || error != std::errc() || end != s.data() + s.size()) refuse(key, "is '" + s.substr(0, 40) + "', not an integer");
  return out;
}

bool MarianYml::flag(const std::string& key, bool fallback) const {
  const Value* value = scalar(key);
  if (!value) return fallback;
  static const char* const kTrue[] = {"true", "True", "TRUE", "yes", "Yes", "YES", "on", "On", "ON", "y", "Y"};
  static const char* const kFalse[] = {"false", "False", "FALSE", "no", "No", "NO", "off", "Off", "OFF", "n", "N"};
  for (const char* t : kTrue) {
    if (value->scalar == t) return true;
  }
  for (const char* f : kFalse) {
    if (value->scalar == f) return false;
  }
  refuse(key, "is '" + value->scalar.substr(0, 40) + "', not true or false");
}

std::vector<int> MarianYml::integers(const std::string& key) const {
  const auto it = values_.find(key);
  if (it == values_.end()) return {};
  if (!it->second.is_list) refuse(key, "is '" + it->second.scalar.substr(0, 40) + "', not a list");
  std::vector<int> out;
  for (const std::string& item : it->second.items) {
    int v = 0;
    const auto [end, error] = std::from_chars(item.data(), item.data() + item.size(), v);
    if (item.empty() || error != std::errc() || end != item.data() + item.size()) {
      refuse(key, "holds '" + item.substr(0, 40) + "', not an integer");
    }
    out.push_back(v);
  }
  return out;
}

std::vector<std::string> read_marian_vocab_yml(std::string_view text, std::string_view file_name) {
  const std::string file(file_name);
  std::vector<std::string> pieces;  // by id; empty: not yet given
  std::map<std::string, size_t> lines;  // each piece's line, for a piece given twice
  size_t count = 0, number = 0;
  if (text.substr(0, 3) == "\xEF\xBB\xBF") text.remove_prefix(3);  // a byte order mark
  while (!text.empty()) {
    const std::string_view raw = take_line(text);
    ++number;
    const Line line(number, file, "");
    std::string_view content = trimmed(raw);
    if (content.empty() || content[0] == '#') continue;
    if (content == "---" && count == 0) continue;  // the document's start
    if (raw[0] == ' ' || raw[0] == '\t') line.fail("an indented line (a nested map or list)");
    if (content[0] == '-' && (content.size() == 1 || content[1] == ' ' || content[1] == '\t')) line.fail("a list, not a map of pieces to ids");
    std::string piece;
    std::string_view rest;
    if (content[0] == '"' || content[0] == '\'') {
      rest = content;
      piece = line.scalar(rest, false);
      if (rest.size() < 2 || rest[0] != ':' || (rest[1] != ' ' && rest[1] != '\t')) line.fail("a quoted piece not followed by ': ' and its id");
      rest.remove_prefix(2);
    } else {
      line.refuse_indicator(content[0]);
      if (content[0] == '[' || content[0] == ']' || content[0] == ',' || content[0] == '}') line.fail("a flow collection");
      const size_t colon = content.rfind(": ");  // a plain piece holds no ": " (the emitter quotes it)
      if (colon == std::string_view::npos) line.fail("a line that is not `piece: id`");
      const std::string_view plain = trimmed(content.substr(0, colon));
      if (plain.find(": ") != std::string_view::npos || plain.find(" #") != std::string_view::npos) {
        line.fail("a plain piece holding ': ' or ' #' (the emitter quotes such a piece)");
      }
      if (plain.empty() || plain == "~" || plain == "null" || plain == "Null" || plain == "NULL") line.fail("a null piece");
      piece = std::string(plain);
      rest = content.substr(colon + 2);
    }
    rest = trimmed(rest);
    const size_t digits = rest.find_first_not_of("0123456789");
    const std::string_view value = rest.substr(0, digits);
    size_t id = 0;
    const auto [end, error] = std::from_chars(value.data(), value.data() + value.size(), id);
    if (value.empty() || error != std::errc() || end != value.data() + value.size()) {
      line.fail("'" + std::string(rest.substr(0, 20)) + "' where the piece's id (a number) goes");
    }
    line.expect_end(rest.substr(value.size()));
    if (piece.empty() || piece.find('\0') != std::string::npos) line.fail("an empty piece, or one holding a NUL byte");
    if (find_invalid_utf8(piece)) line.fail("a piece that is not UTF-8");
    ++count;
    if (id >= count + text.size() / 4 + 1) {  // a line of `x: N` holds at least 4 bytes: no id past the lines left
      line.fail("the id " + std::string(value.substr(0, 20)) + ", past the number of pieces the file can hold");
    }
    if (const auto [it, added] = lines.emplace(piece, number); !added) {
      line.fail("the piece '" + piece.substr(0, 40) + "' again (line " + std::to_string(it->second) + ")");
    }
    if (id >= pieces.size()) pieces.resize(id + 1);
    if (!pieces[id].empty()) line.fail("the id " + std::to_string(id) + " again (the piece '" + pieces[id].substr(0, 40) + "')");
    pieces[id] = std::move(piece);
  }
  if (count == 0) throw Error(ErrorCode::invalid_model, file + ": no `piece: id` lines (not a Marian vocab.yml)");
  for (size_t id = 0; id < pieces.size(); ++id) {
    if (pieces[id].empty()) {
      throw Error(ErrorCode::invalid_model, file + ": no piece has the id " + std::to_string(id) + " (the ids are 0 to " +
                                                std::to_string(pieces.size() - 1) + "; Attend reads every id's piece)");
    }
  }
  return pieces;
}

}  // namespace attend
