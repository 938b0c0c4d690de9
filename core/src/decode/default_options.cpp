#include "attend/translator.h"

#include "model/model_impl.h"

namespace attend {

TranslateOptions default_options(const Model& model) {
  const SearchDefaults& asked = model.impl().search;  // not info(): that lists every tensor, on every call
  TranslateOptions o;
  if (asked.marian_rules) o.search_rules = *asked.marian_rules ? SearchRules::marian : SearchRules::attend;
  if (asked.beam_size) o.beam_size = *asked.beam_size;
  if (asked.max_length_ratio) o.max_length_ratio = *asked.max_length_ratio;
  if (asked.length_penalty) o.length_penalty = *asked.length_penalty;
  if (asked.word_penalty) o.word_penalty = *asked.word_penalty;
  if (asked.max_repeats) o.max_repeats = *asked.max_repeats;
  return o;
}

}  // namespace attend
