#include "text_translation.h"

#include <algorithm>

#include "attend/document.h"
#include "attend/error.h"
#include "attend/html.h"
#include "http_exchange.h"
#include "line_plan.h"

namespace attend::server {
namespace {

// The text cut at every '\n', one '\r' before each cut dropped (as the CLI reads its input).
std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> lines;
  size_t start = 0;
  for (;;) {
    size_t end = text.find('\n', start);
    const bool last = end == std::string::npos;
    if (last) end = text.size();
    std::string line = text.substr(start, end - start);
    if (!last && !line.empty() && line.back() == '\r') line.pop_back();
    lines.push_back(std::move(line));
    if (last) return lines;
    start = end + 1;
  }
}

ApiError too_many_sentences(size_t sentences, size_t limit) {
  return ApiError{413, "the request holds " + std::to_string(sentences) + " sentences; at most " + std::to_string(limit) +
                           " are taken in one request"};
}

// Where each line's translated segments are among the request's sentences.
struct PlannedLine {
  std::string text;
  std::vector<DocumentSegment> segments;
  std::vector<long> sentence;  // per translated segment: its index in the request's sentences, -1: nothing to translate
};

}  // namespace

TextTranslator::TextTranslator(const ServedModels& models, SentenceBatcher& batcher, size_t max_sentences)
    : models_(models), batcher_(batcher), max_sentences_(max_sentences) {}

std::vector<TextTranslation> TextTranslator::translate(size_t model, const std::vector<std::string>& texts,
                                                       const SearchAsk& ask, bool whole_lines) const {
  const ServedModel& served = models_.all()[model];
  const Translator preparer(served.model);  // prepare() and the plan only read the model
  std::vector<std::vector<PlannedLine>> plans(texts.size());
  std::vector<PreparedSource> sources;
  std::vector<std::string> sentence_texts;
  for (size_t t = 0; t < texts.size(); ++t) {
    PlanContext context;
    const std::vector<std::string> lines = lines_of(texts[t]);
    for (size_t l = 0; l < lines.size(); ++l) {
      PlannedLine line{lines[l], {}, {}};
      if (!cli::is_blank(line.text)) {
        line.segments = cli::plan_line(preparer, line.text, served.options.caption_rules, whole_lines, &context);
      }
      for (const DocumentSegment& segment : line.segments) {
        if (!segment.translate) continue;
        const std::string sentence = line.text.substr(segment.begin, segment.end - segment.begin);
        try {
          sources.push_back(preparer.prepare(sentence, served.options.caption_rules, served.options.pass_through));
          line.sentence.push_back(static_cast<long>(sentence_texts.size()));
          sentence_texts.push_back(sentence);
        } catch (const Error& error) {
          if (error.code() == ErrorCode::empty_input) {
            line.sentence.push_back(-1);
            continue;
          }
          if (error.code() != ErrorCode::invalid_input) throw;
          throw ApiError{400, "q[" + std::to_string(t) + "] line " + std::to_string(l + 1) + ": " + error.what()};
        }
        if (sources.size() > max_sentences_) throw too_many_sentences(sources.size(), max_sentences_);
      }
      plans[t].push_back(std::move(line));
    }
  }
  std::vector<SentenceOutcome> outcomes = batcher_.translate(model, std::move(sources), ask);
  for (size_t i = 0; i < outcomes.size(); ++i) {
    if (!outcomes[i].error.empty()) throw ApiError{400, "\"" + sentence_texts[i] + "\": " + outcomes[i].error};
  }

  std::vector<TextTranslation> results(texts.size());
  for (size_t t = 0; t < texts.size(); ++t) {
    size_t most_hypotheses = 0;
    for (const PlannedLine& line : plans[t]) {
      for (long s : line.sentence) {
        static const Translation kNothing;
        const Translation& translation = s < 0 ? kNothing : outcomes[s].translation;
        most_hypotheses = std::max(most_hypotheses, translation.hypotheses.size());
        results[t].sentences.push_back({s < 0 ? std::string() : sentence_texts[s], translation});
      }
    }
    // Hypothesis k of each sentence (its best when it has fewer), the lines put back.
    const auto assembled = [&](size_t k) {
      std::string text;
      for (size_t l = 0; l < plans[t].size(); ++l) {
        const PlannedLine& line = plans[t][l];
        std::vector<std::string> translations;
        for (long s : line.sentence) {
          static const std::vector<Hypothesis> kNone;
          const std::vector<Hypothesis>& hypotheses = s < 0 ? kNone : outcomes[s].translation.hypotheses;
          translations.push_back(hypotheses.empty() ? std::string() : hypotheses[std::min(k, hypotheses.size() - 1)].text);
        }
        if (l > 0) text += "\n";
        if (!line.segments.empty()) text += assemble_document(line.text, line.segments, translations);
      }
      return text;
    };
    results[t].text = assembled(0);
    for (size_t k = 1; k < most_hypotheses; ++k) results[t].alternatives.push_back(assembled(k));
  }
  return results;
}

std::string TextTranslator::translate_html(size_t model, const std::string& html, const std::string& target_token) const {
  const ServedModel& served = models_.all()[model];
  HtmlFragment fragment;
  try {
    fragment = parse_html(html);
  } catch (const Error& error) {
    if (error.code() != ErrorCode::invalid_input) throw;
    throw ApiError{400, std::string("q is not valid HTML text: ") + error.what()};
  }
  // The sentences are counted as translate_html will cut them, before a worker is given them.
  const Translator preparer(served.model);
  const PlanOptions plan = plan_options(preparer, served.options.caption_rules);
  const std::vector<std::string> texts = block_texts(fragment);
  std::vector<std::vector<size_t>> breaks;
  size_t sentences = 0;
  for (const std::string& text : texts) {
    breaks.push_back(sentence_breaks(text, plan.language));
    for (const DocumentSegment& segment : plan_document(text, breaks.back(), plan)) sentences += segment.translate ? 1 : 0;
  }
  if (sentences > max_sentences_) throw too_many_sentences(sentences, max_sentences_);
  TranslateOptions options = served.options;
  if (!target_token.empty()) options.target_token = target_token;
  std::string translated;
  batcher_.run(model, [&](Translator& translator) {
    translated = attend::translate_html(translator, fragment, breaks, options, served.batch).html;
  });
  return translated;
}

}  // namespace attend::server
