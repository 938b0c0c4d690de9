// The shipped en-de model and its vocabularies, as the real-text tests read them.
#pragma once

#include <memory>
#include <string>

#include "attend/translator.h"
#include "model/model_impl.h"

namespace attend {

inline const std::shared_ptr<const Model>& shipped_model() {
  static const std::shared_ptr<const Model> model = Model::from_file(ATTEND_SHIPPED_MODEL);
  return model;
}

inline const Tokenizer& source_vocabulary() { return *shipped_model()->impl().src_tokenizer; }
inline const Tokenizer& target_vocabulary() { return *shipped_model()->impl().tgt_tokenizer; }

// `text` in the target vocabulary's pieces, as the search would have found it.
inline Hypothesis hypothesis(const std::string& text, bool ended_with_eos = true) {
  Hypothesis h;
  h.ids = target_vocabulary().encode(text);
  h.ended_with_eos = ended_with_eos;
  return h;
}

}  // namespace attend
