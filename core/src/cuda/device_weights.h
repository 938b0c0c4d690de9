// The model's weights on the device, uploaded once at load: Linear weights and embeddings in the
// compute type (int8 ones dequantized, w = scale[row] · q), biases, norms and position tables in
// f32. Laid out in one arena in the order of device_plan.h's weight_bytes.
#pragma once

#include <vector>

#include "cuda/device_memory.h"
#include "model/weights.h"

namespace attend::cuda {

struct DeviceLinear {
  int out = 0, in = 0;
  const void* weight = nullptr;  // [out, in] compute type
  const float* bias = nullptr;   // [out] or null
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
  const void* src_embed = nullptr;  // [V_src, D]
  const void* tgt_embed = nullptr;  // [V_tgt, D]
  const float* src_positions = nullptr;  // [max_positions, D]
  const float* tgt_positions = nullptr;
  std::vector<DeviceEncoderLayer> encoder;
  std::vector<DeviceDecoderLayer> decoder;
  DeviceNorm encoder_final_norm, decoder_final_norm;  // pre-norm only
  DeviceLinear output;  // [V_tgt, D]
};

DeviceWeights upload_weights(const ModelConfig& c, const Weights& w, ComputeType type, cudaStream_t stream);

}  // namespace attend::cuda
