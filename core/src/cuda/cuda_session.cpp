#include "cuda/cuda_session.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <string>

#include "cuda/cuda_check.h"
#include "cuda/device_kernels.h"
#include "decode/repeat_guard.h"

namespace attend::cuda {
namespace {

// Grows `arena` to at least `bytes`, saying what for when the device lacks the memory.
void reserve(DeviceArena& arena, size_t bytes, const std::string& what) {
  if (arena.bytes() >= bytes) return;
  arena = DeviceArena();
  size_t free_bytes = 0, total = 0;
  check(cudaMemGetInfo(&free_bytes, &total), "cudaMemGetInfo");
  check_fits(what, bytes, free_bytes);
  arena = DeviceArena(bytes);
}

// ATTEND_CUDA_GRAPHS=0 runs every decoder step eagerly (scripts/gpu-check.sh measures both).
bool graphs_enabled() {
  const char* v = std::getenv("ATTEND_CUDA_GRAPHS");
  return !v || std::string(v) != "0";
}

// A kernel launch fails only through cudaGetLastError (a bad configuration, no image for this GPU).
void check_launches(const char* what) { check(cudaGetLastError(), what); }

void upload(void* dst, const void* src, size_t bytes, cudaStream_t stream) {
  if (bytes) check(cudaMemcpyAsync(dst, src, bytes, cudaMemcpyHostToDevice, stream), "cudaMemcpyAsync");
}

}  // namespace

CudaSession::CudaSession(const ModelConfig& c, const DeviceWeights& w, ComputeType type)
    : c_(c), w_(w), type_(type), blas_(stream_.get()), graph_policy_(graphs_enabled()) {}

CudaSession::~CudaSession() { drop_graphs(); }

void CudaSession::linear(const DeviceLinear& l, const Operand& x, float* sums, const Operand& y, int m,
                         const Activation* act) {
  blas_.gemm_nt(type_, x.data, x.lo, l.in, l.weight.values, l.in, sums, l.out, m, l.out, l.in);
  bias_activation(type_, sums, y, l.weight.row_scale, l.bias, m, l.out, act, stream_.get());
}

void CudaSession::linear_f32(const DeviceLinear& l, const Operand& x, float* y, int m) {
  blas_.gemm_nt(type_, x.data, x.lo, l.in, l.weight.values, l.in, y, l.out, m, l.out, l.in);
  bias_activation(ComputeType::f32, y, Operand{y}, l.weight.row_scale, l.bias, m, l.out, nullptr, stream_.get());
}

Operand CudaSession::operand(DeviceArena& a, size_t offset, int rows, int width) const {
  return Operand{a.at(offset), operand_planes(type_) > 1 ? static_cast<size_t>(rows) * width : 0};
}

template <class Layout>
CudaSession::StackBuffers CudaSession::stack_buffers(DeviceArena& a, const Layout& l, int rows) const {
  const int d = c_.d_model;
  return StackBuffers{Residual{a.at<float>(l.x), operand(a, l.x_t, rows, d), operand(a, l.normed, rows, d),
                              a.at<float>(l.out)},
                     a.at<float>(l.qkv), operand(a, l.attn, rows, d), operand(a, l.hidden, rows, c_.d_ff),
                     a.at<float>(l.hidden_sums)};
}

AttentionArgs CudaSession::attention_args(AttentionKind kind, int layer, int queries, const Operand& out) const {
  AttentionArgs args;
  args.queries = queries, args.heads = c_.num_heads, args.head_dim = c_.head_dim();
  args.scale = 1.f / std::sqrt(static_cast<float>(c_.head_dim()));
  args.masked_heads = mask_flags(kind, layer);
  args.out = out, args.ldo = c_.d_model;
  return args;
}

template <class Sublayer>
void CudaSession::residual(const DeviceNorm& norm, const Residual& r, int rows, Sublayer&& fn) {
  const int d = c_.d_model;
  if (c_.norm == NormPlacement::pre) {
    layernorm(type_, r.x, nullptr, nullptr, r.normed, norm.gamma, norm.beta, rows, d, c_.layer_norm_eps, stream_.get());
    fn(r.normed, r.out);
    add(ComputeType::f32, r.x, r.out, static_cast<size_t>(rows) * d, stream_.get());
  } else {
    fn(r.x_t, r.out);
    layernorm(type_, r.x, r.out, r.x, r.x_t, norm.gamma, norm.beta, rows, d, c_.layer_norm_eps, stream_.get());
  }
}

// FFN(x) = act(x·W1ᵀ + b1)·W2ᵀ + b2;  in [rows, D]; sums, hidden [rows, F]; out [rows, D] f32
void CudaSession::feed_forward(const DeviceLinear& fc1, const DeviceLinear& fc2, const Operand& in,
                               const StackBuffers& bufs, float* out, int rows) {
  linear(fc1, in, bufs.sums, bufs.hidden, rows, &c_.activation);
  linear_f32(fc2, bufs.hidden, out, rows);
}

void CudaSession::final_norm(const DeviceNorm& norm, const Residual& r, int rows) {
  if (c_.norm != NormPlacement::pre) return;
  layernorm(type_, r.x, nullptr, nullptr, r.x_t, norm.gamma, norm.beta, rows, c_.d_model, c_.layer_norm_eps,
            stream_.get());
}

void CudaSession::upload_mask(const HeadMask& mask) {
  if (mask.encoder == uploaded_mask_.encoder && mask.decoder == uploaded_mask_.decoder &&
      mask.cross == uploaded_mask_.cross && mask_arena_.bytes()) {
    return;
  }
  drop_graphs();  // the graphs hold the old flags' pointers
  const size_t heads = c_.num_heads, e = c_.encoder_layers * heads, l = c_.decoder_layers * heads;
  reserve(mask_arena_, e + 2 * l, "the head mask");
  uploaded_mask_ = mask;
  upload(mask_arena_.at(0), mask.encoder.data(), mask.encoder.size(), stream_.get());
  upload(mask_arena_.at(e), mask.decoder.data(), mask.decoder.size(), stream_.get());
  upload(mask_arena_.at(e + l), mask.cross.data(), mask.cross.size(), stream_.get());
}

const uint8_t* CudaSession::mask_flags(AttentionKind kind, int layer) const {
  const size_t heads = c_.num_heads, e = c_.encoder_layers * heads, l = c_.decoder_layers * heads;
  const std::vector<uint8_t>& flags = kind == AttentionKind::encoder   ? uploaded_mask_.encoder
                                      : kind == AttentionKind::decoder ? uploaded_mask_.decoder
                                                                       : uploaded_mask_.cross;
  if (flags.empty()) return nullptr;
  const size_t base = kind == AttentionKind::encoder ? 0 : kind == AttentionKind::decoder ? e : e + l;
  return mask_arena_.at<uint8_t>(base + layer * heads);
}

void CudaSession::encode(const std::vector<int>& ids, const std::vector<int>& offsets, const HeadMask& mask,
                         float* capture, int capture_sentence) {
  const int n = static_cast<int>(ids.size()), d = c_.d_model, heads = c_.num_heads;
  offsets_ = offsets;
  max_source_len_ = 0;
  for (size_t s = 0; s + 1 < offsets.size(); ++s) max_source_len_ = std::max(max_source_len_, offsets[s + 1] - offsets[s]);
  const int capture_len = capture ? offsets[capture_sentence + 1] - offsets[capture_sentence] : 0;
  encoder_ = plan_encoder(c_, type_, n, capture_len);
  reserve(encoder_arena_, encoder_.bytes, "encoding " + std::to_string(n) + " source tokens");
  upload_mask(mask);
  cudaStream_t s = stream_.get();
  DeviceArena& a = encoder_arena_;
  const std::vector<int> tables = encoder_tables(ids, offsets);  // [4][N]
  upload(a.at(encoder_.tables), tables.data(), tables.size() * sizeof(int), s);
  const int* table = a.at<int>(encoder_.tables);
  const StackBuffers bufs = stack_buffers(a, encoder_, n);
  const Residual& io = bufs.io;
  const float embed_scale = c_.embedding_scale ? std::sqrt(static_cast<float>(d)) : 1.f;
  embed(type_, io.x, io.x_t, w_.src_embed.values, w_.src_embed.row_scale, w_.src_positions, table, table + n, n, d,
        embed_scale, s);  // [N, D]
  const size_t map = static_cast<size_t>(capture_len) * capture_len;
  for (int l = 0; l < c_.encoder_layers; ++l) {
    const DeviceEncoderLayer& lw = w_.encoder[l];
    residual(lw.attn_norm, io, n, [&](const Operand& in, float* o) {
      linear_f32(lw.qkv, in, bufs.qkv, n);  // [N, 3D]
      AttentionArgs args = attention_args(AttentionKind::encoder, l, n, bufs.attn);
      args.q = bufs.qkv, args.ldq = 3 * d;
      args.k = bufs.qkv + d, args.v = bufs.qkv + 2 * d, args.ldkv = 3 * d;
      args.key_start = table + 2 * n, args.key_count = table + 3 * n, args.max_keys = max_source_len_;
      if (capture) {  // [E][H][S][S]
        args.capture = a.at<float>(encoder_.capture) + l * heads * map;
        args.capture_first = offsets[capture_sentence], args.capture_rows = capture_len;
        args.capture_row_stride = capture_len, args.capture_head_stride = map;
      }
      attention(type_, args, s);
      linear_f32(lw.out, bufs.attn, o, n);
    });
    residual(lw.ffn_norm, io, n, [&](const Operand& in, float* o) { feed_forward(lw.fc1, lw.fc2, in, bufs, o, n); });
  }
  final_norm(w_.encoder_final_norm, io, n);  // the memory: x_t [N, D]
  check_launches("the encoder's kernels");
  if (capture) {
    check(cudaMemcpyAsync(capture, a.at(encoder_.capture), c_.encoder_layers * heads * map * sizeof(float),
                          cudaMemcpyDeviceToHost, s),
          "cudaMemcpyAsync");
  }
  stream_.synchronize();
}

void CudaSession::begin_decode(int rows, int slots, int max_steps, int candidates, bool capture) {
  drop_graphs();
  shape_.rows = rows;
  shape_.slots = slots;
  shape_.max_steps = max_steps;
  shape_.source_tokens = offsets_.back();
  shape_.max_source_len = max_source_len_;
  shape_.banned_per_row = kMaxBannedTokens;
  shape_.candidates_per_row = candidates;
  shape_.capture = capture;
  decoder_ = plan_decoder(c_, type_, shape_);
  reserve(decoder_arena_, decoder_.bytes,
          "decoding " + std::to_string(rows) + " rows of up to " + std::to_string(max_steps) + " steps");
  const int d = c_.d_model;
  DeviceArena& a = decoder_arena_;
  // Captured rows hold zeros past their keys, as the CPU's do.
  check(cudaMemsetAsync(a.at(decoder_.capture_self), 0, decoder_.bytes - decoder_.capture_self, stream_.get()),
        "cudaMemsetAsync");
  for (int l = 0; l < c_.decoder_layers; ++l) {  // [N, 2D] = memory · [W_k; W_v]ᵀ
    linear_f32(w_.decoder[l].cross_kv, operand(encoder_arena_, encoder_.x_t, shape_.source_tokens, d),
               a.at<float>(decoder_.cross_kv) + static_cast<size_t>(l) * shape_.source_tokens * 2 * d,
               shape_.source_tokens);
  }
  check_launches("the cross K/V kernels");
  stream_.synchronize();
}

void CudaSession::decoder_attention(AttentionKind kind, int layer, int rows, const float* q, int ldq, const float* kv,
                                    const int* starts, const int* counts, int max_keys, size_t capture,
                                    const Operand& out) {
  const int d = c_.d_model;
  const size_t maps = static_cast<size_t>(c_.decoder_layers) * c_.num_heads;
  AttentionArgs args = attention_args(kind, layer, rows, out);
  args.q = q, args.ldq = ldq;
  args.k = kv, args.v = kv + d, args.ldkv = 2 * d;
  args.key_start = starts, args.key_count = counts, args.max_keys = max_keys;
  if (shape_.capture) {  // [R][L][H][max_keys]
    args.capture = decoder_arena_.at<float>(capture) + static_cast<size_t>(layer) * c_.num_heads * max_keys;
    args.capture_rows = rows;
    args.capture_row_stride = maps * max_keys, args.capture_head_stride = max_keys;
  }
  attention(type_, args, stream_.get());
}

void CudaSession::launch_step(int rows) {
  const int d = c_.d_model;
  cudaStream_t s = stream_.get();
  DeviceArena& a = decoder_arena_;
  const int* t = a.at<int>(decoder_.tables);  // [6][R]: tokens, positions, slot starts, self keys, cross starts, cross keys
  const int r = rows;
  const StackBuffers bufs = stack_buffers(a, decoder_, shape_.rows);
  const Residual& io = bufs.io;
  const float embed_scale = c_.embedding_scale ? std::sqrt(static_cast<float>(d)) : 1.f;
  embed(type_, io.x, io.x_t, w_.tgt_embed.values, w_.tgt_embed.row_scale, w_.tgt_positions, t, t + r, r, d, embed_scale,
        s);  // [R, D]
  const size_t cache_layer = static_cast<size_t>(shape_.slots) * shape_.max_steps * 2 * d;
  const size_t cross_layer = static_cast<size_t>(shape_.source_tokens) * 2 * d;
  for (int l = 0; l < c_.decoder_layers; ++l) {
    const DeviceDecoderLayer& lw = w_.decoder[l];
    float* cache = a.at<float>(decoder_.cache) + l * cache_layer;  // [P][T][2D]
    residual(lw.self_norm, io, r, [&](const Operand& in, float* o) {
      linear_f32(lw.self_qkv, in, bufs.qkv, r);  // [R, 3D]
      write_cache(cache, bufs.qkv, t + 2 * r, t + r, r, d, s);
      decoder_attention(AttentionKind::decoder, l, r, bufs.qkv, 3 * d, cache, t + 2 * r, t + 3 * r, shape_.max_steps,
                        decoder_.capture_self, bufs.attn);
      linear_f32(lw.self_out, bufs.attn, o, r);
    });
    residual(lw.cross_norm, io, r, [&](const Operand& in, float* o) {
      linear_f32(lw.cross_q, in, bufs.qkv, r);  // [R, D]
      const float* kv = a.at<float>(decoder_.cross_kv) + l * cross_layer;  // [N, 2D]
      decoder_attention(AttentionKind::cross, l, r, bufs.qkv, d, kv, t + 4 * r, t + 5 * r, shape_.max_source_len,
                        decoder_.capture_cross, bufs.attn);
      linear_f32(lw.cross_out, bufs.attn, o, r);
    });
    residual(lw.ffn_norm, io, r, [&](const Operand& in, float* o) { feed_forward(lw.fc1, lw.fc2, in, bufs, o, r); });
  }
  final_norm(w_.decoder_final_norm, io, r);
  linear_f32(w_.output, io.x_t, a.at<float>(decoder_.logits), r);  // [R, V] f32
}

void CudaSession::step(const StepInput& in, const HeadMask& mask) {
  if (in.rows > shape_.rows) {
    throw Error(ErrorCode::invalid_argument, "internal: a step of " + std::to_string(in.rows) + " rows after begin_decode of " +
                                                 std::to_string(shape_.rows));
  }
  upload_mask(mask);
  cudaStream_t s = stream_.get();
  const std::vector<int> tables =
      step_tables(in.tokens, in.slots, in.sentences, in.rows, in.step, shape_.max_steps, offsets_);  // [6][R]
  upload(decoder_arena_.at(decoder_.tables), tables.data(), tables.size() * sizeof(int), s);
  last_rows_ = in.rows;
  const GraphAction action = graph_policy_.decide(in.rows);
  if (graph_policy_.evicted() >= 0) {
    cudaGraphExecDestroy(graphs_.at(graph_policy_.evicted()));
    graphs_.erase(graph_policy_.evicted());
  }
  if (action == GraphAction::eager) {
    launch_step(in.rows);
    check_launches("the decoder step's kernels");
    return;
  }
  if (action == GraphAction::capture) {
    cudaGraph_t graph = nullptr;
    check(cudaStreamBeginCapture(s, cudaStreamCaptureModeThreadLocal), "cudaStreamBeginCapture");
    launch_step(in.rows);
    check(cudaStreamEndCapture(s, &graph), "cudaStreamEndCapture");
    cudaGraphExec_t exec = nullptr;
    const cudaError_t made = cudaGraphInstantiate(&exec, graph, 0);
    cudaGraphDestroy(graph);
    check(made, "cudaGraphInstantiate");
    graphs_[in.rows] = exec;
  }
  check(cudaGraphLaunch(graphs_.at(in.rows), s), "cudaGraphLaunch");
}

void CudaSession::top_k(const std::vector<int>& banned, int banned_per_row, int k, int* tokens, float* log_probs) {
  if (banned_per_row > shape_.banned_per_row || k > shape_.candidates_per_row) {
    throw Error(ErrorCode::invalid_argument, "internal: top_k of " + std::to_string(k) + " candidates and " +
                                                 std::to_string(banned_per_row) + " banned ids per row exceeds the plan");
  }
  cudaStream_t s = stream_.get();
  DeviceArena& a = decoder_arena_;
  upload(a.at(decoder_.banned), banned.data(), banned.size() * sizeof(int), s);
  ::attend::cuda::top_k(a.at<float>(decoder_.logits), last_rows_, c_.tgt_vocab_size, a.at<int>(decoder_.banned),
                        banned_per_row, k, a.at<int>(decoder_.top_tokens), a.at<float>(decoder_.top_log_probs), s);
  check_launches("top_k");
  const size_t n = static_cast<size_t>(last_rows_) * k;
  check(cudaMemcpyAsync(tokens, a.at(decoder_.top_tokens), n * sizeof(int), cudaMemcpyDeviceToHost, s), "cudaMemcpyAsync");
  check(cudaMemcpyAsync(log_probs, a.at(decoder_.top_log_probs), n * sizeof(float), cudaMemcpyDeviceToHost, s),
        "cudaMemcpyAsync");
  stream_.synchronize();
}

void CudaSession::token_log_probs(const int* tokens, float* log_probs) {
  cudaStream_t s = stream_.get();
  DeviceArena& a = decoder_arena_;  // the top-k's buffers, [R, K ≥ 1], hold the tokens and their log-probs
  upload(a.at(decoder_.top_tokens), tokens, last_rows_ * sizeof(int), s);
  ::attend::cuda::token_log_probs(a.at<float>(decoder_.logits), last_rows_, c_.tgt_vocab_size,
                                  a.at<int>(decoder_.top_tokens), a.at<float>(decoder_.top_log_probs), s);
  check_launches("token_log_probs");
  check(cudaMemcpyAsync(log_probs, a.at(decoder_.top_log_probs), last_rows_ * sizeof(float), cudaMemcpyDeviceToHost, s),
        "cudaMemcpyAsync");
  stream_.synchronize();
}

void CudaSession::copy_logits(float* out) {
  const size_t n = static_cast<size_t>(last_rows_) * c_.tgt_vocab_size;
  check(cudaMemcpyAsync(out, decoder_arena_.at(decoder_.logits), n * sizeof(float), cudaMemcpyDeviceToHost, stream_.get()),
        "cudaMemcpyAsync");
  stream_.synchronize();
}

void CudaSession::copy_captured_row(int row, float* self, float* cross) {
  const size_t maps = static_cast<size_t>(c_.decoder_layers) * c_.num_heads;  // [R][L·H][…]
  cudaStream_t s = stream_.get();
  const size_t self_row = maps * shape_.max_steps, cross_row = maps * shape_.max_source_len;
  if (self) {
    check(cudaMemcpyAsync(self, decoder_arena_.at<float>(decoder_.capture_self) + row * self_row,
                          self_row * sizeof(float), cudaMemcpyDeviceToHost, s),
          "cudaMemcpyAsync");
  }
  if (cross) {
    check(cudaMemcpyAsync(cross, decoder_arena_.at<float>(decoder_.capture_cross) + row * cross_row,
                          cross_row * sizeof(float), cudaMemcpyDeviceToHost, s),
          "cudaMemcpyAsync");
  }
  stream_.synchronize();
}

void CudaSession::copy_cache_slots(const int* forks, int count, int steps) {
  if (count == 0) return;
  if (count > shape_.slots) {
    throw Error(ErrorCode::invalid_argument, "internal: " + std::to_string(count) + " forks of " +
                                                 std::to_string(shape_.slots) + " slots");
  }
  DeviceArena& a = decoder_arena_;
  upload(a.at(decoder_.forks), forks, 2 * static_cast<size_t>(count) * sizeof(int), stream_.get());
  const size_t row = 2 * static_cast<size_t>(c_.d_model), slot = shape_.max_steps * row;
  ::attend::cuda::copy_cache_slots(a.at<float>(decoder_.cache), a.at<int>(decoder_.forks), count, c_.decoder_layers,
                                   shape_.slots * slot, slot, steps * row, stream_.get());
  check_launches("copy_cache_slots");
}

void CudaSession::drop_graphs() {
  for (auto& [rows, exec] : graphs_) cudaGraphExecDestroy(exec);
  graphs_.clear();
  graph_policy_.reset();
}

}  // namespace attend::cuda
