// The text of Marian's "special:model.yml" item, as Marian writes it (yaml-cpp's emitter over a
// flat map, src/common/io.cpp): one `key: value` per line, values plain or quoted scalars, and
// lists as block items (`dim-vocabs:` then `  - 32000` lines), `  []` when empty, or in flow
// style (`[32000, 32000]`). Nothing else of YAML is read: nested maps, anchors, aliases, tags,
// block scalars and several documents are refused by name, with the line, not guessed at.
#pragma once

#include <map>
#include <string>
#include <string_view>
#include <vector>

namespace attend {

class MarianYml {
 public:
  // Throws Error(invalid_model): "<file_name>: <label> line N: <what>" (decoder.yml is read the
  // same way, its label empty).
  MarianYml(std::string_view text, std::string_view file_name, std::string_view label = "model.yml");

  bool has(const std::string& key) const { return values_.count(key) > 0; }
  // A scalar (quotes removed), or `fallback` when the key is absent.
  std::string text(const std::string& key, const std::string& fallback) const;
  int integer(const std::string& key, int fallback) const;
  bool flag(const std::string& key, bool fallback) const;  // true/false, yes/no, on/off as yaml-cpp reads them
  // A list of integers; empty when the key is absent or the list is.
  std::vector<int> integers(const std::string& key) const;

  // One line naming the file and the key: "<file_name>: <label> 'key' <what>".
  [[noreturn]] void refuse(const std::string& key, const std::string& what) const;

 private:
  struct Value {
    bool is_list = false;
    std::string scalar;
    std::vector<std::string> items;
  };
  const Value* scalar(const std::string& key) const;

  std::string file_name_;
  std::string label_;
  std::map<std::string, Value> values_;
};

// Marian's vocab.yml (src/data/default_vocab.cpp: OPUS-MT's joint vocabulary, or its
// *.src.vocab.yml and *.trg.vocab.yml), as yaml-cpp's emitter writes it: one `piece: id` a
// line, pieces plain or quoted ("double" with YAML's escapes, 'single'), ids the numbers given,
// not the order of the lines. Returns each id's piece, in id order. Throws Error(invalid_model)
// with "<file_name>: line N: <what>": another kind of line (indented, a list, a flow map as in a
// JSON vocabulary, anchors and tags), a piece or an id twice, a piece that is empty, holds a
// NUL or is not UTF-8; and "<file_name>: no piece has the id N" where the ids leave a gap (Marian
// would read it as an empty word).
std::vector<std::string> read_marian_vocab_yml(std::string_view text, std::string_view file_name);

}  // namespace attend
