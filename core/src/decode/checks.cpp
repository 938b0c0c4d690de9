#include "decode/checks.h"

#include <cmath>
#include <string>

#include "attend/error.h"
#include "model/model_impl.h"

namespace attend {

void check_options(const TranslateOptions& o) {
  auto fail = [](const std::string& m) { throw Error(ErrorCode::invalid_argument, m); };
  if (o.beam_size < 1 || o.beam_size > kMaxBeamSize) {
    fail("beam size must be in [1, " + std::to_string(kMaxBeamSize) + "], got " + std::to_string(o.beam_size));
  }
  if (o.nbest < 1 || o.nbest > o.beam_size) {
    fail("nbest must be in [1, beam size " + std::to_string(o.beam_size) + "], got " + std::to_string(o.nbest));
  }
  if (o.max_length < 1) fail("max length must be at least 1, got " + std::to_string(o.max_length));
  if (!std::isfinite(o.length_penalty) || o.length_penalty < 0) {
    fail("length penalty (alpha) must be a finite number ≥ 0, got " + std::to_string(o.length_penalty));
  }
  if (!std::isfinite(o.max_length_ratio) || o.max_length_ratio < 0) {
    fail("max length ratio must be a finite number ≥ 0, got " + std::to_string(o.max_length_ratio));
  }
  if (o.batch_words < 0) fail("batch words must be at least 0 (0 = batch size's groups), got " + std::to_string(o.batch_words));
  if (o.max_repeats < 0) fail("max repeats must be at least 0 (0 = off), got " + std::to_string(o.max_repeats));
  if (o.reverse_model && o.beam_size < 2) {
    fail("reranking by a reverse model needs beam search (beam size ≥ 2): greedy search finds one hypothesis");
  }
  if (!std::isfinite(o.reverse_weight) || o.reverse_weight < 0) {
    fail("reverse weight must be a finite number ≥ 0, got " + std::to_string(o.reverse_weight));
  }
}

void check_source(const ModelConfig& c, const std::vector<int>& ids) {
  if (ids.empty() || ids.back() != c.eos_id) {
    throw Error(ErrorCode::invalid_argument, "source ids must end with eos (" + std::to_string(c.eos_id) + ")");
  }
  if (static_cast<int>(ids.size()) > c.max_positions) {
    throw Error(ErrorCode::invalid_input, "the sentence has " + std::to_string(ids.size()) +
                                              " tokens; this model takes at most " + std::to_string(c.max_positions));
  }
  for (int id : ids) {
    if (id < 0 || id >= c.src_vocab_size) {
      throw Error(ErrorCode::invalid_argument, "source id " + std::to_string(id) + " is outside the vocabulary [0, " +
                                                   std::to_string(c.src_vocab_size) + ")");
    }
  }
}

void check_target(const ModelConfig& c, const std::vector<int>& ids) {
  for (int id : ids) {
    if (id < 0 || id >= c.tgt_vocab_size) {
      throw Error(ErrorCode::invalid_argument, "target id " + std::to_string(id) + " is outside the vocabulary");
    }
  }
  if (static_cast<int>(ids.size()) + 1 > c.max_positions) {
    throw Error(ErrorCode::invalid_input, "the target has " + std::to_string(ids.size() + 1) +
                                              " positions with bos; this model takes at most " + std::to_string(c.max_positions));
  }
}

std::vector<int> sentence_ids(const Model::Impl& model, std::vector<int> ids) {
  if (ids.empty()) throw Error(ErrorCode::empty_input, "nothing to translate: the text is empty or only whitespace");
  ids.push_back(model.config.eos_id);
  if (static_cast<int>(ids.size()) > model.source_positions) {
    const bool token_kept = model.source_positions < model.config.max_positions;
    throw Error(ErrorCode::invalid_input, "the sentence has " + std::to_string(ids.size()) + " tokens; this model takes at most " +
                                              std::to_string(model.source_positions) + (token_kept ? " and its target-language token" : ""));
  }
  check_source(model.config, ids);
  return ids;
}


}  // namespace attend
