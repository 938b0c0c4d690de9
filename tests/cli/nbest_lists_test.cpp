// parse_nbest: attend translate --nbest output read back, its errors, and a fuzz of damaged
// files (each parses or throws attend::Error; the ASan build checks the memory side).
#include "nbest_lists.h"

#include <gtest/gtest.h>

#include <random>
#include <string>
#include <vector>

#include "attend/error.h"

namespace attend::cli {
namespace {

using Lists = std::vector<std::vector<std::string>>;

std::vector<std::string> split_lines(const std::string& text) {
  std::vector<std::string> lines;
  size_t begin = 0;
  for (size_t end; (end = text.find('\n', begin)) != std::string::npos; begin = end + 1) {
    lines.push_back(text.substr(begin, end - begin));
  }
  if (begin < text.size()) lines.push_back(text.substr(begin));
  return lines;
}

const std::string kValid =
    "0 ||| Ein Hund rennt. ||| -0.412345\n"
    "0 ||| Ein Hund läuft. ||| -0.9\n"
    "1 |||  ||| 0\n"
    "2 ||| a ||| b ||| -1.5\n";

TEST(ParseNbest, ListsPerInputLine) {
  EXPECT_EQ(parse_nbest(split_lines(kValid), "f"),
            (Lists{{"Ein Hund rennt.", "Ein Hund läuft."}, {""}, {"a ||| b"}}));
  EXPECT_EQ(parse_nbest({}, "f"), Lists{});
}

TEST(ParseNbest, ErrorsNameTheFileAndLine) {
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"0 ||| text\n", "'f' line 1: expected `i ||| text ||| score`"},
      {"0 ||| a ||| 1\n-1 ||| b ||| 1\n", "'f' line 2: the index '-1' is not a line number"},
      {"0 ||| a ||| 1\n1 ||| b ||| 1\n0 ||| c ||| 1\n", "'f' line 3: index 0 after index 1"},
      {"3 ||| a ||| 1\n", "'f' line 1: index 3 after the start"},
      {"99999999999999999999 ||| a ||| 1\n", "'f' line 1: the index '99999999999999999999' is not"},
  };
  for (const auto& [text, message] : cases) {
    try {
      parse_nbest(split_lines(text), "f");
      ADD_FAILURE() << "no error for " << text;
    } catch (const Error& e) {
      EXPECT_EQ(e.code(), ErrorCode::invalid_input);
      EXPECT_NE(std::string(e.what()).find(message), std::string::npos) << e.what();
    }
  }
}

TEST(ParseNbest, DamagedFilesParseOrThrow) {
  std::mt19937 rng(5);
  const std::string alphabet = "0123456789 |\n-.aé";
  for (int round = 0; round < 3000; ++round) {
    std::string text = kValid;
    const int edits = 1 + static_cast<int>(rng() % 6);
    for (int e = 0; e < edits; ++e) {
      const size_t at = rng() % text.size();
      switch (rng() % 3) {
        case 0: text[at] = alphabet[rng() % alphabet.size()]; break;
        case 1: text.erase(at, 1 + rng() % 8); break;
        default: text.insert(at, 1, alphabet[rng() % alphabet.size()]); break;
      }
      if (text.empty()) text = "\n";
    }
    try {
      const Lists lists = parse_nbest(split_lines(text), "fuzz");
      for (const auto& list : lists) EXPECT_FALSE(list.empty());
    } catch (const Error& e) {
      EXPECT_EQ(e.code(), ErrorCode::invalid_input) << e.what();
    }
  }
}

}  // namespace
}  // namespace attend::cli
