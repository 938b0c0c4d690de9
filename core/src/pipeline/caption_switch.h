// Whether a call runs the caption layer (attend/translator.h CaptionRules) on a model, and the
// languages the layer reads and writes: the model file's, never guessed.
#pragma once

#include "attend/translator.h"
#include "caption/function_words.h"
#include "model/model_impl.h"

namespace attend {

inline bool caption_rules_on(const Model::Impl& model, CaptionRules rules) {
  return rules == CaptionRules::on || (rules == CaptionRules::as_model_asks && model.asks_for_caption_rules);
}

inline bool pass_through_on(const Model::Impl& model, PassThroughSpans pass) {
  return pass == PassThroughSpans::on || (pass == PassThroughSpans::as_model_asks && model.asks_for_pass_through);
}

// The languages `model`'s file names (attend.languages); unknown where it names none.
inline LanguagePair model_languages(const Model::Impl& model) {
  return {language_of_code(model.source_language), language_of_code(model.target_language)};
}

}  // namespace attend
