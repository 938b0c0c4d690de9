// One Translator's state on the GPU (model/device_model.h's DeviceSession): the encoder's and the
// decoder's arenas (device_plan.h), a stream, a cuBLAS handle and the CUDA Graphs of the decoder
// step (graph_policy.h). Legend as device_plan.h.
#pragma once

#include <cuda_runtime_api.h>

#include <map>
#include <vector>

#include "cuda/cublas_gemm.h"
#include "cuda/device_kernels.h"
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
  void token_log_probs(const int* tokens, float* log_probs) override;
  void copy_logits(float* out) override;
  void copy_captured_row(int row, float* self, float* cross) override;
  void copy_cache_slots(const int* forks, int count, int steps) override;

 private:
  // The residual stream [rows, D] f32 (x), its copy in the compute type (x_t), and a sublayer's
  // input (normed, compute type) and output (out, f32).
  struct Residual {
    float* x;
    Operand x_t, normed;
    float* out;
  };
  // A stack's (encoder's or decoder's) buffers in its arena: the residual stream, Q, K, V [rows, 3D]
  // f32, attention's output [rows, D] and the FFN's hidden layer [rows, F] in the compute type, and
  // that layer's GEMM sums [rows, F] f32.
  struct StackBuffers {
    Residual io;
    float* qkv;
    Operand attn, hidden;
    float* sums;
  };
  // The buffer at `offset` of `a` as a GEMM input [rows, width] (rows: the layout's capacity).
  Operand operand(DeviceArena& a, size_t offset, int rows, int width) const;
  template <class Layout>
  StackBuffers stack_buffers(DeviceArena& a, const Layout& l, int rows) const;
  // y [m, l.out] = act(x [m, l.in] · Wᵀ + b): the GEMM's f32 sums into `sums` [m, l.out], then
  // scaled (int8 files), biased and activated into y in the compute type.
  void linear(const DeviceLinear& l, const Operand& x, float* sums, const Operand& y, int m, const Activation* act);
  // The same into f32 in place (Q, K, V, a sublayer's output added to the residual stream, logits)
  void linear_f32(const DeviceLinear& l, const Operand& x, float* y, int m);
  // Post-norm: x = LN(x + f(x)); pre-norm: x = x + f(LN(x)). fn(in, out) computes f of in
  // (compute type) into out (f32). Post-norm leaves x_t = x in the compute type.
  template <class Sublayer>
  void residual(const DeviceNorm& norm, const Residual& r, int rows, Sublayer&& fn);
  void feed_forward(const DeviceLinear& fc1, const DeviceLinear& fc2, const Operand& in, const StackBuffers& bufs,
                    float* out, int rows);
  // x_t = LN(x): the pre-norm stacks' final norm, or nothing for post-norm (x_t is LN(…) already)
  void final_norm(const DeviceNorm& norm, const Residual& r, int rows);
  // What every attention of (kind, layer) shares: heads, the query scale, the head mask, the output.
  AttentionArgs attention_args(AttentionKind kind, int layer, int queries, const Operand& out) const;
  // A decoder step's attention of `layer` (self over the cache, or cross over the memory's K/V):
  // queries q [R, ldq], key rows of kv [2D] (K then V), row r's keys starts[r] .. + counts[r]
  // (at most max_keys), its probabilities into the decoder arena's `capture` [R][L][H][max_keys]
  // when capturing.
  void decoder_attention(AttentionKind kind, int layer, int rows, const float* q, int ldq, const float* kv,
                         const int* starts, const int* counts, int max_keys, size_t capture, const Operand& out);
  // The kernels of one decoder step over the tables already on the device (graph-capturable).
  void launch_step(int rows);
  void upload_mask(const HeadMask& mask);
  const uint8_t* mask_flags(AttentionKind kind, int layer) const;
  void drop_graphs();

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
