// translate_html (attend/html.h): every sentence of the fragment translated together, then each
// block put back with its elements placed.
#include <string>
#include <vector>

#include "attend/error.h"
#include "attend/html.h"
#include "html/block_translation.h"
#include "html/sentence_alignment.h"
#include "model/model_impl.h"
#include "pipeline/caption_switch.h"

namespace attend {
namespace {

struct SentenceSource {
  size_t block = 0, begin = 0, end = 0;
  bool markup = false;  // its translation needs a word alignment
};

// Translates sources[members] (their attention captured if `capture`) into translations[members].
void translate_group(Translator& translator, const std::vector<PreparedSource>& sources, const std::vector<size_t>& members,
                     TranslateOptions options, bool capture, int batch_size, std::vector<Translation>& translations) {
  if (members.empty()) return;
  std::vector<PreparedSource> group;
  for (const size_t i : members) group.push_back(sources[i]);
  options.capture_attention = options.capture_attention || capture;
  if (options.on_step) {  // sentences numbered in the fragment, not in the group
    options.on_step = [on_step = options.on_step, &members](const StepEvent& event) {
      StepEvent in_fragment = event;
      in_fragment.sentence = static_cast<int>(members[event.sentence]);
      return on_step(in_fragment);
    };
  }
  std::vector<Translation> translated = translator.translate_prepared(group, options, batch_size);
  for (size_t m = 0; m < members.size(); ++m) translations[members[m]] = std::move(translated[m]);
}

}  // namespace

HtmlTranslation translate_html(Translator& translator, const HtmlFragment& fragment,
                               const std::vector<std::vector<size_t>>& breaks_per_block, const TranslateOptions& options,
                               int batch_size) {
  if (breaks_per_block.size() != fragment.blocks.size()) {
    throw Error(ErrorCode::invalid_argument, "translate_html: " + std::to_string(breaks_per_block.size()) +
                                                 " lists of sentence breaks for " + std::to_string(fragment.blocks.size()) + " blocks");
  }
  if (batch_size < 1) throw Error(ErrorCode::invalid_argument, "batch size must be at least 1, got " + std::to_string(batch_size));
  const std::vector<std::string> texts = block_texts(fragment);
  const PlanOptions plan = plan_options(translator, options.caption_rules);
  std::vector<SentenceSource> found;
  std::vector<PreparedSource> sources;
  std::vector<size_t> with_markup, without_markup;
  PlanContext context;  // the blocks are parts of one document: "<p>Best regards,</p><p>Anna</p>"
  for (size_t k = 0; k < texts.size(); ++k) {
    const std::vector<size_t> edges = element_edges(fragment.blocks[k]);
    for (const DocumentSegment& segment : plan_document(texts[k], breaks_per_block[k], plan, &context)) {
      if (!segment.translate) continue;
      const bool markup = holds_markup(edges, segment.begin, segment.end);
      (markup ? with_markup : without_markup).push_back(found.size());
      found.push_back(SentenceSource{k, segment.begin, segment.end, markup});
      sources.push_back(translator.prepare(std::string_view(texts[k]).substr(segment.begin, segment.end - segment.begin),
                                           options.caption_rules, options.pass_through));
    }
  }
  std::vector<Translation> translations(found.size());
  translate_group(translator, sources, with_markup, options, true, batch_size, translations);
  translate_group(translator, sources, without_markup, options, false, batch_size, translations);

  const Model::Impl& model = translator.model().impl();
  HtmlFragment out;
  out.markup = fragment.markup;
  std::vector<std::vector<TranslatedSentence>> per_block(fragment.blocks.size());
  HtmlTranslation result;
  for (size_t i = 0; i < found.size(); ++i) {
    const SentenceSource& s = found[i];
    const std::string text = texts[s.block].substr(s.begin, s.end - s.begin);
    TranslatedSentence sentence{s.begin, s.end, translations[i].hypotheses.at(0).text, {}};
    if (s.markup) {
      sentence.alignment = sentence_alignment(text, sources[i], translations[i], *model.src_tokenizer, *model.tgt_tokenizer,
                                              model_languages(model));
      if (!options.capture_attention) translations[i].attention.reset();
    }
    per_block[s.block].push_back(std::move(sentence));
    result.sentences.push_back(HtmlSentence{s.block, s.begin, s.end, text, std::move(translations[i])});
  }
  for (size_t k = 0; k < fragment.blocks.size(); ++k) out.blocks.push_back(translate_block(fragment.blocks[k], per_block[k]));
  result.html = serialize_html(out);
  return result;
}

#ifndef __EMSCRIPTEN__
HtmlTranslation translate_html(Translator& translator, std::string_view html, const TranslateOptions& options, int batch_size) {
  const HtmlFragment fragment = parse_html(html);
  const std::string& language = translator.model().impl().source_language;
  std::vector<std::vector<size_t>> breaks;
  for (const std::string& text : block_texts(fragment)) breaks.push_back(sentence_breaks(text, language));
  return translate_html(translator, fragment, breaks, options, batch_size);
}
#endif

}  // namespace attend
