// The model's weights on the device, uploaded once at load: Linear weights and embeddings in the
// compute type, biases, norms and position tables in f32. An int8 matrix keeps its values q
// (exact in f16 and bf16: |q| ≤ 128) and its rows' scales, applied after a GEMM's sums as the
// CPU's int8 GEMM does (w = scale[row] · q): bf16 would round scale · q to 8 bits.
// Laid out in one arena in the order of device_plan.h's weight_bytes.
#pragma once

#include <vector>

#include "cuda/device_memory.h"
#include "model/weights.h"

namespace attend::cuda {

struct DeviceMatrix {
  const void* values = nullptr;     // [rows, cols] compute type
  const float* row_scale = nullptr;  // [rows]: int8 files' scales, or null (the values are the weights)
};

struct DeviceLinear {
  int out = 0, in = 0;
  DeviceMatrix weight;          // [out, in]
  const float* bias = nullptr;  // [out] or null
};

struct DeviceNorm {
  const float* gamma = nullptr;  // [D]
  const float* beta = nullptr;   // [D]
};

struct DeviceEncoderLayer {
  DeviceLinear qkv, out, fc1, fc2;
  DeviceNorm attn_norm, ffn_norm;
};

struct DeviceDecoderLayer {
  DeviceLinear self_qkv, self_out, cross_q, cross_kv, cross_out, fc1, fc2;
  DeviceNorm self_norm, cross_norm, ffn_norm;
};

struct DeviceWeights {
  DeviceArena arena;
  DeviceMatrix src_embed;  // [V_src, D]
  DeviceMatrix tgt_embed;  // [V_tgt, D]
  const float* src_positions = nullptr;  // [max_positions, D]
  const float* tgt_positions = nullptr;
  std::vector<DeviceEncoderLayer> encoder;
  std::vector<DeviceDecoderLayer> decoder;
  DeviceNorm encoder_final_norm, decoder_final_norm;  // pre-norm only
  DeviceLinear output;  // [V_tgt, D]
};

DeviceWeights upload_weights(const ModelConfig& c, const Weights& w, ComputeType type, cudaStream_t stream);

}  // namespace attend::cuda
