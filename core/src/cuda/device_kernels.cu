#include "cuda/device_kernels.h"

#include <cfloat>
#include <cmath>
#include <type_traits>

#ifdef ATTEND_CUDA_EMULATION
// tests/cuda/emulation: this file compiled as C++, its kernels run by CPU threads.
#include "cuda_emulation.h"
#else
#include <cuda_bf16.h>
#include <cuda_fp16.h>
#define ATTEND_DYNAMIC_SHARED(type, name) extern __shared__ type name[]

namespace attend::cuda {
namespace {

template <class... Params, class... Args>
void launch(void (*kernel)(Params...), dim3 grid, dim3 block, size_t shared, cudaStream_t stream, Args... args) {
  kernel<<<grid, block, shared, stream>>>(args...);
}

}  // namespace
}  // namespace attend::cuda
#endif

namespace attend::cuda {
namespace {

constexpr int kThreads = 128;      // per block for row kernels (D and head_dim are ≤ a few hundred)
constexpr int kTopKThreads = 256;  // a vocabulary row

__device__ float to_float(float v) { return v; }
__device__ float to_float(__half v) { return __half2float(v); }
__device__ float to_float(__nv_bfloat16 v) { return __bfloat162float(v); }
template <class T> __device__ T from_float(float v);
template <> __device__ float from_float<float>(float v) { return v; }
template <> __device__ __half from_float<__half>(float v) { return __float2half_rn(v); }
template <> __device__ __nv_bfloat16 from_float<__nv_bfloat16>(float v) { return __float2bfloat16_rn(v); }

// y[i] = v in the compute type and, when lo > 0 (bf16's low plane), y[lo + i] = what that cut off.
template <class T>
__device__ void store(T* y, size_t i, size_t lo, float v) {
  const T hi = from_float<T>(v);
  y[i] = hi;
  if (lo) y[lo + i] = from_float<T>(v - to_float(hi));
}

// Calls f with a null pointer of the compute type's element type (for the template argument).
template <class F>
void with_type(ComputeType t, F&& f) {
  switch (t) {
    case ComputeType::f32: f(static_cast<float*>(nullptr)); break;
    case ComputeType::f16: f(static_cast<__half*>(nullptr)); break;
    case ComputeType::bf16: f(static_cast<__nv_bfloat16*>(nullptr)); break;
  }
}

unsigned blocks_for(size_t n, int threads) { return static_cast<unsigned>((n + threads - 1) / threads); }

// Sum and max of one value per thread over the block (blockDim.x a multiple of 32, ≤ 1024).
__device__ float block_sum(float v, float* shared32) {
  for (int o = 16; o > 0; o >>= 1) v += __shfl_xor_sync(0xffffffffu, v, o);
  const int warp = threadIdx.x / 32, lane = threadIdx.x % 32, warps = blockDim.x / 32;
  __syncthreads();
  if (lane == 0) shared32[warp] = v;
  __syncthreads();
  v = lane < warps ? shared32[lane] : 0.f;
  for (int o = 16; o > 0; o >>= 1) v += __shfl_xor_sync(0xffffffffu, v, o);
  return v;
}

__device__ float block_max(float v, float* shared32) {
  for (int o = 16; o > 0; o >>= 1) v = fmaxf(v, __shfl_xor_sync(0xffffffffu, v, o));
  const int warp = threadIdx.x / 32, lane = threadIdx.x % 32, warps = blockDim.x / 32;
  __syncthreads();
  if (lane == 0) shared32[warp] = v;
  __syncthreads();
  v = lane < warps ? shared32[lane] : -FLT_MAX;
  for (int o = 16; o > 0; o >>= 1) v = fmaxf(v, __shfl_xor_sync(0xffffffffu, v, o));
  return v;
}

template <class T>
__global__ void convert_kernel(T* out, const float* in, size_t n) {
  const size_t i = blockIdx.x * static_cast<size_t>(blockDim.x) + threadIdx.x;
  if (i < n) out[i] = from_float<T>(in[i]);
}

template <class T>
__global__ void embed_kernel(float* x, T* x_t, size_t lo, const T* table, const float* row_scale,
                             const float* positions, const int* ids, const int* position, int d, float scale) {
  const int r = blockIdx.x;
  const T* e = table + static_cast<size_t>(ids[r]) * d;
  const float* pe = positions + static_cast<size_t>(position[r]) * d;
  const float s = row_scale ? row_scale[ids[r]] : 1.f;
  for (int i = threadIdx.x; i < d; i += blockDim.x) {
    const float v = to_float(e[i]) * s * scale + pe[i];
    x[static_cast<size_t>(r) * d + i] = v;
    store(x_t, static_cast<size_t>(r) * d + i, lo, v);
  }
}

// gelu as the CPU's: ½·x·erfc(−x/√2); swish: x / (1 + exp(−x))
__device__ float activate(float v, Activation a) {
  switch (a) {
    case Activation::relu: return fmaxf(v, 0.f);
    case Activation::gelu: return 0.5f * v * erfcf(-v * 0.70710678118654752440f);
    case Activation::swish: return v / (1.f + expf(-v));
  }
  return v;
}

template <class T>
__global__ void bias_activation_kernel(const float* sums, T* y, size_t lo, const float* scale, const float* bias,
                                       size_t total, int n, bool has_act, Activation act) {
  const size_t i = blockIdx.x * static_cast<size_t>(blockDim.x) + threadIdx.x;
  if (i >= total) return;
  float v = sums[i];
  if (scale) v *= scale[i % n];
  if (bias) v += bias[i % n];
  if (has_act) v = activate(v, act);
  store(y, i, lo, v);
}

template <class T>
__global__ void add_kernel(T* x, const T* y, size_t n) {
  const size_t i = blockIdx.x * static_cast<size_t>(blockDim.x) + threadIdx.x;
  if (i < n) x[i] = from_float<T>(to_float(x[i]) + to_float(y[i]));
}

// One block per row; the row is held in shared memory so that y may be x.
template <class T>
__global__ void layernorm_kernel(const float* x, const float* add, float* y, T* y_t, size_t lo, const float* gamma,
                                 const float* beta, int d, float eps) {
  ATTEND_DYNAMIC_SHARED(float, row);  // [d]
  __shared__ float shared32[32];
  const size_t base = static_cast<size_t>(blockIdx.x) * d;
  float sum = 0.f;
  for (int i = threadIdx.x; i < d; i += blockDim.x) {
    const float v = x[base + i] + (add ? add[base + i] : 0.f);
    row[i] = v;
    sum += v;
  }
  const float mean = block_sum(sum, shared32) / d;
  float squares = 0.f;
  for (int i = threadIdx.x; i < d; i += blockDim.x) squares += (row[i] - mean) * (row[i] - mean);
  const float rstd = rsqrtf(block_sum(squares, shared32) / d + eps);
  for (int i = threadIdx.x; i < d; i += blockDim.x) {
    const float v = (row[i] - mean) * rstd * gamma[i] + beta[i];
    if (y) y[base + i] = v;
    store(y_t, base + i, lo, v);
  }
}

__global__ void write_cache_kernel(float* cache, const float* qkv, const int* slot_start, const int* position, int d) {
  const int r = blockIdx.x;
  const float* kv = qkv + static_cast<size_t>(r) * 3 * d + d;  // [2D]: K then V
  float* dst = cache + static_cast<size_t>(slot_start[r] + position[r]) * 2 * d;
  for (int i = threadIdx.x; i < 2 * d; i += blockDim.x) dst[i] = kv[i];
}

// One block per (fork, layer).
__global__ void copy_cache_slots_kernel(float* cache, const int* forks, size_t layer_elements, size_t slot_elements,
                                        size_t elements) {
  const int from = forks[2 * blockIdx.x], to = forks[2 * blockIdx.x + 1];
  const float* src = cache + blockIdx.y * layer_elements + from * slot_elements;
  float* dst = cache + blockIdx.y * layer_elements + to * slot_elements;
  for (size_t i = threadIdx.x; i < elements; i += blockDim.x) dst[i] = src[i];
}

template <class T>
__global__ void attention_kernel(AttentionArgs a) {
  ATTEND_DYNAMIC_SHARED(float, shared);  // [head_dim] query, then [max_keys] scores
  __shared__ float shared32[32];
  const int q = blockIdx.x, h = blockIdx.y, hd = a.head_dim;
  float* query = shared;
  float* p = shared + hd;
  const int start = a.key_start[q], keys = a.key_count[q];
  const float* qrow = a.q + static_cast<size_t>(q) * a.ldq + h * hd;
  for (int i = threadIdx.x; i < hd; i += blockDim.x) query[i] = qrow[i] * a.scale;
  __syncthreads();
  const float* kbase = a.k + h * hd;
  float best = -FLT_MAX;
  for (int j = threadIdx.x; j < keys; j += blockDim.x) {
    const float* krow = kbase + static_cast<size_t>(start + j) * a.ldkv;
    float s = 0.f;
    for (int i = 0; i < hd; ++i) s += query[i] * krow[i];
    p[j] = s;
    best = fmaxf(best, s);
  }
  best = block_max(best, shared32);
  float sum = 0.f;
  for (int j = threadIdx.x; j < keys; j += blockDim.x) {
    p[j] = expf(p[j] - best);
    sum += p[j];
  }
  const float inverse = 1.f / block_sum(sum, shared32);
  for (int j = threadIdx.x; j < keys; j += blockDim.x) p[j] *= inverse;
  __syncthreads();
  const int captured = q - a.capture_first;
  if (a.capture && captured >= 0 && captured < a.capture_rows) {
    float* dst = a.capture + captured * a.capture_row_stride + h * a.capture_head_stride;
    for (int j = threadIdx.x; j < keys; j += blockDim.x) dst[j] = p[j];
  }
  T* out = static_cast<T*>(a.out.data) + static_cast<size_t>(q) * a.ldo + h * hd;
  const bool masked = a.masked_heads && a.masked_heads[h];
  const float* vbase = a.v + h * hd;
  for (int i = threadIdx.x; i < hd; i += blockDim.x) {
    float acc = 0.f;
    if (!masked) {
      for (int j = 0; j < keys; ++j) acc += p[j] * vbase[static_cast<size_t>(start + j) * a.ldkv + i];
    }
    store(out, i, a.out.lo, acc);
  }
}

// (value, index) a ranks before b: a higher value, then a lower index; index -1 is nothing.
__device__ bool ranks_before(float av, int ai, float bv, int bi) {
  return ai >= 0 && (bi < 0 || av > bv || (av == bv && ai < bi));
}

// lse = log Σ exp(x[i]) over the row x [vocab], computed as max + log Σ exp(x − max) (by every thread).
__device__ float row_log_sum_exp(const float* x, int vocab, float* shared32) {
  float m = -FLT_MAX;
  for (int i = threadIdx.x; i < vocab; i += blockDim.x) m = fmaxf(m, x[i]);
  m = block_max(m, shared32);
  float sum = 0.f;
  for (int i = threadIdx.x; i < vocab; i += blockDim.x) sum += expf(x[i] - m);
  return m + logf(block_sum(sum, shared32));
}

// One block per row. Round n picks the best token ranked after round n - 1's pick, a banned
// token's logit counted as -inf (so banned tokens come last, lower id first, as on the CPU).
__global__ void top_k_kernel(const float* logits, int vocab, const int* banned, int banned_per_row, int k, int* tokens,
                             float* log_probs) {
  __shared__ float shared32[32];
  __shared__ float best_value[kTopKThreads / 32];
  __shared__ int best_index[kTopKThreads / 32];
  const float* x = logits + static_cast<size_t>(blockIdx.x) * vocab;
  const int* ban = banned + static_cast<size_t>(blockIdx.x) * banned_per_row;
  const float lse = row_log_sum_exp(x, vocab, shared32);
  float last_value = 0.f;
  int last_index = -1;  // -1 before the first round
  for (int round = 0; round < k; ++round) {
    float v = -INFINITY;
    int index = -1;
    for (int i = threadIdx.x; i < vocab; i += blockDim.x) {
      if (index >= 0 && !(x[i] > v)) continue;  // banned or not, no better: a tie keeps the lower index, met first
      bool is_banned = false;
      for (int b = 0; b < banned_per_row; ++b) is_banned |= ban[b] == i;
      const float xi = is_banned ? -INFINITY : x[i];
      if (last_index >= 0 && !ranks_before(last_value, last_index, xi, i)) continue;  // picked already
      if (index < 0 || xi > v) v = xi, index = i;
    }
    for (int o = 16; o > 0; o >>= 1) {
      const float ov = __shfl_xor_sync(0xffffffffu, v, o);
      const int oi = __shfl_xor_sync(0xffffffffu, index, o);
      if (ranks_before(ov, oi, v, index)) v = ov, index = oi;
    }
    __syncthreads();
    if (threadIdx.x % 32 == 0) best_value[threadIdx.x / 32] = v, best_index[threadIdx.x / 32] = index;
    __syncthreads();
    v = best_value[0], index = best_index[0];
    for (int w = 1; w < kTopKThreads / 32; ++w) {
      if (ranks_before(best_value[w], best_index[w], v, index)) v = best_value[w], index = best_index[w];
    }
    if (threadIdx.x == 0) {
      tokens[static_cast<size_t>(blockIdx.x) * k + round] = index;
      log_probs[static_cast<size_t>(blockIdx.x) * k + round] = v - lse;
    }
    last_value = v, last_index = index;  // k ≤ vocab: every round finds a token
  }
}

// One block per row: log_probs[r] = logits[r, tokens[r]] − lse of row r.
__global__ void token_log_probs_kernel(const float* logits, int vocab, const int* tokens, float* log_probs) {
  __shared__ float shared32[32];
  const float* x = logits + static_cast<size_t>(blockIdx.x) * vocab;
  const float lse = row_log_sum_exp(x, vocab, shared32);
  if (threadIdx.x == 0) log_probs[blockIdx.x] = x[tokens[blockIdx.x]] - lse;
}

}  // namespace

void convert_from_f32(ComputeType t, void* out, const float* in, size_t n, cudaStream_t stream) {
  if (n == 0) return;
  with_type(t, [&](auto* type) {
    using T = std::remove_pointer_t<decltype(type)>;
    launch(convert_kernel<T>, blocks_for(n, 256), 256, 0, stream, static_cast<T*>(out), in, n);
  });
}

void embed(ComputeType t, float* x, Operand x_t, const void* table, const float* row_scale, const float* positions,
           const int* ids, const int* position, int rows, int d, float scale, cudaStream_t stream) {
  if (rows == 0) return;
  with_type(t, [&](auto* type) {
    using T = std::remove_pointer_t<decltype(type)>;
    launch(embed_kernel<T>, rows, kThreads, 0, stream, x, static_cast<T*>(x_t.data), x_t.lo,
           static_cast<const T*>(table), row_scale, positions, ids, position, d, scale);
  });
}

void bias_activation(ComputeType t, const float* sums, Operand y, const float* scale, const float* bias, int rows,
                     int n, const Activation* act, cudaStream_t stream) {
  const size_t total = static_cast<size_t>(rows) * n;
  if (total == 0 || (t == ComputeType::f32 && y.data == sums && !scale && !bias && !act)) return;
  with_type(t, [&](auto* type) {
    using T = std::remove_pointer_t<decltype(type)>;
    launch(bias_activation_kernel<T>, blocks_for(total, 256), 256, 0, stream, sums, static_cast<T*>(y.data), y.lo,
           scale, bias, total, n, act != nullptr, act ? *act : Activation::relu);
  });
}

void add(ComputeType t, void* x, const void* y, size_t n, cudaStream_t stream) {
  if (n == 0) return;
  with_type(t, [&](auto* type) {
    using T = std::remove_pointer_t<decltype(type)>;
    launch(add_kernel<T>, blocks_for(n, 256), 256, 0, stream, static_cast<T*>(x), static_cast<const T*>(y), n);
  });
}

void layernorm(ComputeType t, const float* x, const float* add, float* y, Operand y_t, const float* gamma,
               const float* beta, int rows, int d, float eps, cudaStream_t stream) {
  if (rows == 0) return;
  with_type(t, [&](auto* type) {
    using T = std::remove_pointer_t<decltype(type)>;
    launch(layernorm_kernel<T>, rows, kThreads, d * sizeof(float), stream, x, add, y, static_cast<T*>(y_t.data),
           y_t.lo, gamma, beta, d, eps);
  });
}

void write_cache(float* cache, const float* qkv, const int* slot_start, const int* position, int rows, int d,
                 cudaStream_t stream) {
  if (rows == 0) return;
  launch(write_cache_kernel, rows, kThreads, 0, stream, cache, qkv, slot_start, position, d);
}

void copy_cache_slots(float* cache, const int* forks, int count, int layers, size_t layer_elements,
                      size_t slot_elements, size_t elements, cudaStream_t stream) {
  if (count == 0 || elements == 0) return;
  launch(copy_cache_slots_kernel, dim3(count, layers), 256, 0, stream, cache, forks, layer_elements, slot_elements,
         elements);
}

void attention(ComputeType t, const AttentionArgs& args, cudaStream_t stream) {
  if (args.queries == 0) return;
  const dim3 grid(args.queries, args.heads);
  const size_t shared = (args.head_dim + args.max_keys) * sizeof(float);
  with_type(t, [&](auto* type) {
    using T = std::remove_pointer_t<decltype(type)>;
    launch(attention_kernel<T>, grid, kThreads, shared, stream, args);
  });
}

void top_k(const float* logits, int rows, int vocab, const int* banned, int banned_per_row, int k, int* tokens,
           float* log_probs, cudaStream_t stream) {
  if (rows == 0) return;
  launch(top_k_kernel, rows, kTopKThreads, 0, stream, logits, vocab, banned, banned_per_row, k, tokens, log_probs);
}

void token_log_probs(const float* logits, int rows, int vocab, const int* tokens, float* log_probs,
                     cudaStream_t stream) {
  if (rows == 0) return;
  launch(token_log_probs_kernel, rows, kTopKThreads, 0, stream, logits, vocab, tokens, log_probs);
}

}  // namespace attend::cuda
