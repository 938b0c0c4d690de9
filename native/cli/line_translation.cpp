// Chunked, order-keeping translation of lines with per-line failure isolation.
#include "line_translation.h"

#include <exception>
#include <optional>

#include "attend/document.h"
#include "attend/error.h"
#include "line_plan.h"

namespace attend::cli {

namespace {

// A chunk holds several batches' lines per thread: translate_prepared decodes its sentences
// shortest first, so each batch is of similar lengths (as CTranslate2 reads 16 batches ahead).
constexpr size_t kBatchesPerChunk = 16;

bool is_about_one_line(const Error& error) {
  return error.code() == ErrorCode::invalid_input || error.code() == ErrorCode::empty_input;
}

class ChunkTranslator {
 public:
  ChunkTranslator(std::shared_ptr<const Model> model, const SearchSettings& settings)
      : model_(std::move(model)), settings_(settings) {}

  // Translates texts[i] for every i with a result slot; a line the model rejects gets its
  // error message instead. Each line is prepared first (Translator::prepare: its ids, the text
  // the vocabulary lacks, which passes through), which finds the lines the model rejects; the
  // others are translated together. Should that fail on one line all the same, each is
  // translated on its own.
  void translate(const std::vector<std::string>& texts, std::vector<Translation>* results,
                 std::vector<std::string>* errors) {
    errors->assign(texts.size(), std::string());
    results->assign(texts.size(), Translation{});
    std::vector<PreparedSource> accepted;
    std::vector<size_t> positions;  // of accepted[k] in texts
    for (size_t i = 0; i < texts.size(); ++i) {
      if (try_line(i, errors, [&] { accepted.push_back(single().prepare(texts[i], settings_.options.caption_rules, settings_.options.pass_through)); })) positions.push_back(i);
    }
    try {
      std::vector<Translation> translated = translate_together(accepted);
      for (size_t k = 0; k < accepted.size(); ++k) (*results)[positions[k]] = std::move(translated[k]);
      return;
    } catch (const Error& error) {
      if (!is_about_one_line(error)) throw;
    }
    for (size_t k = 0; k < accepted.size(); ++k) {
      try_line(positions[k], errors, [&] {
        (*results)[positions[k]] = std::move(single().translate_prepared({accepted[k]}, settings_.options, 1)[0]);
      });
    }
  }

  // The segments of a non-blank line (plan_line); the lines are planned in order as parts of one
  // document (a signature on the line after a letter's closing is kept).
  std::vector<DocumentSegment> plan(const std::string& line) {
    return plan_line(single(), line, settings_.options.caption_rules, settings_.no_split, &plan_context_);
  }

 private:
  std::vector<Translation> translate_together(const std::vector<PreparedSource>& sources) {
    if (sources.empty()) return {};
    return settings_.threads > 1
               ? translate_prepared_parallel(model_, sources, settings_.options, settings_.batch, settings_.threads)
               : single().translate_prepared(sources, settings_.options, settings_.batch);
  }

  // Runs `attempt` for line i; a rejection of the line becomes its error (none for a line of
  // invisible characters only, which is blank too). Whether the line was taken.
  template <class Attempt>
  static bool try_line(size_t i, std::vector<std::string>* errors, const Attempt& attempt) {
    try {
      attempt();
      return true;
    } catch (const Error& error) {
      if (!is_about_one_line(error)) throw;
      if (error.code() == ErrorCode::invalid_input) (*errors)[i] = error.what();
      return false;
    }
  }

  Translator& single() {
    if (!translator_) translator_.emplace(model_);
    return *translator_;
  }

  std::shared_ptr<const Model> model_;
  const SearchSettings& settings_;
  std::optional<Translator> translator_;
  PlanContext plan_context_;
};

}  // namespace

LineSource vector_source(const std::vector<std::string>& lines) {
  size_t next = 0;
  auto next_line = [&lines, next](std::string* line) mutable {
    if (next == lines.size()) return false;
    *line = lines[next++];
    return true;
  };
  return {next_line, [] { return true; }};
}

const Translation* whole_line(const LineOutcome& outcome) {
  return outcome.sentences.size() == 1 ? outcome.sentences.front() : nullptr;
}

size_t translate_lines(const LineSource& source, std::shared_ptr<const Model> model,
                       const SearchSettings& settings,
                       const std::function<void(const LineOutcome&)>& on_line) {
  const size_t chunk_lines = kBatchesPerChunk * static_cast<size_t>(settings.batch) * settings.threads;
  ChunkTranslator translator(std::move(model), settings);
  std::vector<std::string> lines, texts;
  std::vector<std::vector<DocumentSegment>> plans;  // [lines]
  std::vector<Translation> results;                 // [texts]: every sentence of the chunk
  std::vector<std::string> errors;                  // [texts]
  size_t first_line = 1, failed = 0;
  bool more = true;
  std::exception_ptr read_error;  // raised once the lines read before it are answered
  while (more) {
    lines.clear();
    std::string line;
    try {
      while (lines.size() < chunk_lines && (lines.empty() || source.ready()) && (more = source.next(&line))) {
        lines.push_back(line);
      }
    } catch (const Error&) {
      read_error = std::current_exception();
      more = false;
    }
    texts.clear();
    plans.assign(lines.size(), {});
    for (size_t i = 0; i < lines.size(); ++i) {
      if (is_blank(lines[i])) continue;
      plans[i] = translator.plan(lines[i]);
      for (const DocumentSegment& segment : plans[i]) {
        if (segment.translate) texts.push_back(lines[i].substr(segment.begin, segment.end - segment.begin));
      }
    }
    if (!texts.empty()) translator.translate(texts, &results, &errors);
    size_t next_text = 0;
    for (size_t i = 0; i < lines.size(); ++i) {
      LineOutcome outcome;
      outcome.line = first_line + i;
      outcome.source = &lines[i];
      std::vector<std::string> translations;
      for (const DocumentSegment& segment : plans[i]) {
        if (!segment.translate) continue;
        if (outcome.error.empty()) outcome.error = errors[next_text];
        const std::vector<Hypothesis>& hypotheses = results[next_text].hypotheses;
        translations.push_back(hypotheses.empty() ? std::string() : hypotheses.front().text);
        outcome.sentences.push_back(&results[next_text]);
        ++next_text;
      }
      if (outcome.error.empty()) {
        outcome.text = assemble_document(lines[i], plans[i], translations);
      } else {
        outcome.sentences.clear();
      }
      failed += outcome.error.empty() ? 0 : 1;
      on_line(outcome);
    }
    first_line += lines.size();
  }
  if (read_error) std::rethrow_exception(read_error);
  return failed;
}

}  // namespace attend::cli
