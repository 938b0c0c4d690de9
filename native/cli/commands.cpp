// The subcommand table.
#include "commands.h"

namespace attend::cli {

const std::vector<Command>& commands() {
  static const std::vector<Command> table = {
      {"translate", "translate text from arguments or stdin", run_translate},
      {"inspect", "show a model file's configuration, sizes and tensors", run_inspect},
      {"eval", "score translations with BLEU and chrF (translating first if given a model)",
       run_eval},
      {"bench", "time translation over beam, batch and thread settings", run_bench},
      {"mbr", "pick each line's consensus translation from n-best lists (minimum Bayes risk)",
       run_mbr},
      {"score", "log-probability of given translations under a model (teacher forcing)", run_score},
      {"import", "make a Marian model (Firefox Translations, OPUS-MT) and its vocabulary an Attend model file",
       run_import},
      {"serve", "translate over HTTP: LibreTranslate's API, requests batched together (docs/serve.md)", run_serve},
  };
  return table;
}

}  // namespace attend::cli
