// attend: the command-line front end. Finds the subcommand and turns every error into one
// line on stderr: status 2 for a wrong command line, 1 for anything else that failed.
#include <exception>
#include <iostream>
#include <new>
#include <string>
#include <vector>

#include "attend/error.h"
#include "commands.h"
#include "usage_error.h"

namespace attend::cli {
namespace {

void print_usage(std::ostream& out) {
  out << "usage: attend COMMAND [options]   (attend COMMAND --help for its options)\n\ncommands:\n";
  for (const Command& command : commands()) {
    out << "  " << command.name << std::string(12 - std::string(command.name).size(), ' ')
        << command.summary << "\n";
  }
  out << "\n  attend --version   print the version\n";
}

std::string command_names() {
  std::string names;
  for (const Command& command : commands())
    names += std::string(names.empty() ? "" : ", ") + command.name;
  return names;
}

int dispatch(const std::vector<std::string>& args) {
  if (args.empty()) {
    throw UsageError("no command given (commands: " + command_names() + "; see 'attend --help')");
  }
  const std::string& name = args.front();
  if (name == "--help" || name == "-h" || name == "help") {
    print_usage(std::cout);
    return 0;
  }
  if (name == "--version") {
    std::cout << "attend " << ATTEND_VERSION << "\n";
    return 0;
  }
  for (const Command& command : commands()) {
    if (name == command.name) return command.run({args.begin() + 1, args.end()});
  }
  throw UsageError("unknown command '" + name + "' (commands: " + command_names() +
                   "; see 'attend --help')");
}

int report(const char* message, int status) {
  std::cout.flush();
  std::cerr << "attend: error: " << message << "\n";
  return status;
}

}  // namespace
}  // namespace attend::cli

int main(int argc, char** argv) {
  using namespace attend::cli;
  std::ios::sync_with_stdio(false);
  try {
    return dispatch(std::vector<std::string>(argv + 1, argv + argc));
  } catch (const UsageError& error) {
    return report(error.what(), 2);
  } catch (const attend::Error& error) {
    return report(error.what(), 1);
  } catch (const std::bad_alloc&) {
    return report("out of memory", 1);
  } catch (const std::exception& error) {
    return report((std::string("internal error: ") + error.what()).c_str(), 1);
  } catch (...) {
    return report("internal error", 1);
  }
}
