// A small command-line parser: options are declared with the variable they fill, parsed
// from `--name value` or `--name=value`, and checked (type, range, required). Anything
// wrong throws UsageError with one line naming the option and the offending value.
//
//   OptionParser parser("attend translate", "[options] [TEXT ...]");
//   parser.add_int("--beam", "N", "beam size", &beam, 1, 1024);
//   parser.add_positionals("TEXT", &texts, 0, SIZE_MAX);
//   if (!parser.parse(args)) { std::cout << parser.help(); return 0; }  // --help was given
#pragma once

#include <cstddef>
#include <functional>
#include <string>
#include <vector>

namespace attend::cli {

class OptionParser {
 public:
  OptionParser(std::string command, std::string synopsis);
  OptionParser(const OptionParser&) = delete;  // the options' checks refer to this parser
  OptionParser& operator=(const OptionParser&) = delete;

  void add_flag(const std::string& name, const std::string& help, bool* target);
  void add_int(const std::string& name, const std::string& value_name, const std::string& help,
               int* target, int min, int max);
  void add_float(const std::string& name, const std::string& value_name, const std::string& help,
                 float* target, float min, float max);
  void add_string(const std::string& name, const std::string& value_name, const std::string& help,
                  std::string* target);
  // May be given any number of times; each value is appended.
  void add_list(const std::string& name, const std::string& value_name, const std::string& help,
                std::vector<std::string>* target);
  // Arguments that are not options (and everything after `--`), between min and max of them.
  void add_positionals(const std::string& value_name, const std::string& help,
                       std::vector<std::string>* target, size_t min, size_t max);
  void require(const std::string& name);
  // Text printed after the options in help(), e.g. how output and errors look.
  void set_notes(std::string notes) { notes_ = std::move(notes); }

  // Fills the targets. Returns false when --help was given (the caller prints help()).
  bool parse(const std::vector<std::string>& args);
  bool given(const std::string& name) const;  // after parse: was the option on the line?
  std::string help() const;

 private:
  struct Option {
    std::string name, value_name, help, default_text;
    bool takes_value = true;
    bool required = false;
    bool given = false;
    std::function<void(const std::string& value)> apply;  // throws UsageError
  };
  Option& add(const std::string& name, const std::string& value_name, const std::string& help);
  Option* find(const std::string& name);
  const Option* find(const std::string& name) const;
  [[noreturn]] void fail(const std::string& message) const;

  std::string command_, synopsis_, notes_;
  std::vector<Option> options_;
  std::string positional_name_, positional_help_;
  std::vector<std::string>* positionals_ = nullptr;
  size_t positional_min_ = 0, positional_max_ = 0;
};

}  // namespace attend::cli
