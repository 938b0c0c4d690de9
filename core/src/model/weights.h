// The model's weights bound by name from a safetensors file and checked against the config.
// Self-attention Q, K, V projections are fused at load into one [3D, D] matrix and the
// cross-attention K, V into one [2D, D] matrix, so each is one GEMM per step.
#pragma once

#include <memory>
#include <vector>

#include "attend/model.h"
#include "model/aligned_vector.h"
#include "model/layers.h"
#include "model/safetensors.h"

namespace attend {

struct EncoderLayerWeights {
  Linear qkv;  // [3D, D]
  Linear out;  // [D, D]
  LayerNorm attn_norm;
  Linear fc1;  // [F, D]
  Linear fc2;  // [D, F]
  LayerNorm ffn_norm;
};

struct DecoderLayerWeights {
  Linear self_qkv;  // [3D, D]   (self-attention layers)
  Linear self_out;  // [D, D]
  LayerNorm self_norm;
  Linear ssru_gates;  // [2D, D]: x·Wᵀ then x·Wfᵀ + bf (SSRU layers; docs/marian.md §4)
  LayerNorm ssru_norm;
  Linear cross_q;   // [D, D]
  Linear cross_kv;  // [2D, D], applied to the encoder output once per sentence
  Linear cross_out; // [D, D]
  LayerNorm cross_norm;
  Linear fc1, fc2;
  LayerNorm ffn_norm;
};

struct Weights {
  Embedding src_embed;             // [V_src, D]
  Embedding tgt_embed;             // [V_tgt, D]
  const float* src_positions = nullptr;  // [max_positions, D]: learned or the sinusoid table
  const float* tgt_positions = nullptr;
  std::vector<EncoderLayerWeights> encoder;
  std::vector<DecoderLayerWeights> decoder;
  LayerNorm encoder_final_norm, decoder_final_norm;  // pre-norm only
  Linear output;                   // [V_tgt, D] (+ final logits bias)
  // An imported Marian int8 model (its Linears computing as Marian's, model/marian_int8.h): its
  // positions, LayerNorms, attention and SSRU cells compute as Marian's too (model/marian_float.h).
  bool marian_float = false;
};

// Storage for the tensors made at load (fused projections, sinusoid tables, realigned copies).
struct OwnedTensors {
  std::vector<std::unique_ptr<AlignedVector<float>>> f32;
  std::vector<std::unique_ptr<AlignedVector<int8_t>>> i8;
  std::vector<std::unique_ptr<AlignedVector<int32_t>>> i32;
};

// Calls f(linear) for every Linear of `w` (Weights or const Weights): each encoder layer's,
// each decoder layer's, then the output projection.
template <class W, class F>
void for_each_linear(W& w, F&& f) {
  for (auto& l : w.encoder) {
    for (auto* linear : {&l.qkv, &l.out, &l.fc1, &l.fc2}) f(*linear);
  }
  for (auto& l : w.decoder) {
    for (auto* linear : {&l.self_qkv, &l.self_out, &l.ssru_gates, &l.cross_q, &l.cross_kv, &l.cross_out, &l.fc1, &l.fc2}) {
      if (linear->out) f(*linear);  // a layer has self-attention or an SSRU, not both
    }
  }
  f(w.output);
}

// Adds every Linear's weight as panels for the kernel table `k` (its panel_columns; nothing
// when 0), kept in `owned`: the batched GEMMs then read weights in place instead of repacking
// them per call, for one more copy of the weights in memory. Linears with quads are skipped.
void pack_weight_panels(Weights& w, const KernelTable& k, OwnedTensors& owned);

// Whether an int8 Linear weight is -128, outside the [-127, 127] that gemm_i8i8_nt takes
// (Attend's exporter writes nothing else; other writers might).
bool has_weight_of_minus_128(const Weights& w);

// Adds every int8 Linear's weight as quad panels and column sums, so that it multiplies int8
// activations (ModelOptions::int8_activations; no weight may be -128).
void pack_weight_quads(Weights& w, OwnedTensors& owned);

// A Linear of some of l's output rows (row rows[i] of l as row i), stored as l is: f32 or int8,
// as quads, as panels for `k` if l has panels, or in Marian's one part; its tensors kept in
// `owned`. Each output is the bits l gives for its row (a lexical shortlist's output layer,
// decode/shortlisted_output.h).
Linear select_rows(const Linear& l, const std::vector<int>& rows, const KernelTable& k, OwnedTensors& owned);

// Binds every expected tensor, rejecting missing, unexpected, misshapen, mistyped or
// non-finite ones with Error(invalid_model). `weight_dtype` receives "f32" or "int8".
Weights bind_weights(const ModelConfig& config, const SafetensorsFile& file, OwnedTensors& owned,
                     std::string& weight_dtype);

}  // namespace attend
