// The one interface through which the model and decode layers use a device other than the CPU
// kernels (the CUDA backend of core/src/cuda/). A DeviceModel holds the weights on the device,
// immutable like the Model; a DeviceSession is one Translator's state there (activations, the
// encoder output, self-attention caches, cross-attention K/V).
// Legend: N source tokens of a batch (sentences back to back), S one source's length, S_max the
// longest, R rows of a step, P cache slots, T steps, E / L encoder / decoder layers, H heads,
// V target vocabulary.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "attend/model.h"
#include "model/decoder.h"
#include "model/head_mask.h"

namespace attend {

class DeviceSession {
 public:
  virtual ~DeviceSession() = default;
  // Encodes ids [N] (offsets [sentences + 1]); the output stays on the device for begin_decode.
  // capture (host, or null): sentence capture_sentence's probabilities [E][H][S][S].
  virtual void encode(const std::vector<int>& ids, const std::vector<int>& offsets, const HeadMask& mask,
                      float* capture, int capture_sentence) = 0;
  // Sizes the caches for `slots` hypotheses of at most max_steps tokens decoded at most `rows`
  // at a time, with at most `candidates` tokens asked of top_k per row, and computes every
  // decoder layer's cross K/V from the last encode.
  virtual void begin_decode(int rows, int slots, int max_steps, int candidates, bool capture) = 0;
  // One decoder step; the logits [R, V] stay on the device.
  virtual void step(const StepInput& in, const HeadMask& mask) = 0;
  // Per row of the last step, the k best tokens (k ≤ V) once the banned ones count as -inf
  // (banned [R, B], -1 = none, B ≤ kMaxBannedTokens), best first, ties to the lower id, with their
  // log-probabilities (over the whole vocabulary, banned tokens included, as the CPU search
  // computes them): tokens [R, k], log_probs [R, k]; a banned token (-inf) only when fewer than k
  // others exist, as decode/step_scorer.h asks. Only these cross back.
  virtual void top_k(const std::vector<int>& banned, int banned_per_row, int k, int* tokens, float* log_probs) = 0;
  // Per row r of the last step, log_probs[r] = logit(tokens[r]) − lse of the row (teacher forcing);
  // tokens [R], log_probs [R]. Only these cross.
  virtual void token_log_probs(const int* tokens, float* log_probs) = 0;
  // For each of `count` pairs (from, to) of forks [count][2], copies the self-attention cache of
  // slot `from` into slot `to` for positions [0, steps), all at once: no `to` is a `from`.
  virtual void copy_cache_slots(const int* forks, int count, int steps) = 0;
  // The last step's logits [R, V], copied to the host (teacher forcing, tests).
  virtual void copy_logits(float* out) = 0;
  // Row r's probabilities of the last step when begin_decode was asked to capture, copied to the
  // host: self [L][H][T] and cross [L][H][S_max] (a row of DecoderWorkspace::capture_*); either
  // may be null.
  virtual void copy_captured_row(int row, float* self, float* cross) = 0;
};

class DeviceModel {
 public:
  virtual ~DeviceModel() = default;
  // Which device and number type, e.g. "cuda:0 NVIDIA H100 80GB HBM3 (sm_90, f32)".
  virtual std::string description() const = 0;
  virtual std::unique_ptr<DeviceSession> new_session() const = 0;
};

// The model's weights uploaded to options.device (not cpu). Defined by the CUDA backend, or, in a
// build without it, refused with ErrorCode::device_unavailable (model/no_device.cpp).
std::unique_ptr<DeviceModel> load_device_model(const Model::Impl& model, const ModelOptions& options);

}  // namespace attend
