// attend mbr: one translation per input line chosen from the n-best lists of one or more
// `attend translate --nbest N` runs (e.g. several models on the same source) by minimum Bayes
// risk: the hypothesis with the highest total sentence BLEU against all hypotheses of that line.
#include <iostream>
#include <limits>

#include "attend/error.h"
#include "commands.h"
#include "files.h"
#include "mbr.h"
#include "nbest_lists.h"
#include "option_parser.h"

namespace attend::cli {

int run_mbr(const std::vector<std::string>& args) {
  OptionParser parser("attend mbr", "NBEST_FILE [NBEST_FILE ...]");
  std::vector<std::string> paths;
  parser.add_positionals("NBEST_FILE",
                         "`i ||| text ||| score` lines from attend translate --nbest N, one file per "
                         "model (or run) over the same input",
                         &paths, 1, std::numeric_limits<size_t>::max());
  parser.set_notes(
      "Output: one line per input line i: of the hypotheses of line i in all files, the one\n"
      "with the highest sum of sentence BLEU (13a, exp smoothing, effective order) against\n"
      "every hypothesis of line i, itself included; ties go to the earliest. A hypothesis that\n"
      "appears in several lists counts once per appearance. Every file must cover the same lines.\n");
  if (!parser.parse(args)) {
    std::cout << parser.help();
    return 0;
  }
  std::vector<std::vector<std::vector<std::string>>> files;  // [file][line][hypothesis]
  for (const std::string& path : paths) {
    files.push_back(read_nbest(path));
    if (files.back().size() != files.front().size()) {
      throw Error(ErrorCode::invalid_argument, "'" + path + "' has n-best lists for " +
                                                   std::to_string(files.back().size()) + " lines but '" +
                                                   paths.front() + "' for " +
                                                   std::to_string(files.front().size()));
    }
  }
  std::vector<std::string> pool;
  for (size_t line = 0; line < files.front().size(); ++line) {
    pool.clear();
    for (const auto& lists : files) pool.insert(pool.end(), lists[line].begin(), lists[line].end());
    std::cout << pool[eval::mbr_select(pool)] << "\n";
  }
  check_written(std::cout, "stdout");
  return 0;
}

}  // namespace attend::cli
