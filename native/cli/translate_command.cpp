// attend translate: text from the arguments or from stdin, one output line per input line
// (or `i ||| text ||| score` lines with --nbest), attention optionally to a JSON file; or, with
// --html, HTML in and the same markup out (attend/html.h).
#include <algorithm>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <iterator>
#include <limits>
#include <optional>

#include "attend/error.h"
#include "attend/html.h"
#include "attention_json.h"
#include "commands.h"
#include "detect/language_detection.h"
#include "files.h"
#include "line_confidence.h"
#include "line_reader.h"
#include "line_translation.h"
#include "option_parser.h"
#include "search_settings.h"
#include "usage_error.h"

namespace attend::cli {

namespace {

// Lines named one by one in the warning that a line is not in the model's source language.
constexpr size_t kOtherLanguageWarnings = 5;

// Marian / fairseq style: `i ||| text ||| score`, i the 0-based input line. A blank or
// failed line gets one entry with empty text and score 0, so every line has an entry.
void write_nbest(std::ostream& out, const LineOutcome& outcome) {
  const size_t index = outcome.line - 1;
  const Translation* translation = whole_line(outcome);
  if (translation == nullptr || translation->hypotheses.empty()) {
    out << index << " |||  ||| 0\n";
    return;
  }
  for (const Hypothesis& hypothesis : translation->hypotheses) {
    char score[32];
    std::snprintf(score, sizeof score, "%.6f", hypothesis.score);
    out << index << " ||| " << hypothesis.text << " ||| " << score << "\n";
  }
}

// `confidence<TAB>low|ok<TAB>translation` (line_confidence, 4 decimals; low below kLowConfidence),
// or `-<TAB>-<TAB>translation` for a line the model translated nothing of.
void write_with_confidence(std::ostream& out, const LineOutcome& outcome) {
  const std::optional<float> confidence = line_confidence(outcome);
  if (confidence) {
    char figure[32];
    std::snprintf(figure, sizeof figure, "%.4f", *confidence);
    out << figure << "\t" << (*confidence < kLowConfidence ? "low" : "ok");
  } else {
    out << "-\t-";
  }
  out << "\t" << outcome.text << "\n";
}

// attention_member: the ensemble member whose maps are the record's own (from 0).
void write_attention(std::ostream& out, const LineOutcome& outcome, int attention_member) {
  AttentionRecord record;
  record.line = outcome.line;
  record.source_text = *outcome.source;
  record.target_text = outcome.text;
  const Translation* translation = whole_line(outcome);
  if (translation != nullptr && translation->attention) {
    record.maps = &*translation->attention;
    record.members = &translation->member_attention;
    record.attention_member = attention_member;
  }
  write_attention_json(out, record);
}

struct TranslateArgs {
  ModelChoice models;
  std::string attention_path;
  SearchSettings settings;
  bool nbest_format = false;  // --nbest given: `i ||| text ||| score` lines
  bool confidence = false;    // --confidence: each line's confidence and flag before it
  bool html = false;          // --html: each TEXT, or stdin whole, is HTML
  std::vector<std::string> texts;
};

// Returns false when --help was given (and printed).
bool parse_args(const std::vector<std::string>& args, TranslateArgs* t) {
  OptionParser parser("attend translate", "--model FILE [options] [TEXT ...]");
  t->models.add_to(parser, "model file (.safetensors)");
  t->settings.add_to(parser);
  parser.add_int("--nbest", "N",
                 "print the N best hypotheses as `i ||| text ||| score` (N <= beam; also N = 1, "
                 "the input of `attend mbr`)",
                 &t->settings.options.nbest, 1, kMaxBeamSize);
  char threshold[16];
  std::snprintf(threshold, sizeof threshold, "%.2f", kLowConfidence);
  parser.add_flag("--confidence",
                  "print each line as `confidence<TAB>low|ok<TAB>translation`: the mean log-probability "
                  "per token of its least confident sentence (docs/confidence.md), `low` below " +
                      std::string(threshold) + "; `-<TAB>-` for a line the model translated nothing of",
                  &t->confidence);
  parser.add_string("--attention", "FILE",
                    "write the attention of each best hypothesis to FILE as JSON Lines "
                    "(docs/attention-json.md)",
                    &t->attention_path);
  parser.add_flag("--html",
                  "the input is HTML, a document or a fragment: its sentences are translated and its "
                  "markup kept around the words the attention aligns (docs/html.md); each TEXT is one "
                  "fragment and gives one output line, stdin is read whole as one",
                  &t->html);
  parser.add_positionals("TEXT",
                         "sentences to translate, one per argument; without them, stdin is "
                         "translated line by line (in chunks of at most 16 x batch x threads lines, "
                         "batched shortest first; a line is not held back waiting for later ones)",
                         &t->texts, 0, std::numeric_limits<size_t>::max());
  parser.set_notes(
      "Output: one line per input line, in input order. A line is cut into sentences, each\n"
      "translated on its own (not with --no-split, --nbest or --attention, which take lines whole);\n"
      "its indentation, list marker and the spaces between sentences are kept, and text\n"
      "without letters is copied. Blank input lines give empty lines without calling the model.\n"
      "Lines are cut in the model's source language (its abbreviations: Mr., bzw., Mme).\n"
      "Text the vocabulary lacks (emoji, a name in another script), web addresses, emoticons\n"
      "(:-) <3 ^_^) and numbers of two or more characters or with a sign ($12.99, -5) are not\n"
      "shown to the model and pass through, as written, where the attention aligns them; a\n"
      "sentence of nothing else is kept as written, without the model. A sentence mostly in\n"
      "characters the vocabulary lacks is copied unchanged, with `attend: note: line N: ...` on\n"
      "stderr. Otherwise a translation is the words the model's search produced, unless the\n"
      "caption rules are on (--caption-rules; on where the model file asks for them, as the\n"
      "shipped caption models do; docs/caption-rules.md): names the vocabulary spells out (IBM,\n"
      "iPhone; months and weekdays, written in the translation's language: Saturday -> Samstag)\n"
      "pass through too, and so does a number after a number word (number 7), read as 4; a\n"
      "title and name (Mrs. Brown: its title written the\n"
      "translation's way, Frau Brown) is read as \"someone\" and a quotation (a sign that says\n"
      "\"Free Hugs\") as \"S\" in its marks, each taking the place of its translation; quoted\n"
      "words (\"street clothes\") are read bare and the marks put around their translation; text\n"
      "in capitals is read in sentence case; a sentence that is a greeting or a letter's formula\n"
      "(Dear Mr Smith, / Vielen Dank! / Cordialement,) is written from a table in the model's\n"
      "other language, without the model; a sentence ending in ? or ! ends so in translation too\n"
      "(in place of the full stop a caption model writes).\n"
      "A line CLD2 finds in another language than the model's source language (attend.languages)\n"
      "is translated all the same, with `attend: warning: line N is in German (...), not English,\n"
      "which this model reads: ...` on stderr (the first 5 lines, then how many more).\n"
      "A line the model rejects (invalid UTF-8, ...) gives an empty output line and\n"
      "`attend: error: line N: ...` on stderr; the other lines are still translated and the\n"
      "exit status is then 1. Usage errors exit with 2.\n");
  if (!parser.parse(args)) {
    std::cout << parser.help();
    return false;
  }
  t->settings.finish(parser);
  t->nbest_format = parser.given("--nbest");
  // n-best lists and attention maps belong to one translation: of the whole line.
  if (t->nbest_format || !t->attention_path.empty()) t->settings.no_split = true;
  if (t->confidence && t->nbest_format) {
    throw UsageError("--confidence and --nbest: the n-best lines carry each hypothesis's score instead");
  }
  if (t->html) {
    for (const char* other : {"--nbest", "--confidence", "--attention", "--no-split"}) {
      if (parser.given(other)) throw UsageError(std::string("--html and ") + other + ": HTML is translated whole, markup and all");
    }
    if (t->settings.threads > 1) throw UsageError("--html takes one thread: its sentences are batched together");
  }
  return true;  // --nbest against the beam: SearchSettings::use_model, once the model's beam is known
}

// --html: each TEXT, or stdin whole, translated as HTML; one output line per TEXT, stdin's
// markup given back as it came (its line breaks included).
int translate_html_inputs(const TranslateArgs& t, std::shared_ptr<const Model> model) {
  Translator translator(std::move(model));
  const auto translated = [&](std::string_view html) {
    return translate_html(translator, html, t.settings.options, t.settings.batch).html;
  };
  if (t.texts.empty()) {
    const std::string html((std::istreambuf_iterator<char>(std::cin)), std::istreambuf_iterator<char>());
    if (std::cin.bad()) throw Error(ErrorCode::io, "cannot read stdin");
    std::cout << translated(html);
  } else {
    for (const std::string& html : t.texts) std::cout << translated(html) << "\n";
  }
  check_written(std::cout, "stdout");
  return 0;
}

}  // namespace

int run_translate(const std::vector<std::string>& args) {
  TranslateArgs t;
  if (!parse_args(args, &t)) return 0;
  std::shared_ptr<const Model> model = t.models.load(t.settings.model.options());
  t.settings.use_model(*model);
  if (t.html) return translate_html_inputs(t, std::move(model));
  std::ofstream attention_out;
  if (!t.attention_path.empty()) {
    open_output(attention_out, t.attention_path);
    t.settings.options.capture_attention = true;
  }
  std::optional<LineReader> stdin_reader;
  LineSource source = vector_source(t.texts);
  if (t.texts.empty()) {
    stdin_reader.emplace("-");
    source = {[&stdin_reader](std::string* line) { return stdin_reader->next(line); },
              [&stdin_reader] { return stdin_reader->ready(); }};
  }

  // A line CLD2 finds in another language than the one the model reads is translated all the same,
  // with a warning on stderr: the first few by line, then how many more.
  const std::string reads = model->info().source_language;
  size_t other_language_lines = 0;
  const auto warn_other_language = [&](const LineOutcome& outcome) {
    if (reads.empty() || outcome.source == nullptr) return;
    const std::optional<DetectedLanguage> found = other_language(*outcome.source, reads);
    if (!found) return;
    if (++other_language_lines > kOtherLanguageWarnings) return;
    std::cout.flush();
    std::cerr << "attend: warning: line " << outcome.line << " is in " << language_name(found->language) << " (CLD2: "
              << found->confidence << "% of its letters), not " << language_name(reads)
              << ", which this model reads: its translation is unreliable; use a model that reads "
              << language_name(found->language) << "\n";
  };
  size_t failed = translate_lines(source, model, t.settings, [&](const LineOutcome& outcome) {
    warn_other_language(outcome);
    if (!outcome.error.empty()) {
      std::cout.flush();
      std::cerr << "attend: error: line " << outcome.line << ": " << outcome.error << "\n";
    }
    const size_t unreadable = std::count_if(outcome.sentences.begin(), outcome.sentences.end(), [](const Translation* s) {
      return s != nullptr && s->status == TranslationStatus::unreadable_script;
    });
    if (unreadable > 0) {
      std::cout.flush();
      std::cerr << "attend: note: line " << outcome.line << ": " << unreadable
                << " sentence(s) in a script the model cannot read, copied unchanged\n";
    }
    if (t.nbest_format) {
      write_nbest(std::cout, outcome);
    } else if (t.confidence) {
      write_with_confidence(std::cout, outcome);
    } else {
      std::cout << outcome.text << "\n";
    }
    if (attention_out.is_open()) write_attention(attention_out, outcome, model->attention_member());
    // A reader on the other end of a pipe sees each line when it is done; a full disk or a
    // closed pipe stops the run at the line that could not be written.
    check_written(std::cout, "stdout");
    if (attention_out.is_open()) check_written(attention_out, "'" + t.attention_path + "'");
  });
  if (other_language_lines > kOtherLanguageWarnings) {
    std::cerr << "attend: warning: " << other_language_lines - kOtherLanguageWarnings << " more line(s) not in "
              << language_name(reads) << "\n";
  }
  return failed == 0 ? 0 : 1;
}

}  // namespace attend::cli
