// The decoding options that `translate` and `eval` share: declared once on a parser,
// checked, then turned into attend::TranslateOptions for a loaded model.
#pragma once

#include <string>
#include <vector>

#include "attend/translator.h"
#include "option_parser.h"

namespace attend::cli {

// How the commands that load a model load it: --int8-activations, --device, --compute.
struct ModelFlags {
  bool int8_activations = false;
  std::string device = "cpu";
  std::string compute = "f32";

  void add_to(OptionParser& parser);
  // Throws UsageError for a device or compute type it does not know.
  ModelOptions options() const;
};

struct SearchSettings {
  TranslateOptions options;  // beam, alpha, length limits; defaults are the library's
  int batch = 32;            // sentences decoded together (and per thread)
  int threads = 1;
  std::vector<std::string> mask_heads;  // kind:layer:head
  ModelFlags model;                     // --int8-activations, --device, --compute
  bool no_split = false;                // --no-split: a line is one sentence, as before documents
  std::string rerank_with;              // --rerank-with: the reverse model's file
  std::string caption_rules = "auto";  // --caption-rules: auto, on or off (CaptionRules)
  std::string pass_through = "auto";   // --pass-through: auto, on or off (PassThroughSpans)
  std::string search_rules = "auto";   // --search: auto, attend or marian (SearchRules)
  bool no_shortlist = false;           // --no-shortlist

  void add_to(OptionParser& parser);
  // After parsing: turns --mask-head values into options.masked_heads; checks the reranking
  // options go together. Throws UsageError.
  void finish(const OptionParser& parser);
  // Takes the search the model file asks for (default_options: its beam too) where the command
  // line named none; throws UsageError if then options.nbest exceeds the beam, if --rerank-with
  // has no beam to rerank, or if a masked head is not in the model (its attention member's, for
  // an ensemble); loads --rerank-with's model into options.reverse_model (attend::Error naming it).
  void use_model(const Model& model);
  // The first of these options given on the command line, or "" (for commands where they
  // only apply in some modes).
  std::string first_given(const OptionParser& parser) const;

 private:
  std::vector<std::string> names_;
  std::vector<std::string> given_;  // of names_, those on the command line (finish)
};


}  // namespace attend::cli
