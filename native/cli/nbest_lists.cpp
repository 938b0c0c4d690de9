// `i ||| text ||| score` parsing. The text is what lies between the first and the last
// separator, so a hypothesis containing " ||| " itself survives.
#include "nbest_lists.h"

#include "attend/error.h"
#include "line_reader.h"

namespace attend::cli {

namespace {

constexpr const char kSeparator[] = " ||| ";
constexpr size_t kSeparatorSize = sizeof kSeparator - 1;

[[noreturn]] void fail_line(const std::string& name, size_t line, const std::string& what) {
  throw Error(ErrorCode::invalid_input, "'" + name + "' line " + std::to_string(line) + ": " + what);
}

// The index as a number, or false if it is not 1 to 18 decimal digits.
bool parse_index(const std::string& text, size_t* index) {
  if (text.empty() || text.size() > 18) return false;
  *index = 0;
  for (const char ch : text) {
    if (ch < '0' || ch > '9') return false;
    *index = *index * 10 + static_cast<size_t>(ch - '0');
  }
  return true;
}

}  // namespace

std::vector<std::vector<std::string>> parse_nbest(const std::vector<std::string>& lines, const std::string& name) {
  std::vector<std::vector<std::string>> lists;
  for (size_t number = 1; number <= lines.size(); ++number) {
    const std::string& line = lines[number - 1];
    const size_t first = line.find(kSeparator), last = line.rfind(kSeparator);
    if (first == std::string::npos || first == last) fail_line(name, number, "expected `i ||| text ||| score`");
    const std::string index_text = line.substr(0, first);
    size_t index = 0;
    if (!parse_index(index_text, &index)) {
      fail_line(name, number, "the index '" + index_text + "' is not a line number");
    }
    if (index == lists.size()) {
      lists.emplace_back();
    } else if (lists.empty() || index + 1 != lists.size()) {
      const std::string previous = lists.empty() ? "the start" : "index " + std::to_string(lists.size() - 1);
      fail_line(name, number, "index " + index_text + " after " + previous +
                                  " (indices must run 0, 1, 2, ... as attend translate --nbest writes them)");
    }
    lists.back().push_back(line.substr(first + kSeparatorSize, last - first - kSeparatorSize));
  }
  return lists;
}

std::vector<std::vector<std::string>> read_nbest(const std::string& path) {
  return parse_nbest(read_lines(path), path);
}

}  // namespace attend::cli
