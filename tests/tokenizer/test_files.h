// Where the tokenizer tests find the vocabularies and Multi30k text that the
// train_vocabularies.sh fixture made, and small file helpers.
#pragma once

#include <string>
#include <vector>

namespace attend::test {

// Directory with the trained *.model files and text/<split>.<lang>.
std::string vocab_dir();
std::string model_path(const std::string& model_name);
// Whole file as bytes; fails the test (throws) if it cannot be read.
std::string read_file(const std::string& path);
// Lines split at '\n' as std::getline does (no trailing empty line after a final '\n').
std::vector<std::string> read_lines(const std::string& path);
void write_lines(const std::string& path, const std::vector<std::string>& lines);

}  // namespace attend::test
