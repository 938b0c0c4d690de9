// Declarative option parsing with one-line errors (see option_parser.h).
#include "option_parser.h"

#include <cctype>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <limits>

#include "usage_error.h"

namespace attend::cli {

namespace {

std::string format_float(float value) {
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, "%g", value);
  return buffer;
}

// The whole text must be the number: no blanks, no trailing characters.
bool parse_long(const std::string& text, long* value) {
  if (text.empty() || std::isspace(static_cast<unsigned char>(text[0]))) return false;
  char* end = nullptr;
  errno = 0;
  *value = std::strtol(text.c_str(), &end, 10);
  return *end == '\0' && errno != ERANGE;
}

bool parse_float(const std::string& text, float* value) {
  if (text.empty() || std::isspace(static_cast<unsigned char>(text[0]))) return false;
  char* end = nullptr;
  errno = 0;
  *value = std::strtof(text.c_str(), &end);
  if (errno == ERANGE && *value == 0) {
    *value = std::copysign(std::numeric_limits<float>::denorm_min(), *value);  // 1e-50: tiny, not 0 ("off")
  }
  return *end == '\0' && std::isfinite(*value);
}

}  // namespace

OptionParser::OptionParser(std::string command, std::string synopsis)
    : command_(std::move(command)), synopsis_(std::move(synopsis)) {}

OptionParser::Option& OptionParser::add(const std::string& name, const std::string& value_name,
                                        const std::string& help) {
  options_.push_back(Option{});
  Option& option = options_.back();
  option.name = name;
  option.value_name = value_name;
  option.help = help;
  return option;
}

void OptionParser::add_flag(const std::string& name, const std::string& help, bool* target) {
  Option& option = add(name, "", help);
  option.takes_value = false;
  option.apply = [target](const std::string&) { *target = true; };
}

void OptionParser::add_int(const std::string& name, const std::string& value_name,
                           const std::string& help, int* target, int min, int max) {
  Option& option = add(name, value_name, help);
  option.default_text = std::to_string(*target);
  option.apply = [this, name, target, min, max](const std::string& text) {
    long value = 0;
    if (!parse_long(text, &value)) fail(name + " expects an integer, got '" + text + "'");
    if (value < min) fail(name + " must be at least " + std::to_string(min) + ", got " + text);
    if (value > max) fail(name + " must be at most " + std::to_string(max) + ", got " + text);
    *target = static_cast<int>(value);
  };
}

void OptionParser::add_float(const std::string& name, const std::string& value_name,
                             const std::string& help, float* target, float min, float max) {
  Option& option = add(name, value_name, help);
  option.default_text = format_float(*target);
  option.apply = [this, name, target, min, max](const std::string& text) {
    float value = 0;
    if (!parse_float(text, &value)) fail(name + " expects a number, got '" + text + "'");
    if (value < min) fail(name + " must be at least " + format_float(min) + ", got " + text);
    if (value > max) fail(name + " must be at most " + format_float(max) + ", got " + text);
    *target = value;
  };
}

void OptionParser::add_string(const std::string& name, const std::string& value_name,
                              const std::string& help, std::string* target) {
  Option& option = add(name, value_name, help);
  option.default_text = *target;
  option.apply = [this, name, target](const std::string& text) {
    if (text.empty()) fail(name + " expects a non-empty value");
    *target = text;
  };
}

void OptionParser::add_list(const std::string& name, const std::string& value_name,
                            const std::string& help, std::vector<std::string>* target) {
  Option& option = add(name, value_name, help + " (repeatable)");
  option.apply = [target](const std::string& text) { target->push_back(text); };
}

void OptionParser::add_positionals(const std::string& value_name, const std::string& help,
                                   std::vector<std::string>* target, size_t min, size_t max) {
  positional_name_ = value_name;
  positional_help_ = help;
  positionals_ = target;
  positional_min_ = min;
  positional_max_ = max;
}

void OptionParser::require(const std::string& name) { find(name)->required = true; }

OptionParser::Option* OptionParser::find(const std::string& name) {
  for (Option& option : options_) {
    if (option.name == name) return &option;
  }
  return nullptr;
}

const OptionParser::Option* OptionParser::find(const std::string& name) const {
  return const_cast<OptionParser*>(this)->find(name);
}

bool OptionParser::given(const std::string& name) const {
  const Option* option = find(name);
  return option != nullptr && option->given;
}

void OptionParser::fail(const std::string& message) const {
  throw UsageError(message + " (see '" + command_ + " --help')");
}

bool OptionParser::parse(const std::vector<std::string>& args) {
  std::vector<std::string> positionals;
  bool options_ended = false;
  for (size_t i = 0; i < args.size(); ++i) {
    const std::string& arg = args[i];
    if (options_ended || arg.size() < 2 || arg[0] != '-') {
      positionals.push_back(arg);
      continue;
    }
    if (arg == "--") {
      options_ended = true;
      continue;
    }
    if (arg == "--help" || arg == "-h") return false;
    size_t equals = arg.find('=');
    std::string name = arg.substr(0, equals);
    Option* option = find(name);
    if (option == nullptr) fail("unknown option '" + name + "' for '" + command_ + "'");
    if (!option->takes_value) {
      if (equals != std::string::npos) fail(name + " takes no value");
      option->apply("");
    } else if (equals != std::string::npos) {
      option->apply(arg.substr(equals + 1));
    } else if (i + 1 < args.size()) {
      option->apply(args[++i]);
    } else {
      fail(name + " needs a value " + option->value_name);
    }
    option->given = true;
  }
  for (const Option& option : options_) {
    if (option.required && !option.given) fail("missing required option " + option.name);
  }
  if (positionals_ == nullptr && !positionals.empty()) {
    fail("unexpected argument '" + positionals.front() + "'");
  }
  if (positionals_ != nullptr) {
    if (positionals.size() < positional_min_) fail("missing " + positional_name_);
    if (positionals.size() > positional_max_) {
      fail("unexpected argument '" + positionals[positional_max_] + "'");
    }
    *positionals_ = std::move(positionals);
  }
  return true;
}

std::string OptionParser::help() const {
  std::string text = "usage: " + command_ + " " + synopsis_ + "\n";
  if (positionals_ != nullptr && !positional_help_.empty()) {
    text += "\n  " + positional_name_ + "\n      " + positional_help_ + "\n";
  }
  text += "\noptions:\n";
  for (const Option& option : options_) {
    std::string line = "  " + option.name;
    if (option.takes_value) line += " " + option.value_name;
    text += line + "\n      " + option.help;
    if (option.required) {
      text += " (required)";
    } else if (!option.default_text.empty()) {
      text += " (default " + option.default_text + ")";
    }
    text += "\n";
  }
  text += "  --help\n      show this help\n";
  if (!notes_.empty()) text += "\n" + notes_;
  return text;
}

}  // namespace attend::cli
