#include "cuda/device_plan.h"

#include "attend/error.h"

namespace attend::cuda {
namespace {

constexpr size_t kAlignment = 256;
constexpr size_t kMiB = size_t{1} << 20;

}  // namespace

size_t element_bytes(ComputeType type) { return type == ComputeType::f32 ? 4 : 2; }

int operand_planes(ComputeType type) { return type == ComputeType::bf16 ? 2 : 1; }

const char* compute_type_name(ComputeType type) {
  switch (type) {
    case ComputeType::f32: return "f32";
    case ComputeType::f16: return "f16";
    case ComputeType::bf16: return "bf16";
  }
  return "unknown";
}

size_t ArenaLayout::add(size_t bytes) {
  const size_t offset = end_;
  end_ += (bytes + kAlignment - 1) / kAlignment * kAlignment;
  return offset;
}

size_t weight_bytes(const ModelConfig& c, ComputeType type) {
  const size_t e = element_bytes(type), d = c.d_model, f = c.d_ff;
  ArenaLayout a;
  auto matrix = [&](size_t rows, size_t cols) {
    a.add(rows * cols * e);  // weight
    a.add(rows * 4);         // its rows' scales (int8 files)
  };
  auto linear = [&](size_t out, size_t in) {
    matrix(out, in);
    a.add(out * 4);  // bias
  };
  auto norm = [&] { a.add(2 * d * 4); };  // gamma, beta
  matrix(c.src_vocab_size, d);
  if (!c.share_embeddings) matrix(c.tgt_vocab_size, d);
  a.add(static_cast<size_t>(c.max_positions) * d * 4 * 2);  // source and target positions
  for (int l = 0; l < c.encoder_layers; ++l) {
    linear(3 * d, d), linear(d, d), linear(f, d), linear(d, f);
    norm(), norm();
  }
  for (int l = 0; l < c.decoder_layers; ++l) {
    linear(3 * d, d), linear(d, d), linear(d, d), linear(2 * d, d), linear(d, d), linear(f, d), linear(d, f);
    norm(), norm(), norm();
  }
  if (c.norm == NormPlacement::pre) norm(), norm();  // the stacks' final norms
  if (!c.tie_output) {
    linear(static_cast<size_t>(c.tgt_vocab_size), d);
  } else if (c.final_logits_bias) {
    a.add(static_cast<size_t>(c.tgt_vocab_size) * 4);  // the tied projection's bias
  }
  return a.bytes();
}

EncoderLayout plan_encoder(const ModelConfig& c, ComputeType type, int tokens, int capture_len) {
  const size_t e = element_bytes(type) * operand_planes(type), n = tokens, d = c.d_model;
  ArenaLayout a;
  EncoderLayout l;
  l.x = a.add(n * d * 4);
  l.out = a.add(n * d * 4);
  l.x_t = a.add(n * d * e);
  l.normed = a.add(n * d * e);
  l.attn = a.add(n * d * e);
  l.qkv = a.add(n * 3 * d * 4);
  l.hidden = a.add(n * c.d_ff * e);
  l.hidden_sums = a.add(n * c.d_ff * 4);
  l.tables = a.add(4 * n * sizeof(int));
  l.capture = a.add(static_cast<size_t>(c.encoder_layers) * c.num_heads * capture_len * capture_len * sizeof(float));
  l.bytes = a.bytes();
  return l;
}

DecoderLayout plan_decoder(const ModelConfig& c, ComputeType type, const DecodeSizes& s) {
  const size_t e = element_bytes(type) * operand_planes(type), d = c.d_model, r = s.rows;
  const size_t layers = c.decoder_layers, heads = c.num_heads;
  ArenaLayout a;
  DecoderLayout l;
  l.cache = a.add(layers * s.slots * s.max_steps * 2 * d * 4);
  l.cross_kv = a.add(layers * s.source_tokens * 2 * d * 4);
  l.x = a.add(r * d * 4);
  l.out = a.add(r * d * 4);
  l.x_t = a.add(r * d * e);
  l.normed = a.add(r * d * e);
  l.attn = a.add(r * d * e);
  l.qkv = a.add(r * 3 * d * 4);
  l.hidden = a.add(r * c.d_ff * e);
  l.hidden_sums = a.add(r * c.d_ff * 4);
  l.logits = a.add(r * c.tgt_vocab_size * sizeof(float));
  l.tables = a.add(6 * r * sizeof(int));
  l.banned = a.add(r * s.banned_per_row * sizeof(int));
  l.top_tokens = a.add(r * s.candidates_per_row * sizeof(int));
  l.top_log_probs = a.add(r * s.candidates_per_row * sizeof(float));
  l.forks = a.add(2 * static_cast<size_t>(s.slots) * sizeof(int));
  const size_t maps = s.capture ? r * layers * heads : 0;
  l.capture_self = a.add(maps * s.max_steps * sizeof(float));
  l.capture_cross = a.add(maps * s.max_source_len * sizeof(float));
  l.bytes = a.bytes();
  return l;
}

void check_fits(const std::string& what, size_t needed, size_t free_bytes) {
  if (needed <= free_bytes) return;
  throw Error(ErrorCode::out_of_memory, "out of device memory: " + what + " needs " +
                                            std::to_string((needed + kMiB - 1) / kMiB) + " MiB, the device has " +
                                            std::to_string(free_bytes / kMiB) + " MiB free");
}

std::vector<int> encoder_tables(const std::vector<int>& ids, const std::vector<int>& offsets) {
  const size_t n = ids.size();
  std::vector<int> t(4 * n);
  for (size_t s = 0; s + 1 < offsets.size(); ++s) {
    for (int i = offsets[s]; i < offsets[s + 1]; ++i) {
      t[i] = ids[i];
      t[n + i] = i - offsets[s];
      t[2 * n + i] = offsets[s];
      t[3 * n + i] = offsets[s + 1] - offsets[s];
    }
  }
  return t;
}

std::vector<int> step_tables(const int* tokens, const int* slots, const int* sentences, int rows, int step,
                             int max_steps, const std::vector<int>& source_offsets) {
  const size_t r = rows;
  std::vector<int> t(6 * r);
  for (size_t i = 0; i < r; ++i) {
    const int s = sentences[i];
    t[i] = tokens[i];
    t[r + i] = step;
    t[2 * r + i] = slots[i] * max_steps;
    t[3 * r + i] = step + 1;
    t[4 * r + i] = source_offsets[s];
    t[5 * r + i] = source_offsets[s + 1] - source_offsets[s];
  }
  return t;
}

}  // namespace attend::cuda
