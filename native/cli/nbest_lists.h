// Reading `attend translate --nbest N` output: `i ||| text ||| score` lines, i the 0-based
// input line, each repeated once per hypothesis, the indices running 0, 1, 2, ...
#pragma once

#include <string>
#include <vector>

namespace attend::cli {

// [input line][hypothesis] texts in file order. A line that is not `i ||| text ||| score`, or an
// index out of sequence, throws attend::Error(invalid_input) naming `name` and the line number.
std::vector<std::vector<std::string>> parse_nbest(const std::vector<std::string>& lines, const std::string& name);

// parse_nbest of a file (plain, gzip or "-" for stdin), named by its path in errors.
std::vector<std::vector<std::string>> read_nbest(const std::string& path);

}  // namespace attend::cli
