// translate_document (attend/document.h): plan, translate the sentences in groups, assemble.
#include <algorithm>
#include <string>

#include "attend/document.h"
#include "attend/error.h"
#include "tokenizer/utf8.h"

namespace attend {
namespace {

// Sentences per group between two progress reports: several batches, so that each batch still
// holds sentences of similar length (translate_ids sorts a group by length).
constexpr size_t kBatchesPerGroup = 8;

}  // namespace

DocumentTranslation translate_document(Translator& translator, std::string_view text, const TranslateOptions& options,
                                       int batch_size, const std::function<bool(const DocumentProgress&)>& on_progress) {
  if (batch_size < 1) throw Error(ErrorCode::invalid_argument, "batch size must be at least 1, got " + std::to_string(batch_size));
  require_valid_utf8(text);
  DocumentTranslation out;
  const PlanOptions plan = plan_options(translator, options.caption_rules);
  out.segments = plan_document(text, sentence_breaks(text, plan.language), plan);
  std::vector<std::string> sources;
  for (const DocumentSegment& segment : out.segments) {
    if (segment.translate) sources.emplace_back(text.substr(segment.begin, segment.end - segment.begin));
  }
  if (sources.empty()) throw Error(ErrorCode::empty_input, "nothing to translate: the document has no sentence");

  const size_t group = kBatchesPerGroup * static_cast<size_t>(batch_size);
  std::vector<std::string> translations;
  for (size_t first = 0; first < sources.size(); first += group) {
    const size_t last = std::min(sources.size(), first + group);
    TranslateOptions group_options = options;
    if (options.on_step) {  // sentences numbered in the document, not in the group
      group_options.on_step = [&options, first](const StepEvent& event) {
        StepEvent in_document = event;
        in_document.sentence += static_cast<int>(first);
        return options.on_step(in_document);
      };
    }
    const std::vector<std::string> texts(sources.begin() + first, sources.begin() + last);
    for (Translation& translation : translator.translate_batch(texts, group_options, batch_size)) {
      translations.push_back(translation.hypotheses.front().text);
      out.sentences.push_back(std::move(translation));
    }
    if (on_progress && !on_progress(DocumentProgress{last, sources.size()})) {
      throw Error(ErrorCode::cancelled, "document translation cancelled by the caller");
    }
  }
  out.text = assemble_document(text, out.segments, translations);
  return out;
}

}  // namespace attend
