// One Translator's state on the GPU (model/device_model.h's DeviceSession): the encoder's and the
// decoder's arenas (device_plan.h), a stream, a cuBLAS handle and the CUDA Graphs of the decoder
// step (graph_policy.h). Legend as device_plan.h.
#pragma once

#include <cuda_runtime_api.h>

#include <map>
#include <vector>

#include "cuda/cublas_gemm.h"
#include "cuda/device_plan.h"
#include "cuda/device_weights.h"
#include "cuda/graph_policy.h"
#include "model/device_model.h"

namespace attend::cuda {

class CudaSession final : public DeviceSession {
 public:
  CudaSession(const ModelConfig& c, const DeviceWeights& w, ComputeType type);
  ~CudaSession() override;

  void encode(const std::vector<int>& ids, const std::vector<int>& offsets, const HeadMask& mask, float* capture,
              int capture_sentence) override;
  void begin_decode(int rows, int slots, int max_steps, int candidates, bool capture) override;
  void step(const StepInput& in, const HeadMask& mask) override;
  void top_k(const std::vector<int>& banned, int banned_per_row, int k, int* tokens, float* log_probs) override;
  void copy_logits(float* out) override;
  void copy_captured_row(int row, float* self, float* cross) override;
  void copy_cache_slots(const int* forks, int count, int steps) override;

 private:
  // y [m, l.out] = act(x [m, l.in] · Wᵀ + b)
  void linear(const DeviceLinear& l, const void* x, void* y, int m, const Activation* act = nullptr);
  // Post-norm: x = LN(x + f(x)); pre-norm: x = x + f(LN(x)). fn(in, out) computes f into out.
  template <class Sublayer>
  void residual(const DeviceNorm& norm, void* x, void* normed, void* out, int rows, Sublayer&& fn);
  void feed_forward(const DeviceLinear& fc1, const DeviceLinear& fc2, const void* in, void* hidden, void* out,
                    int rows);
  // The kernels of one decoder step over the tables already on the device (graph-capturable).
  void launch_step(int rows);
  void upload_mask(const HeadMask& mask);
  const uint8_t* mask_flags(AttentionKind kind, int layer) const;
  void drop_graphs();
  void* element(void* base, size_t index) const;

  const ModelConfig& c_;
  const DeviceWeights& w_;
  ComputeType type_;
  Stream stream_;
  Blas blas_;

  DeviceArena encoder_arena_;
  EncoderLayout encoder_{};
  std::vector<int> offsets_;  // [sentences + 1] of the last encode
  int max_source_len_ = 0;

  DeviceArena decoder_arena_;
  DecoderLayout decoder_{};
  DecodeSizes shape_;
  int last_rows_ = 0;

  HeadMask uploaded_mask_;
  DeviceArena mask_arena_;  // [E·H] encoder, [L·H] decoder, [L·H] cross flags
  GraphPolicy graph_policy_;
  std::map<int, cudaGraphExec_t> graphs_;  // by row count
};

}  // namespace attend::cuda
