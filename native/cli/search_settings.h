// The decoding options that `translate` and `eval` share: declared once on a parser,
// checked, then turned into attend::TranslateOptions for a loaded model.
#pragma once

#include <string>
#include <vector>

#include "attend/translator.h"
#include "option_parser.h"

namespace attend::cli {

struct SearchSettings {
  TranslateOptions options;  // beam, alpha, length limits; defaults are the library's
  int batch = 32;            // sentences decoded together (and per thread)
  int threads = 1;
  std::vector<std::string> mask_heads;  // kind:layer:head
  bool int8_activations = false;        // --int8-activations
  bool no_split = false;                // --no-split: a line is one sentence, as before documents

  void add_to(OptionParser& parser);
  // After parsing: turns --mask-head values into options.masked_heads. Throws UsageError.
  void finish();
  // Throws UsageError if a masked head is not in the model.
  void check_model(const ModelConfig& config) const;
  // The first of these options given on the command line, or "" (for commands where they
  // only apply in some modes).
  std::string first_given(const OptionParser& parser) const;

 private:
  std::vector<std::string> names_;
};

// --int8-activations, for the commands that load a model, and the ModelOptions it asks for.
void add_int8_activations_flag(OptionParser& parser, bool* int8_activations);
ModelOptions model_options(bool int8_activations);

}  // namespace attend::cli
