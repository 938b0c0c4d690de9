#include "test_files.h"

#include <fstream>
#include <iterator>
#include <stdexcept>

namespace attend::test {

std::string vocab_dir() { return ATTEND_TOKENIZER_VOCAB_DIR; }

std::string model_path(const std::string& model_name) {
  return vocab_dir() + "/" + model_name + ".model";
}

std::string read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw std::runtime_error("cannot read " + path + " (did the vocabulary fixture run?)");
  return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

std::vector<std::string> read_lines(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw std::runtime_error("cannot read " + path + " (did the vocabulary fixture run?)");
  std::vector<std::string> lines;
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

void write_lines(const std::string& path, const std::vector<std::string>& lines) {
  std::ofstream out(path, std::ios::binary);
  for (const auto& line : lines) out << line << '\n';
  if (!out) throw std::runtime_error("cannot write " + path);
}

}  // namespace attend::test
