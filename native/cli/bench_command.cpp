// attend bench: end-to-end speed of translating a file (default: the first 1000 lines of
// Multi30k test_2016_flickr.en) over a grid of beam sizes, batch sizes and thread counts:
// sentences/s, target tokens/s, per-sentence latency at batch 1, model load time and peak
// memory (of the process, and of each setting alone), as a table or as JSON. bench/run.py runs it beside its peers on the same weights.
// With --document: translate_document on a document against translate_batch on its sentences.
#include <sys/resource.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <fstream>
#include <functional>
#include <iomanip>
#include <iostream>
#include <optional>
#include <nlohmann/json.hpp>
#include <sstream>

#include "attend/document.h"
#include "attend/error.h"
#include "attend/translator.h"
#include "commands.h"
#include "files.h"
#include "line_reader.h"
#include "line_translation.h"
#include "option_parser.h"
#include "peak_memory.h"
#include "search_settings.h"
#include "usage_error.h"

namespace attend::cli {

namespace {

using Clock = std::chrono::steady_clock;
using Json = nlohmann::ordered_json;

struct BenchArgs {
  ModelChoice models;
  std::string src_path = "../shared/data/multi30k/test_2016_flickr.en.gz";
  std::string beams = "1,5", batches = "1,32", threads = "1,2";
  int lines = 1000;
  int repeat = 1;
  int warmup = 8;
  bool json = false;
  std::string ids_out;
  std::string document_path;
  TranslateOptions options;
  ModelFlags model;
};

// One point of the grid and what was measured there (the fastest of the repeats).
struct Run {
  int beam = 1, batch = 1, threads = 1;
  double seconds = 0, cpu_seconds = 0;
  std::optional<double> peak_rss_mib;        // over this setting's repeats, when the kernel tells
  size_t target_tokens = 0;
  std::vector<double> latencies_ms;          // per sentence, batch 1 and 1 thread only
  std::vector<std::vector<int>> ids;         // best hypothesis of each sentence
  std::vector<std::vector<int>> source_ids;  // eos included
};

std::vector<int> parse_int_list(const std::string& option, const std::string& text, int min,
                                int max) {
  const auto wrong = [&] {
    return UsageError(option + " wants comma-separated integers in [" + std::to_string(min) + ", " +
                      std::to_string(max) + "], got '" + text + "'");
  };
  std::vector<int> values;
  std::stringstream stream(text);
  std::string item;
  while (std::getline(stream, item, ',')) {
    // Digits only: stoi would also take blanks before them and a sign.
    if (item.empty() || item.size() > 9 || item.find_first_not_of("0123456789") != std::string::npos) throw wrong();
    const int value = std::stoi(item);
    if (value < min || value > max) throw wrong();
    values.push_back(value);
  }
  if (values.empty() || text.back() == ',') throw wrong();  // getline drops an empty last item
  return values;
}

// The first `count` lines of a file that are not blank (nor, once usable_sources has run,
// only invisible characters): translate skips those too. line_numbers are 1-based.
struct SourceLines {
  std::vector<std::string> texts;
  std::vector<size_t> line_numbers;
};

SourceLines read_sources(const std::string& path, int count) {
  SourceLines sources;
  LineReader reader(path);
  size_t number = 0;
  for (std::string line; sources.texts.size() < static_cast<size_t>(count) && reader.next(&line);) {
    ++number;
    if (is_blank(line)) continue;
    sources.texts.push_back(line);
    sources.line_numbers.push_back(number);
  }
  return sources;
}

// The lines the model takes: each is tokenized (Translator::source_ids) before the grid
// starts; one of invisible characters only is left out, and one the model rejects (invalid
// UTF-8, too long) is an error naming it instead of a failure part-way through the measurements.
SourceLines usable_sources(const std::shared_ptr<const Model>& model, const SourceLines& sources,
                           const std::string& path) {
  const Translator translator(model);
  SourceLines usable;
  for (size_t i = 0; i < sources.texts.size(); ++i) {
    try {
      translator.source_ids(sources.texts[i]);
    } catch (const Error& error) {
      if (error.code() == ErrorCode::empty_input) continue;
      if (error.code() != ErrorCode::invalid_input) throw;
      throw Error(ErrorCode::invalid_input, "'" + path + "' line " + std::to_string(sources.line_numbers[i]) +
                                                ": " + error.what() + " (bench measures only lines the model takes)");
    }
    usable.texts.push_back(sources.texts[i]);
    usable.line_numbers.push_back(sources.line_numbers[i]);
  }
  if (usable.texts.empty()) throw Error(ErrorCode::invalid_argument, "'" + path + "' has no lines to translate");
  return usable;
}

double cpu_seconds_now() {
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  auto seconds = [](const timeval& t) { return t.tv_sec + t.tv_usec / 1e6; };
  return seconds(usage.ru_utime) + seconds(usage.ru_stime);
}

double peak_rss_mib() {
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  return usage.ru_maxrss / 1024.0;  // Linux reports KiB
}

double seconds_since(Clock::time_point start) {
  return std::chrono::duration<double>(Clock::now() - start).count();
}

// The q-quantile (0..1) by linear interpolation between closest ranks (numpy's default).
double quantile(std::vector<double> values, double q) {
  if (values.empty()) return 0;
  std::sort(values.begin(), values.end());
  const double position = q * (values.size() - 1);
  const size_t below = static_cast<size_t>(std::floor(position));
  const size_t above = std::min(below + 1, values.size() - 1);
  return values[below] + (values[above] - values[below]) * (position - below);
}

// What a hypothesis' search generated, eos left out: a final mark (caption/final_mark.h) added
// to ids after the search is no work of the model's and is not counted, nor is anything in a
// sentence not translated (TranslationStatus::unreadable_script: no tokens).
size_t generated_tokens(const Hypothesis& hypothesis) {
  return static_cast<size_t>(hypothesis.tokens - (hypothesis.ended_with_eos && hypothesis.tokens > 0 ? 1 : 0));
}

void keep_results(const std::vector<Translation>& translations, Run* run) {
  run->target_tokens = 0;
  run->ids.clear();
  run->source_ids.clear();
  for (const Translation& t : translations) {
    run->source_ids.push_back(t.source_ids);
    run->ids.push_back(t.hypotheses.empty() ? std::vector<int>() : t.hypotheses[0].ids);
    if (!t.hypotheses.empty()) run->target_tokens += generated_tokens(t.hypotheses[0]);
  }
}

// Times one pass over the texts. Batch 1 on 1 thread goes sentence by sentence through one
// Translator, so each sentence's latency is known; the rest is one translate_parallel call
// (contiguous shares per thread, batches of `batch` within a share), tokenizing included.
void measure(const std::shared_ptr<const Model>& model, const std::vector<std::string>& texts,
             TranslateOptions options, Run* run) {
  options.beam_size = run->beam;
  const Clock::time_point start = Clock::now();
  const double cpu_start = cpu_seconds_now();
  std::vector<Translation> translations;
  run->latencies_ms.clear();
  if (run->batch == 1 && run->threads == 1) {
    Translator translator(model);
    translations.reserve(texts.size());
    for (const std::string& text : texts) {
      const Clock::time_point sentence_start = Clock::now();
      translations.push_back(translator.translate(text, options));
      run->latencies_ms.push_back(seconds_since(sentence_start) * 1e3);
    }
  } else {
    translations = translate_parallel(model, texts, options, run->batch, run->threads);
  }
  run->seconds = seconds_since(start);
  run->cpu_seconds = cpu_seconds_now() - cpu_start;
  keep_results(translations, run);
}

std::string run_name(const Run& run) {
  return "beam" + std::to_string(run.beam) + "_batch" + std::to_string(run.batch) + "_threads" +
         std::to_string(run.threads);
}

Json run_json(const Run& run, size_t sentences) {
  Json out;
  out["name"] = run_name(run);
  out["beam"] = run.beam;
  out["batch"] = run.batch;
  out["threads"] = run.threads;
  out["seconds"] = run.seconds;
  out["cpu_seconds"] = run.cpu_seconds;
  out["sentences"] = sentences;
  out["target_tokens"] = run.target_tokens;
  out["sentences_per_second"] = sentences / run.seconds;
  out["target_tokens_per_second"] = run.target_tokens / run.seconds;
  if (run.peak_rss_mib) out["peak_rss_mib"] = *run.peak_rss_mib;
  if (!run.latencies_ms.empty()) {
    out["latency_ms"] = {{"p50", quantile(run.latencies_ms, 0.5)},
                         {"p90", quantile(run.latencies_ms, 0.9)},
                         {"mean", run.seconds * 1e3 / sentences}};
  }
  return out;
}

void print_table(std::ostream& out, const Json& report) {
  out << "model  " << report["model"]["path"].get<std::string>() << " ("
      << report["model"]["weight_dtype"].get<std::string>()
      << (report["model"]["int8_activations"].get<bool>() ? ", int8 activations" : "") << ", loaded in " << std::fixed
      << std::setprecision(1) << report["model"]["load_ms"].get<double>() << " ms)\n"
      << "device " << report["model"]["device"].get<std::string>() << "\n"
      << "input  " << report["input"]["path"].get<std::string>() << ": "
      << report["input"]["sentences"].get<size_t>() << " sentences, "
      << report["input"]["source_tokens"].get<size_t>() << " source tokens\n\n";
  out << " beam  batch  threads   sent/s   tgt tok/s   p50 ms   p90 ms   seconds   peak MiB\n";
  for (const Json& run : report["runs"]) {
    out << std::setw(5) << run["beam"].get<int>() << std::setw(7) << run["batch"].get<int>()
        << std::setw(9) << run["threads"].get<int>() << std::setw(9) << std::setprecision(1)
        << run["sentences_per_second"].get<double>() << std::setw(12) << std::setprecision(0)
        << run["target_tokens_per_second"].get<double>();
    if (run.contains("latency_ms")) {
      out << std::setw(9) << std::setprecision(2) << run["latency_ms"]["p50"].get<double>()
          << std::setw(9) << run["latency_ms"]["p90"].get<double>();
    } else {
      out << std::setw(9) << "-" << std::setw(9) << "-";
    }
    out << std::setw(10) << std::setprecision(2) << run["seconds"].get<double>();
    if (run.contains("peak_rss_mib")) {
      out << std::setw(11) << std::setprecision(1) << run["peak_rss_mib"].get<double>() << "\n";
    } else {
      out << std::setw(11) << "-" << "\n";
    }
  }
  out << "\npeak memory " << std::setprecision(1) << report["peak_rss_mib"].get<double>()
      << " MiB (maxrss of the process; peak MiB: of each setting alone)\n";
}

// --document: the whole document path (translate_document: sentence_breaks, plan_document with
// the model's plan_options, translate_batch per group, assemble_document) against translate_batch
// on the --src lines, which are the document's sentences one per line, and the cut alone
// (sentence_breaks and plan_document); one translator, the three interleaved in every repeat.
std::string read_document(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  if (in) text << in.rdbuf();
  if (!in || !text) throw Error(ErrorCode::io, "cannot read '" + path + "'");
  return text.str();
}

std::vector<DocumentSegment> cut(const Translator& translator, const std::string& document) {
  const PlanOptions plan = plan_options(translator);
  return plan_document(document, sentence_breaks(document, plan.language), plan);
}

Json document_run(Translator& translator, const std::vector<std::string>& texts, const std::string& document,
                  TranslateOptions options, int beam, int batch, int repeat) {
  options.beam_size = beam;
  std::vector<Translation> by_line;
  DocumentTranslation as_document;
  struct Times {
    std::vector<double> seconds, cpu_seconds;  // wall; CPU (user + system), which descheduling does not inflate
  } line, whole, cut_alone;
  const auto timed = [](Times* times, const std::function<void()>& work) {
    const Clock::time_point start = Clock::now();
    const double cpu_start = cpu_seconds_now();
    work();
    times->seconds.push_back(seconds_since(start));
    times->cpu_seconds.push_back(cpu_seconds_now() - cpu_start);
  };
  const auto lines_pass = [&] {
    timed(&line, [&] { by_line = translator.translate_batch(texts, options, batch); });
  };
  const auto document_pass = [&] {
    timed(&whole, [&] { as_document = translate_document(translator, document, options, batch); });
  };
  const auto cut_pass = [&] { timed(&cut_alone, [&] { cut(translator, document); }); };
  for (int r = 0; r < repeat; ++r) {  // the order alternates: neither path always follows the other
    if (r % 2 == 0) {
      lines_pass(), document_pass(), cut_pass();
    } else {
      cut_pass(), document_pass(), lines_pass();
    }
  }
  size_t differing = 0, target_tokens = 0;
  std::vector<std::string> line_texts;
  for (size_t k = 0; k < by_line.size(); ++k) {
    const Hypothesis& best = by_line[k].hypotheses.front();
    target_tokens += generated_tokens(best);
    line_texts.push_back(best.text);
    differing += k >= as_document.sentences.size() || as_document.sentences[k].hypotheses.front().ids != best.ids;
  }
  const bool same_text = as_document.sentences.size() == by_line.size() &&
                         assemble_document(document, as_document.segments, line_texts) == as_document.text;
  return {{"name", "beam" + std::to_string(beam) + "_batch" + std::to_string(batch) + "_threads1"},
          {"beam", beam},
          {"batch", batch},
          {"threads", 1},
          {"sentences", texts.size()},
          {"target_tokens", target_tokens},
          {"line_seconds", line.seconds},
          {"document_seconds", whole.seconds},
          {"cut_seconds", cut_alone.seconds},
          {"line_cpu_seconds", line.cpu_seconds},
          {"document_cpu_seconds", whole.cpu_seconds},
          {"cut_cpu_seconds", cut_alone.cpu_seconds},
          {"differing_sentences", differing},
          {"document_text_equal", same_text}};
}

// Reports first whether the document's plan has exactly the lines as its sentences, in order.
Json document_report(const std::shared_ptr<const Model>& model, const BenchArgs& b,
                     const std::vector<std::string>& texts, const std::vector<int>& beams,
                     const std::vector<int>& batches) {
  const std::string document = read_document(b.document_path);
  Translator translator(model);
  std::vector<std::string> planned;
  for (const DocumentSegment& s : cut(translator, document)) {
    if (s.translate) planned.push_back(document.substr(s.begin, s.end - s.begin));
  }
  const size_t first_difference =
      std::mismatch(planned.begin(), planned.end(), texts.begin(), texts.end()).first - planned.begin();
  Json report;
  report["tool"] = "attend bench --document";
  report["version"] = ATTEND_VERSION;
  report["model"] = {{"path", b.models.path_text()},
                     {"weight_dtype", model->info().weight_dtype},
                     {"int8_activations", model->info().int8_activations},
                     {"device", model->info().device}};
  report["input"] = {{"path", b.src_path}, {"sentences", texts.size()}, {"document", b.document_path},
                     {"document_bytes", document.size()}};
  report["plan"] = {{"sentences", planned.size()}, {"equals_lines", planned == texts},
                    {"first_difference", planned == texts ? Json() : Json(first_difference)}};
  report["options"] = {{"length_penalty", b.options.length_penalty},
                       {"max_length", b.options.max_length},
                       {"max_length_ratio", b.options.max_length_ratio},
                       {"repeat", b.repeat}};
  report["runs"] = Json::array();
  for (int beam : beams) {
    TranslateOptions warm = b.options;
    warm.beam_size = beam;
    const std::vector<std::string> first(texts.begin(), texts.begin() + std::min<size_t>(b.warmup, texts.size()));
    if (!first.empty()) translator.translate_batch(first, warm, 32);
    for (int batch : batches) {
      report["runs"].push_back(document_run(translator, texts, document, b.options, beam, batch, b.repeat));
      if (!b.json) std::cerr << "attend bench: " << report["runs"].back()["name"].get<std::string>() << " done\n";
    }
  }
  return report;
}

void print_document_table(std::ostream& out, const Json& report) {
  const auto best = [](const Json& seconds) { return std::min_element(seconds.begin(), seconds.end())->get<double>(); };
  out << "document " << report["input"]["document"].get<std::string>() << ": "
      << report["plan"]["sentences"].get<size_t>() << " sentences, "
      << (report["plan"]["equals_lines"].get<bool>() ? "the --src lines" : "NOT the --src lines") << "\n"
      << " beam  batch  one per line s  document s  overhead  cut ms  differing   (best of "
      << report["options"]["repeat"].get<int>() << ")\n";
  for (const Json& run : report["runs"]) {
    const double lines = best(run["line_seconds"]), document = best(run["document_seconds"]);
    out << std::fixed << std::setw(5) << run["beam"].get<int>() << std::setw(7) << run["batch"].get<int>()
        << std::setw(16) << std::setprecision(3) << lines << std::setw(12) << document << std::setw(9)
        << std::setprecision(1) << (document / lines - 1) * 100 << "%" << std::setw(8) << std::setprecision(2)
        << best(run["cut_seconds"]) * 1e3 << std::setw(11) << run["differing_sentences"].get<size_t>()
        << "\n";
  }
}

bool parse_args(const std::vector<std::string>& args, BenchArgs* b) {
  OptionParser parser("attend bench", "--model FILE [options]");
  b->models.add_to(parser, "model file (.safetensors)");
  parser.add_string("--src", "FILE", "source sentences, one per line (.gz read too)", &b->src_path);
  parser.add_int("--lines", "N", "translate the first N lines of --src that are not blank", &b->lines, 1, 1 << 24);
  parser.add_string("--beam", "LIST", "beam sizes (comma-separated); 1 is greedy", &b->beams);
  parser.add_string("--batch", "LIST", "batch sizes (sentences decoded together per thread)",
                    &b->batches);
  parser.add_string("--threads", "LIST", "thread counts (each thread its own translator)",
                    &b->threads);
  parser.add_int("--repeat", "N", "time each setting N times and keep the fastest", &b->repeat, 1,
                 100);
  parser.add_int("--warmup", "N", "translate N sentences untimed before each beam size", &b->warmup,
                 0, 1 << 20);
  parser.add_float("--alpha", "A", "length penalty ((5 + length) / 6)^A of beam search",
                   &b->options.length_penalty, 0.f, 10.f);
  parser.add_int("--max-len", "N", "at most N generated tokens per sentence, eos included",
                 &b->options.max_length, 1, 1 << 20);
  parser.add_float("--max-len-ratio", "R",
                   "at most ceil(R x source tokens) generated tokens; 0 = no ratio limit",
                   &b->options.max_length_ratio, 0.f, 1000.f);
  b->model.add_to(parser);
  parser.add_flag("--json", "print the report as JSON instead of a table", &b->json);
  parser.add_string("--ids-out", "FILE",
                    "write the source ids and every setting's output ids as JSON (to compare "
                    "engines on the same work)",
                    &b->ids_out);
  parser.add_string("--document", "FILE",
                    "instead of the grid: translate_document on FILE, whose sentences must be the --src "
                    "lines, against translate_batch on those lines, and the cut alone, interleaved "
                    "--repeat times on one translator (1 thread; --threads is not used)",
                    &b->document_path);
  parser.set_notes(
      "Every setting translates the same sentences. Batch 1 with 1 thread goes sentence by\n"
      "sentence and gives the latency percentiles (p50, p90); the other settings are one\n"
      "translate_parallel call. Times include tokenizing and detokenizing; target tokens are\n"
      "the tokens the search generated for the best hypotheses, eos left out (a \"?\" or \"!\"\n"
      "put in after the search is not counted). The default --src is relative to the\n"
      "repository root. Peers on the same weights: scripts/bench.sh (docs/benchmarks.md).\n");
  if (!parser.parse(args)) {
    std::cout << parser.help();
    return false;
  }
  return true;
}

}  // namespace

int run_bench(const std::vector<std::string>& args) {
  BenchArgs b;
  if (!parse_args(args, &b)) return 0;
  const std::vector<int> beams = parse_int_list("--beam", b.beams, 1, kMaxBeamSize);
  const std::vector<int> batches = parse_int_list("--batch", b.batches, 1, 1 << 16);
  const std::vector<int> thread_counts = parse_int_list("--threads", b.threads, 1, 256);

  const SourceLines read = read_sources(b.src_path, b.lines);

  const Clock::time_point load_start = Clock::now();
  std::shared_ptr<const Model> model = b.models.load(b.model.options());
  const double load_ms = seconds_since(load_start) * 1e3;
  const double rss_after_load = peak_rss_mib();
  const ModelInfo info = model->info();
  const SourceLines sources = usable_sources(model, read, b.src_path);
  const std::vector<std::string>& texts = sources.texts;

  if (!b.document_path.empty()) {
    const Json report = document_report(model, b, texts, beams, batches);
    if (b.json) {
      std::cout << report.dump(2) << "\n";
    } else {
      print_document_table(std::cout, report);
    }
    check_written(std::cout, "stdout");
    return 0;
  }

  std::vector<Run> runs;
  for (int beam : beams) {
    TranslateOptions warm = b.options;
    warm.beam_size = beam;
    const std::vector<std::string> first(texts.begin(),
                                         texts.begin() + std::min<size_t>(b.warmup, texts.size()));
    if (!first.empty()) Translator(model).translate_batch(first, warm, 32);
    for (int batch : batches) {
      for (int threads : thread_counts) {
        Run best;
        const bool peak_reset = reset_peak_memory();
        for (int r = 0; r < b.repeat; ++r) {
          Run run;
          run.beam = beam;
          run.batch = batch;
          run.threads = threads;
          measure(model, texts, b.options, &run);
          if (r == 0 || run.seconds < best.seconds) best = std::move(run);
        }
        if (peak_reset) best.peak_rss_mib = peak_memory_mib();
        if (!b.json) std::cerr << "attend bench: " << run_name(best) << " done\n";
        runs.push_back(std::move(best));
      }
    }
  }

  size_t source_tokens = 0;
  for (const std::vector<int>& ids : runs.front().source_ids) source_tokens += ids.size();

  Json report;
  report["tool"] = "attend bench";
  report["version"] = ATTEND_VERSION;
  report["model"] = {{"path", b.models.path_text()},
                     {"weight_dtype", info.weight_dtype},
                     {"int8_activations", info.int8_activations},
                     {"device", info.device},
                     {"parameters", info.parameter_count},
                     {"file_bytes", info.file_bytes},
                     {"load_ms", load_ms}};
  report["input"] = {
      {"path", b.src_path}, {"sentences", texts.size()}, {"source_tokens", source_tokens}};
  report["options"] = {{"length_penalty", b.options.length_penalty},
                       {"max_length", b.options.max_length},
                       {"max_length_ratio", b.options.max_length_ratio},
                       {"repeat", b.repeat}};
  report["runs"] = Json::array();
  for (const Run& run : runs) report["runs"].push_back(run_json(run, texts.size()));
  report["rss_after_load_mib"] = rss_after_load;
  report["peak_rss_mib"] = peak_rss_mib();

  if (!b.ids_out.empty()) {
    Json ids;
    ids["sources"] = runs.front().source_ids;
    ids["runs"] = Json::object();
    for (const Run& run : runs) ids["runs"][run_name(run)] = run.ids;
    std::ofstream out;
    open_output(out, b.ids_out);
    out << ids.dump() << "\n";
    check_written(out, "'" + b.ids_out + "'");
  }
  if (b.json) {
    std::cout << report.dump(2) << "\n";
  } else {
    print_table(std::cout, report);
  }
  check_written(std::cout, "stdout");
  return 0;
}

}  // namespace attend::cli
