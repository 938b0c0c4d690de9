// What the search loop (decode/search.cpp) asks of whatever runs the decoder: the CPU's
// decoder_step (decode/cpu_step_scorer.h), a device, an ensemble. The loop keeps everything
// else on the host: beams, finished hypotheses, the length penalty, the repeat guard, early
// stop, step events. Legend: R rows (hypotheses) this step, P cache slots, V target vocabulary,
// N source tokens of all sentences, D d_model, L decoder layers, H heads, S one source's length.
//
// A backend must:
// - prepare(): take the encoder output of the sentences and size its caches for `slots`
//   hypotheses of up to `max_steps` positions (growing them as steps come is allowed);
// - step(): feed row r its token at position `step` with the cache of slot slots[r] and the
//   source of sentence sentences[r]; then give, per row, the k best next tokens, best first:
//     log_prob(t) = logit(t) - log Σ_j exp(logit(j))   (j over ALL V tokens, banned ones included)
//   ranked by logit with the row's banned tokens' logits set to -inf first (a banned token can
//   still appear, with log_prob -inf, if fewer than k others exist); equal logits: lower token
//   first. This is training/attend_ref/search.py's order and what keeps chosen tokens identical
//   to PyTorch's: compute the sum with the max subtracted (max + log Σ exp(x - max)), in f32;
// - fork_slots(): between beam steps, make each fork's `to` slot hold the cache of its `from`
//   slot for positions [0, steps) (a copy, or sharing that is undone before `to` is written).
//   No `to` is a `from` of the same call, and slots not named keep their caches;
// - cross_attention(): when prepared with capture, after a step, copy row r's cross-attention
//   probabilities. Only the reported row of a sentence is asked for, so a device may copy it back
//   on demand.
// Rows of a step are in sentence order (a sentence's hypotheses together); a sentence that has
// finished has no rows. A slot not fed at a step is never fed again unless a fork writes it
// first: its cache may be dropped.
#pragma once

#include <cstdint>
#include <vector>

#include "decode/repeat_guard.h"

namespace attend {

struct DecodeShape {
  // [N, D] encoder output on the host, sentences back to back; null when the backend encoded
  // the sentences itself and keeps their output (a device).
  const float* memory = nullptr;
  const std::vector<int>* source_offsets = nullptr;  // [sentences + 1] into memory's rows
  int max_rows = 0;   // R never exceeds this
  int slots = 0;      // P: slots are numbered [0, P)
  int max_steps = 0;  // positions fed per slot (the longest length limit)
  bool capture = false;  // keep the cross-attention for cross_attention()
  // [V] the tokens a lexical shortlist allows this batch (1), the others never chosen; null: all
  // (model/marian_shortlist.h). A backend that cannot honour it refuses it.
  const uint8_t* allowed = nullptr;
};

struct StepRows {
  const int* tokens = nullptr;     // [R] token fed (bos at step 0)
  const int* slots = nullptr;      // [R] cache slot of each row
  const int* sentences = nullptr;  // [R] sentence of each row
  const BannedTokens* banned = nullptr;  // [R] tokens the repeat guard forbids each row next
  int rows = 0;
  int step = 0;  // position of the fed token
};

struct TokenScore {
  int token;
  float log_prob;  // logit - log Σ exp(logits), before the banned tokens' -inf
  float logit;     // the raw logit (what Marian's search sums: SearchRules::marian); an ensemble's: log_prob
};

struct SlotFork {
  int from, to;
};

class StepScorer {
 public:
  virtual ~StepScorer() = default;
  virtual void prepare(const DecodeShape& shape) = 0;
  // best [R, k]: row r's k best next tokens at best[r·k …]; k ≤ V.
  virtual void step(const StepRows& rows, int k, TokenScore* best) = 0;
  virtual void fork_slots(const SlotFork* forks, int count, int steps) = 0;
  // out [L·H·S]: [L][H][S] of the row's sentence, from the last step.
  virtual void cross_attention(int row, float* out) const = 0;
};

}  // namespace attend
