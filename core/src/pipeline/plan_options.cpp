// model_sentence_check and plan_options (attend/document.h): a sentence tokenized as
// Translator::translate does; the model's source language; the caption layer's phrases.
#include "attend/document.h"
#include "attend/error.h"
#include "caption/set_phrases.h"
#include "model/model_impl.h"
#include "pipeline/caption_switch.h"

namespace attend {

SentenceCheck model_sentence_check(const Translator& translator) {
  return [&translator](std::string_view sentence) {
    try {
      translator.source_ids(sentence);
      return SentenceFit::whole;
    } catch (const Error& error) {
      if (error.code() == ErrorCode::empty_input) return SentenceFit::empty;
      // Valid UTF-8 (plan_document's input) is refused only for having more tokens than positions.
      if (error.code() == ErrorCode::invalid_input) return SentenceFit::too_long;
      throw;
    }
  };
}

PlanOptions plan_options(const Translator& translator, CaptionRules rules) {
  const Model::Impl& model = translator.model().impl();
  PlanOptions options;
  options.check = model_sentence_check(translator);
  options.language = model.source_language;
  if (caption_rules_on(model, rules)) options.phrases = letter_phrases();
  return options;
}

}  // namespace attend
