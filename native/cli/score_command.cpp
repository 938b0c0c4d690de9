// attend score: how likely a model finds given translations. For each line pair of --src and
// --tgt, the log-probability of the target under teacher forcing (eos included) and its token
// count, e.g. to rerank n-best lists with a reverse model or an ensemble (training/attend_ref/distill.py).
#include <cstdio>
#include <iostream>

#include "attend/error.h"
#include "attend/translator.h"
#include "commands.h"
#include "files.h"
#include "line_reader.h"
#include "option_parser.h"
#include "search_settings.h"

namespace attend::cli {

int run_score(const std::vector<std::string>& args) {
  OptionParser parser("attend score", "--model FILE --src FILE --tgt FILE [options]");
  ModelChoice models;
  std::string src_path, tgt_path;
  int threads = 1, batch = 32;
  ModelFlags model_flags;
  models.add_to(parser, "model file");
  parser.add_string("--src", "FILE", "source sentences, one per line (.gz read too)", &src_path);
  parser.add_string("--tgt", "FILE", "their translations to score, one per line (.gz read too)", &tgt_path);
  for (const char* required : {"--model", "--src", "--tgt"}) parser.require(required);
  parser.add_int("--batch", "N", "line pairs decoded together per thread", &batch, 1, 1 << 16);
  parser.add_int("--threads", "N", "scoring threads (each with its own translator)", &threads, 1, 256);
  model_flags.add_to(parser);
  parser.set_notes(
      "Output: one line per line pair, `log_prob<TAB>tokens`: the sum of log p(token | source,\n"
      "tokens before it) over the target's tokens and eos (natural log), and their count (eos\n"
      "included). An empty target scores eos alone. A line the model refuses (invalid UTF-8, an\n"
      "empty source, too many tokens) fails the command, naming it (pair k = line k); nothing is\n"
      "printed.\n");
  if (!parser.parse(args)) {
    std::cout << parser.help();
    return 0;
  }
  const std::vector<std::string> sources = read_lines(src_path), targets = read_lines(tgt_path);
  if (sources.size() != targets.size()) {
    throw Error(ErrorCode::invalid_argument, "'" + src_path + "' has " + std::to_string(sources.size()) +
                                                 " lines but '" + tgt_path + "' has " + std::to_string(targets.size()));
  }
  std::shared_ptr<const Model> model = models.load(model_flags.options());
  std::vector<TargetScore> scores;
  try {
    scores = score_parallel(model, sources, targets, threads, batch);
  } catch (const Error& error) {  // "pair k of n: ..." is line k of both files
    throw Error(error.code(), "'" + src_path + "' / '" + tgt_path + "': " + error.what());
  }
  char line[64];
  for (const TargetScore& s : scores) {
    std::snprintf(line, sizeof line, "%.6f\t%d\n", s.log_prob, s.tokens);
    std::cout << line;
  }
  check_written(std::cout, "stdout");
  return 0;
}

}  // namespace attend::cli
