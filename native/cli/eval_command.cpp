// attend eval: corpus BLEU and chrF of a hypothesis file, or of a model's translation of a
// source file, against a reference file (plain or gzip), with sacreBLEU-style signatures.
#include <fstream>
#include <iostream>

#include "attend/error.h"
#include "commands.h"
#include "files.h"
#include "line_reader.h"
#include "line_translation.h"
#include "metrics.h"
#include "option_parser.h"
#include "search_settings.h"
#include "usage_error.h"

namespace attend::cli {

namespace {

struct EvalSettings {
  ModelChoice models;
  std::string src, ref, hyp, hyp_out;
  bool lowercase = false;
  SearchSettings search;
};

void check_modes(const OptionParser& parser, const EvalSettings& s) {
  auto fail = [](const std::string& message) {
    throw UsageError(message + " (see 'attend eval --help')");
  };
  if (s.models.paths.empty() == s.hyp.empty())
    fail("give either --hyp FILE or --model FILE with --src FILE");
  if (!s.models.paths.empty() && s.src.empty()) fail("--model needs --src FILE");
  if (!s.hyp.empty()) {
    if (!s.src.empty()) fail("--src goes with --model, not with --hyp");
    if (!s.hyp_out.empty()) fail("--hyp-out goes with --model, not with --hyp");
    std::string search_option = s.search.first_given(parser);
    if (!search_option.empty()) fail(search_option + " goes with --model, not with --hyp");
  }
}

// Translates every source line; failed lines become empty hypotheses. Returns the count
// of failed lines.
size_t translate_source(EvalSettings& s, const std::vector<std::string>& sources,
                        std::vector<std::string>* hyps) {
  std::shared_ptr<const Model> model = s.models.load(s.search.model.options());
  s.search.use_model(*model);
  return translate_lines(vector_source(sources), model, s.search, [&](const LineOutcome& outcome) {
    if (!outcome.error.empty()) {
      std::cerr << "attend: error: " << s.src << " line " << outcome.line << ": " << outcome.error
                << "\n";
    }
    hyps->push_back(outcome.text);
  });
}

void check_same_length(const std::string& path, size_t lines, const std::string& ref_path,
                       size_t ref_lines) {
  if (lines != ref_lines) {
    throw Error(ErrorCode::invalid_argument, "'" + path + "' has " + std::to_string(lines) +
                                                 " lines but '" + ref_path + "' has " +
                                                 std::to_string(ref_lines));
  }
}

// sacreBLEU's text format: "BLEU|<signature> = 34.21 ..." from "BLEU = 34.21 ...".
std::string with_signature(const std::string& score_line, const std::string& signature) {
  size_t equals = score_line.find(" = ");
  return score_line.substr(0, equals) + "|" + signature + score_line.substr(equals);
}

}  // namespace

int run_eval(const std::vector<std::string>& args) {
  OptionParser parser("attend eval", "--ref FILE (--hyp FILE | --model FILE --src FILE) [options]");
  EvalSettings s;
  parser.add_string("--ref", "FILE", "reference translations, one per line (.gz read too)", &s.ref);
  parser.require("--ref");
  parser.add_string("--hyp", "FILE", "translations to score, one per line (.gz read too)", &s.hyp);
  s.models.add_to(parser, "translate --src with this model, then score", /*optional=*/true);
  parser.add_string("--src", "FILE", "source sentences for --model (.gz read too)", &s.src);
  parser.add_string("--hyp-out", "FILE", "with --model: also write the translations here",
                    &s.hyp_out);
  parser.add_flag("--lowercase", "lowercase hypotheses and references before scoring",
                  &s.lowercase);
  s.search.add_to(parser);
  parser.set_notes(
      "Prints sacreBLEU-style lines (13a tokens, exp smoothing; chrF2 with 6 character orders):\n"
      "  BLEU|nrefs:1|case:mixed|eff:no|tok:13a|smooth:exp|version:... = 34.21 65.1/41.2/...\n"
      "  chrF2|nrefs:1|case:mixed|eff:yes|nc:6|nw:0|space:no|version:... = 61.58\n"
      "Source lines the model rejects are reported on stderr and scored as empty hypotheses;\n"
      "the exit status is then 1.\n");
  if (!parser.parse(args)) {
    std::cout << parser.help();
    return 0;
  }
  check_modes(parser, s);
  s.search.finish(parser);

  std::vector<std::string> refs = read_lines(s.ref);
  std::vector<std::string> hyps;
  size_t failed = 0;
  if (!s.hyp.empty()) {
    hyps = read_lines(s.hyp);
    check_same_length(s.hyp, hyps.size(), s.ref, refs.size());
  } else {
    std::vector<std::string> sources = read_lines(s.src);
    check_same_length(s.src, sources.size(), s.ref, refs.size());  // before translating
    if (!s.hyp_out.empty()) check_writable(s.hyp_out);  // before translating: a bad path costs nothing
    failed = translate_source(s, sources, &hyps);
    if (!s.hyp_out.empty()) {
      std::ofstream out;
      open_output(out, s.hyp_out);
      for (const std::string& hyp : hyps) out << hyp << "\n";
      check_written(out, "'" + s.hyp_out + "'");
    }
  }

  eval::BleuOptions bleu_options;
  bleu_options.lowercase = s.lowercase;
  eval::ChrfOptions chrf_options;
  chrf_options.lowercase = s.lowercase;
  eval::BleuScore bleu = eval::corpus_bleu(hyps, refs, bleu_options);
  eval::ChrfScore chrf = eval::corpus_chrf(hyps, refs, chrf_options);
  std::cout << with_signature(eval::format_bleu(bleu), eval::bleu_signature(bleu_options)) << "\n"
            << with_signature(eval::format_chrf(chrf, chrf_options),
                              eval::chrf_signature(chrf_options))
            << "\n";
  check_written(std::cout, "stdout");
  return failed == 0 ? 0 : 1;
}

}  // namespace attend::cli
