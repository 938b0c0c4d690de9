// Greedy and beam search over a batch of encoded sentences; the rules are the reference's
// (training/attend_ref/search.py), so the chosen tokens match it. The loop is written once,
// on the host, over a StepScorer (decode/step_scorer.h) that runs the decoder.
#pragma once

#include <vector>

#include "attend/translator.h"
#include "decode/step_scorer.h"
#include "model/model_impl.h"

namespace attend {

struct SearchHypothesis {
  std::vector<int> ids;  // without bos/eos
  float score = 0.f;     // greedy: log_prob; beam: log_prob / length penalty
  float log_prob = 0.f;  // Σ log p, eos included when generated
  int tokens = 0;        // generated tokens, eos included
  bool ended_with_eos = true;
};

struct SearchRequest {
  const Model::Impl& model;  // its config's special ids; its target tokenizer names step events' pieces
  const TranslateOptions& options;
  const float* memory;                     // [N, D] encoder output, sentences back to back
  const std::vector<int>& source_offsets;  // [sentences + 1]
  std::vector<int> limits;                 // [sentences] generated tokens allowed, eos included
  std::vector<uint8_t> allowed = {};       // [V] DecodeShape::allowed, or empty: every token
};

// GNMT's length penalty ((5 + length) / 6)^alpha: beam search ranks Σ log p / this.
float length_penalty(int length, float alpha);

// Generated-token limit for one sentence (see search.py: decode_limit).
int decode_limit(const ModelConfig& c, int source_len, const TranslateOptions& options);

// Greedy when options.beam_size is 1 (the beam rules with one beam, the best token only and no
// length penalty), else beam search. Returns up to nbest hypotheses per sentence, best first.
std::vector<std::vector<SearchHypothesis>> search(const SearchRequest& request, StepScorer& scorer);

}  // namespace attend
