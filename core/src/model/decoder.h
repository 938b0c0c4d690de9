// One decoding step for a set of hypotheses ("rows"), each with its own self-attention KV
// cache slot and its sentence's cross-attention K/V (computed once per sentence).
// Legend: R rows this step, P cache slots, T max steps, N total source tokens, S one source's
// length, D d_model, F d_ff, H heads, K head_dim, L decoder layers, V target vocabulary.
#pragma once

#include <vector>

#include "model/head_mask.h"
#include "model/kv_cache.h"
#include "model/model_impl.h"

namespace attend {

struct DecoderWorkspace {
  int slots = 0, max_steps = 0, max_rows = 0, source_tokens = 0, max_source_len = 0;
  KvCache cache;                      // P slots of [L][≤ T][2D], grown by decoder_step
  std::vector<float> cross_kv;        // [L][N][2D]
  std::vector<int> source_offsets;    // [sentences + 1] into the N source rows
  std::vector<float> x, normed, qkv, attn, out, hidden;  // [R, D] / [R, 3D] / [R, F]
  std::vector<float> scores;          // [max(T, kRowsAsAlone · S_max)]
  std::vector<float> logits;          // [logit rows, V]
  bool capturing = false;
  std::vector<float> capture_self;    // [R][L][H][T]      when capturing
  std::vector<float> capture_cross;   // [R][L][H][S_max]  when capturing

  // Sizes every buffer once per batch so that steps allocate nothing. logit_rows: the rows whose
  // logits are held at once (rows for decoder_step; fewer for a caller that asks decoder_logits for
  // blocks of rows).
  void reserve(const ModelConfig& c, int rows, int slots, int max_steps, const std::vector<int>& source_offsets,
               bool capture, int logit_rows);
};

// Cross-attention K, V of every layer from the encoder output memory [N, D].
void prepare_cross_attention(const Model::Impl& model, const KernelTable& k, const float* memory,
                             DecoderWorkspace& ws);

struct StepInput {
  const int* tokens;     // [R] token fed at this step (bos at step 0)
  const int* slots;      // [R] cache slot of each row
  const int* sentences;  // [R] sentence of each row (for its source range)
  int rows;
  int step;              // position of the fed token
};

// The step but the output projection: leaves each row's last hidden state for decoder_logits (and
// the probabilities in ws.capture_* if capturing). Each row's cache slot grows to hold the step's
// position.
void decoder_hidden(const Model::Impl& model, const KernelTable& k, const StepInput& in, const HeadMask& mask,
                    DecoderWorkspace& ws);

// logits [count, V] of rows [first, first + count) of the last decoder_hidden. Rows split into calls
// by kernels::next_row_block get the logits of one call over all of them. `output`, when given,
// replaces the model's output layer (a shortlist's rows of it: [count, output->out]).
void decoder_logits(const Model::Impl& model, const KernelTable& k, const DecoderWorkspace& ws, int first, int count,
                    float* logits, const Linear* output = nullptr);

// decoder_hidden, then every row's logits into ws.logits [R, V] (reserved with logit_rows = rows).
void decoder_step(const Model::Impl& model, const KernelTable& k, const StepInput& in, const HeadMask& mask,
                  DecoderWorkspace& ws);

}  // namespace attend
