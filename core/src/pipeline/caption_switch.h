// Whether a call runs the caption layer (attend/translator.h CaptionRules) on a model.
#pragma once

#include "attend/translator.h"
#include "model/model_impl.h"

namespace attend {

inline bool caption_rules_on(const Model::Impl& model, CaptionRules rules) {
  return rules == CaptionRules::on || (rules == CaptionRules::as_model_asks && model.asks_for_caption_rules);
}

}  // namespace attend
