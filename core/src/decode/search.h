// Greedy and beam search over a batch of encoded sentences; the rules are the reference's
// (training/attend_ref/search.py), so the chosen tokens match it.
#pragma once

#include <functional>
#include <vector>

#include "attend/translator.h"
#include "model/decoder.h"
#include "model/head_mask.h"
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
  const Model::Impl& model;
  const KernelTable& kernels;
  const HeadMask& mask;
  const TranslateOptions& options;
  const float* memory;                      // [N, D] encoder output, sentences back to back
  const std::vector<int>& source_offsets;  // [sentences + 1]
  std::vector<int> limits;                 // [sentences] generated tokens allowed, eos included
};

// Generated-token limit for one sentence (see search.py: decode_limit).
int decode_limit(const ModelConfig& c, int source_len, const TranslateOptions& options);

// Sizes the workspace, computes the cross-attention K/V, then decodes.
// Returns up to nbest hypotheses per sentence, best first.
std::vector<std::vector<SearchHypothesis>> greedy_search(const SearchRequest& request, DecoderWorkspace& ws);
std::vector<std::vector<SearchHypothesis>> beam_search(const SearchRequest& request, DecoderWorkspace& ws);

}  // namespace attend
