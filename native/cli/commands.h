// The registry of `attend` subcommands: to add one, write its run function in its own file
// and add a row to commands() in commands.cpp.
#pragma once

#include <string>
#include <vector>

namespace attend::cli {

// Runs a subcommand on the arguments after its name and returns the exit status. Throws
// UsageError for a wrong command line and attend::Error for failures.
using CommandRun = int (*)(const std::vector<std::string>& args);

struct Command {
  const char* name;
  const char* summary;
  CommandRun run;
};

const std::vector<Command>& commands();

int run_translate(const std::vector<std::string>& args);
int run_inspect(const std::vector<std::string>& args);
int run_eval(const std::vector<std::string>& args);
int run_bench(const std::vector<std::string>& args);
int run_mbr(const std::vector<std::string>& args);
int run_score(const std::vector<std::string>& args);
int run_import(const std::vector<std::string>& args);
int run_serve(const std::vector<std::string>& args);

}  // namespace attend::cli
