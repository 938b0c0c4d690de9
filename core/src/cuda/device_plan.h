// The CUDA backend's buffers and per-step tables, laid out on the host before any device call:
// each arena is one allocation whose buffers sit at 256-byte aligned offsets. Plain C++, so the
// sizes, the out-of-memory check and the tables are tested on every machine
// (tests/cuda/device_plan_test.cpp).
// Legend: N source tokens of a batch (sentences back to back), S one source's length, S_max the
// longest, R rows of a step, P cache slots, T steps, D d_model, F d_ff, H heads, L decoder
// layers, V target vocabulary, B banned tokens per row, K candidates per row.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "attend/model.h"

namespace attend::cuda {

size_t element_bytes(ComputeType type);
// The planes of a GEMM input in the compute type: bf16 2 (the value and what rounding cut off,
// device_kernels.h), else 1.
int operand_planes(ComputeType type);
const char* compute_type_name(ComputeType type);

// Buffers placed one after another at 256-byte boundaries (cudaMalloc's own alignment).
class ArenaLayout {
 public:
  size_t add(size_t bytes);  // the new buffer's offset
  size_t bytes() const { return end_; }

 private:
  size_t end_ = 0;
};

// Every tensor of the model on the device: Linear weights and embeddings in the compute type,
// the rows' scales of int8 ones, biases, norms and position tables in f32.
size_t weight_bytes(const ModelConfig& c, ComputeType type);

// The encoder's buffers for N tokens; offsets into one arena.
struct EncoderLayout {
  size_t x, out;                // [N, D] f32: the residual stream, a sublayer's output
  size_t x_t, normed, attn;     // [planes][N, D] compute type: GEMM inputs (x_t the stream's copy)
  size_t qkv;                   // [N, 3D] f32
  size_t hidden;                // [planes][N, F] compute type
  size_t hidden_sums;           // [N, F] f32: the FFN's first GEMM before its scales, bias, activation
  size_t tables;                // [4][N] int: encoder_tables
  size_t capture;               // [E][H][S][S] f32 of the captured sentence (S = capture_len, 0: none)
  size_t bytes;
};
EncoderLayout plan_encoder(const ModelConfig& c, ComputeType type, int tokens, int capture_len);

// What one decode needs room for (DeviceSession::begin_decode).
struct DecodeSizes {
  int rows = 0, slots = 0, max_steps = 0, source_tokens = 0, max_source_len = 0;
  int banned_per_row = 0, candidates_per_row = 0;  // B, K of the top-k
  bool capture = false;
};

struct DecoderLayout {
  size_t cache;       // [L][P][T][2D] f32: per position K then V
  size_t cross_kv;    // [L][N][2D] f32
  size_t x, out;      // [R, D] f32
  size_t x_t, normed, attn;  // [planes][R, D] compute type
  size_t qkv;         // [R, 3D] f32
  size_t hidden;      // [planes][R, F] compute type
  size_t hidden_sums;  // [R, F] f32
  size_t logits;      // [R, V] f32
  size_t tables;      // [6][R] int: StepTables
  size_t banned;      // [R, B] int, -1 = none
  size_t top_tokens;  // [R, K] int
  size_t top_log_probs;  // [R, K] f32
  size_t forks;       // [P][2] int: (from, to) slots of a beam step's forks
  size_t capture_self, capture_cross;  // [R][L][H][T], [R][L][H][S_max] f32; 0 bytes when not capturing
  size_t bytes;
};
DecoderLayout plan_decoder(const ModelConfig& c, ComputeType type, const DecodeSizes& shape);

// Throws Error(out_of_memory) "out of device memory: <what> needs X MiB, the device has Y MiB free"
// when needed > free_bytes.
void check_fits(const std::string& what, size_t needed, size_t free_bytes);

// Per source token, what the encoder's kernels read: [4][N] = ids, positions (index in its
// sentence), the first row of its sentence (its keys), the sentence's length (key count).
std::vector<int> encoder_tables(const std::vector<int>& ids, const std::vector<int>& offsets);

// Per row of a decoder step, [6][R] = token fed, its position (the step), its cache row
// (slot · T: the first of its self-attention keys), its self-attention key count (step + 1),
// the first row of its sentence in the cross K/V, the sentence's length.
std::vector<int> step_tables(const int* tokens, const int* slots, const int* sentences, int rows, int step,
                             int max_steps, const std::vector<int>& source_offsets);

}  // namespace attend::cuda
