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
  // Throws Error(invalid_model): "<file_name>: model.yml line N: <what>".
  MarianYml(std::string_view text, std::string_view file_name);

  bool has(const std::string& key) const { return values_.count(key) > 0; }
  // A scalar (quotes removed), or `fallback` when the key is absent.
  std::string text(const std::string& key, const std::string& fallback) const;
  int integer(const std::string& key, int fallback) const;
  bool flag(const std::string& key, bool fallback) const;  // true/false, yes/no, on/off as yaml-cpp reads them
  // A list of integers; empty when the key is absent or the list is.
  std::vector<int> integers(const std::string& key) const;

  // One line naming the file and the key: "<file_name>: model.yml 'key' <what>".
  [[noreturn]] void refuse(const std::string& key, const std::string& what) const;

 private:
  struct Value {
    bool is_list = false;
    std::string scalar;
    std::vector<std::string> items;
  };
  const Value* scalar(const std::string& key) const;

  std::string file_name_;
  std::map<std::string, Value> values_;
};

}  // namespace attend
