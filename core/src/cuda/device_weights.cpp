#include "cuda/device_weights.h"

#include <algorithm>
#include <tuple>

#include "attend/error.h"
#include "cuda/cuda_check.h"
#include "cuda/device_kernels.h"
#include "cuda/device_plan.h"

namespace attend::cuda {
namespace {

// Fills the arena in weight_bytes' order; matrices in another compute type than f32 pass
// through an f32 staging buffer and a conversion kernel.
class Uploader {
 public:
  Uploader(const ModelConfig& c, ComputeType type, cudaStream_t stream, DeviceArena& arena)
      : type_(type), stream_(stream), arena_(arena),
        staging_(type == ComputeType::f32 ? 0 : largest_matrix(c) * sizeof(float)) {}

  // A [rows, cols] matrix stored f32, or int8 with one scale per row, in the compute type.
  DeviceMatrix matrix(const float* stored, const int8_t* q, const float* scale, int rows, int cols) {
    const size_t n = static_cast<size_t>(rows) * cols;
    host_.resize(n);
    for (size_t i = 0; i < n; ++i) host_[i] = stored ? stored[i] : static_cast<float>(q[i]);
    void* dst = place(n * element_bytes(type_));
    if (type_ == ComputeType::f32) {
      copy(dst, host_.data(), n);
    } else {
      copy(staging_.at(0), host_.data(), n);
      convert_from_f32(type_, dst, staging_.at<float>(0), n, stream_);
      check(cudaStreamSynchronize(stream_), "cudaStreamSynchronize");  // the staging buffer is reused
    }
    return DeviceMatrix{dst, f32(stored ? nullptr : scale, rows)};
  }

  // f32 as it is; null stays null, its place kept (weight_bytes counts it).
  const float* f32(const float* data, size_t n) {
    float* dst = static_cast<float*>(place(n * sizeof(float)));
    if (!data) return nullptr;
    copy(dst, data, n);
    return dst;
  }

  DeviceLinear linear(const Linear& l) {
    DeviceLinear d;
    d.out = l.out;
    d.in = l.in;
    d.weight = matrix(l.weight, l.weight_i8, l.scale, l.out, l.in);
    d.bias = f32(l.bias, l.out);
    return d;
  }

  DeviceNorm norm(const LayerNorm& n, int d) {
    float* both = static_cast<float*>(place(2 * static_cast<size_t>(d) * sizeof(float)));  // gamma then beta
    copy(both, n.gamma, d);
    copy(both + d, n.beta, d);
    return DeviceNorm{both, both + d};
  }

  DeviceMatrix embedding(const Embedding& e) { return matrix(e.weight, e.weight_i8, e.scale, e.rows, e.dim); }

  // The source and target position tables [max_positions, D] side by side.
  std::pair<const float*, const float*> positions(const Weights& w, int max_positions, int d) {
    const size_t n = static_cast<size_t>(max_positions) * d;
    float* both = static_cast<float*>(place(2 * n * sizeof(float)));
    copy(both, w.src_positions, n);
    copy(both + n, w.tgt_positions, n);
    return {both, both + n};
  }

 private:
  static size_t largest_matrix(const ModelConfig& c) {
    const size_t d = c.d_model;
    return std::max({static_cast<size_t>(c.src_vocab_size) * d, static_cast<size_t>(c.tgt_vocab_size) * d,
                     static_cast<size_t>(c.d_ff) * d, 3 * d * d});
  }

  void* place(size_t bytes) {
    const size_t offset = layout_.add(bytes);
    if (layout_.bytes() > arena_.bytes()) {
      throw Error(ErrorCode::invalid_argument, "internal: the device weights outgrow weight_bytes' plan");
    }
    return arena_.at(offset);
  }

  void copy(void* dst, const float* src, size_t n) {
    check(cudaMemcpyAsync(dst, src, n * sizeof(float), cudaMemcpyHostToDevice, stream_), "cudaMemcpyAsync");
    check(cudaStreamSynchronize(stream_), "cudaStreamSynchronize");  // src may be reused at once
  }

  ComputeType type_;
  cudaStream_t stream_;
  DeviceArena& arena_;
  DeviceArena staging_;
  std::vector<float> host_;
  ArenaLayout layout_;
};

}  // namespace

DeviceWeights upload_weights(const ModelConfig& c, const Weights& w, ComputeType type, cudaStream_t stream) {
  const int d = c.d_model;
  DeviceWeights dw;
  dw.arena = DeviceArena(weight_bytes(c, type));
  Uploader up(c, type, stream, dw.arena);
  dw.src_embed = up.embedding(w.src_embed);
  dw.tgt_embed = c.share_embeddings ? dw.src_embed : up.embedding(w.tgt_embed);
  std::tie(dw.src_positions, dw.tgt_positions) = up.positions(w, c.max_positions, d);
  for (const EncoderLayerWeights& l : w.encoder) {
    DeviceEncoderLayer e;
    e.qkv = up.linear(l.qkv);
    e.out = up.linear(l.out);
    e.fc1 = up.linear(l.fc1);
    e.fc2 = up.linear(l.fc2);
    e.attn_norm = up.norm(l.attn_norm, d);
    e.ffn_norm = up.norm(l.ffn_norm, d);
    dw.encoder.push_back(e);
  }
  for (const DecoderLayerWeights& l : w.decoder) {
    DeviceDecoderLayer e;
    e.self_qkv = up.linear(l.self_qkv);
    e.self_out = up.linear(l.self_out);
    e.cross_q = up.linear(l.cross_q);
    e.cross_kv = up.linear(l.cross_kv);
    e.cross_out = up.linear(l.cross_out);
    e.fc1 = up.linear(l.fc1);
    e.fc2 = up.linear(l.fc2);
    e.self_norm = up.norm(l.self_norm, d);
    e.cross_norm = up.norm(l.cross_norm, d);
    e.ffn_norm = up.norm(l.ffn_norm, d);
    dw.decoder.push_back(e);
  }
  if (c.norm == NormPlacement::pre) {
    dw.encoder_final_norm = up.norm(w.encoder_final_norm, d);
    dw.decoder_final_norm = up.norm(w.decoder_final_norm, d);
  }
  if (!c.tie_output) {
    dw.output = up.linear(w.output);
  } else {
    dw.output = DeviceLinear{c.tgt_vocab_size, d, dw.tgt_embed, nullptr};
    if (c.final_logits_bias) dw.output.bias = up.f32(w.output.bias, c.tgt_vocab_size);
  }
  return dw;
}

}  // namespace attend::cuda
