// The kernels at the model's shapes (d_model 128, d_ff 512, fused q/k/v 384, vocab 8000,
// head_dim 32), per runnable ISA, and OpenBLAS's single-threaded cblas_sgemm on the same shapes
// as the peer. Names read kernel/impl/m:…/n:…/k:…; compare FLOP/s of rows with equal shapes.
//   attend_kernel_bench --benchmark_filter='gemm_f32_nt/.*/m:1/'
#include <benchmark/benchmark.h>
#include <cblas.h>

#include <algorithm>
#include <cstdint>
#include <new>
#include <random>
#include <string>
#include <vector>

#include "kernels/kernels.h"

namespace attend::kernels {
namespace {

// Operands start on 64-byte boundaries, as a model loader should place its weights: with a
// malloc-aligned (16-byte) start, every 64-byte AVX-512 load of a row would straddle two cache
// lines.
template <class T>
struct CacheLineAllocator {
  using value_type = T;
  CacheLineAllocator() = default;
  template <class U>
  CacheLineAllocator(const CacheLineAllocator<U>&) {}
  T* allocate(std::size_t count) {
    return static_cast<T*>(::operator new(count * sizeof(T), std::align_val_t{64}));
  }
  void deallocate(T* p, std::size_t) { ::operator delete(p, std::align_val_t{64}); }
  bool operator==(const CacheLineAllocator&) const { return true; }
  bool operator!=(const CacheLineAllocator&) const { return false; }
};

template <class T>
using Aligned = std::vector<T, CacheLineAllocator<T>>;

struct Shape {
  int m, n, k;
};

std::string shape_name(const char* kernel, const char* impl, Shape s) {
  return std::string(kernel) + "/" + impl + "/m:" + std::to_string(s.m) + "/n:" +
         std::to_string(s.n) + "/k:" + std::to_string(s.k);
}

Aligned<float> random_floats(std::size_t count, float lo = -1.0f, float hi = 1.0f) {
  std::mt19937 engine(static_cast<unsigned>(count));
  std::uniform_real_distribution<float> uniform(lo, hi);
  Aligned<float> values(count);
  for (float& v : values) v = uniform(engine);
  return values;
}

// FLOP/s of a GEMM (2 per multiply-add) and bytes/s of its weights, the two numbers that
// bound it: compute at large m, memory at m = 1.
void set_gemm_counters(benchmark::State& state, Shape s, std::size_t weight_bytes) {
  const double iterations = static_cast<double>(state.iterations());
  state.counters["FLOP/s"] = benchmark::Counter(2.0 * s.m * s.n * s.k * iterations,
                                                benchmark::Counter::kIsRate);
  state.counters["weight_B/s"] = benchmark::Counter(
      static_cast<double>(weight_bytes) * iterations, benchmark::Counter::kIsRate);
}

// One GEMM's operands; b is [n, k] for the _nt kernels and [k, n] for _nn (same size).
struct GemmOperands {
  explicit GemmOperands(Shape s)
      : a(random_floats(static_cast<std::size_t>(s.m) * s.k)),
        b(random_floats(static_cast<std::size_t>(s.n) * s.k)),
        b_i8(b.size()),
        scale(random_floats(s.n, 0.001f, 0.02f)),
        bias(random_floats(s.n)),
        c(static_cast<std::size_t>(s.m) * s.n) {
    for (std::size_t i = 0; i < b.size(); ++i) b_i8[i] = static_cast<int8_t>(b[i] * 127.0f);
  }
  Aligned<float> a, b;
  Aligned<int8_t> b_i8;
  Aligned<float> scale, bias, c;
};

void bench_gemm_f32_nt(benchmark::State& state, const KernelTable* t, Shape s) {
  GemmOperands x(s);
  for (auto _ : state) {
    t->gemm_f32_nt(x.a.data(), s.k, x.b.data(), s.k, x.bias.data(), x.c.data(), s.n, s.m, s.n,
                   s.k, false);
    benchmark::DoNotOptimize(x.c.data());
  }
  set_gemm_counters(state, s, x.b.size() * sizeof(float));
}

void bench_gemm_i8w_nt(benchmark::State& state, const KernelTable* t, Shape s) {
  GemmOperands x(s);
  for (auto _ : state) {
    t->gemm_i8w_nt(x.a.data(), s.k, x.b_i8.data(), s.k, x.scale.data(), x.bias.data(),
                   x.c.data(), s.n, s.m, s.n, s.k);
    benchmark::DoNotOptimize(x.c.data());
  }
  set_gemm_counters(state, s, x.b_i8.size());
}

// The same GEMMs on weights packed once into the table's panels, as the model holds them.
void bench_gemm_f32_nt_panels(benchmark::State& state, const KernelTable* t, Shape s) {
  GemmOperands x(s);
  Aligned<float> panels(panels_size(s.n, s.k, t->panel_columns));
  pack_panels(x.b.data(), s.k, s.n, s.k, t->panel_columns, panels.data());
  for (auto _ : state) {
    t->gemm_f32_nt_panels(x.a.data(), s.k, x.b.data(), s.k, panels.data(), x.bias.data(), x.c.data(), s.n, s.m,
                          s.n, s.k, false);
    benchmark::DoNotOptimize(x.c.data());
  }
  set_gemm_counters(state, s, x.b.size() * sizeof(float));
}

void bench_gemm_i8w_nt_panels(benchmark::State& state, const KernelTable* t, Shape s) {
  GemmOperands x(s);
  Aligned<int8_t> panels(panels_size(s.n, s.k, t->panel_columns));
  pack_panels(x.b_i8.data(), s.k, s.n, s.k, t->panel_columns, panels.data());
  for (auto _ : state) {
    t->gemm_i8w_nt_panels(x.a.data(), s.k, x.b_i8.data(), s.k, panels.data(), x.scale.data(), x.bias.data(),
                          x.c.data(), s.n, s.m, s.n, s.k);
    benchmark::DoNotOptimize(x.c.data());
  }
  set_gemm_counters(state, s, x.b_i8.size());
}

// int8 weights as quad panels, activations quantized per row inside the call (ModelOptions).
void bench_gemm_i8i8_nt(benchmark::State& state, const KernelTable* t, Shape s) {
  GemmOperands x(s);
  Aligned<int8_t> quads(quad_panels_size(s.n, s.k));
  Aligned<int32_t> sums(column_sums_size(s.n));
  pack_quad_panels(x.b_i8.data(), s.k, s.n, s.k, quads.data());
  sum_columns(x.b_i8.data(), s.k, s.n, s.k, sums.data());
  for (auto _ : state) {
    t->gemm_i8i8_nt(x.a.data(), s.k, x.b_i8.data(), s.k, quads.data(), sums.data(), x.scale.data(), x.bias.data(),
                    x.c.data(), s.n, s.m, s.n, s.k);
    benchmark::DoNotOptimize(x.c.data());
  }
  set_gemm_counters(state, s, x.b_i8.size());
}

void bench_gemm_f32_nn(benchmark::State& state, const KernelTable* t, Shape s) {
  GemmOperands x(s);
  for (auto _ : state) {
    t->gemm_f32_nn(x.a.data(), s.k, x.b.data(), s.n, x.c.data(), s.n, s.m, s.n, s.k, false);
    benchmark::DoNotOptimize(x.c.data());
  }
  set_gemm_counters(state, s, x.b.size() * sizeof(float));
}

// The peer: c = a·bᵀ (nt) or a·b (nn) with OpenBLAS, bias left out (it costs O(m·n)).
void bench_openblas(benchmark::State& state, bool transpose_b, Shape s) {
  GemmOperands x(s);
  for (auto _ : state) {
    cblas_sgemm(CblasRowMajor, CblasNoTrans, transpose_b ? CblasTrans : CblasNoTrans, s.m, s.n,
                s.k, 1.0f, x.a.data(), s.k, x.b.data(), transpose_b ? s.k : s.n, 0.0f,
                x.c.data(), s.n);
    benchmark::DoNotOptimize(x.c.data());
  }
  set_gemm_counters(state, s, x.b.size() * sizeof(float));
}

// A row kernel over n values. Softmax runs in place on its own output (still a valid input);
// gelu restores its input first, a copy of n floats included in its time.
template <class Run>
void bench_rows(benchmark::State& state, int n, Run&& run) {
  Aligned<float> x = random_floats(n, -8.0f, 8.0f);
  for (auto _ : state) {
    run(x.data(), n);
    benchmark::DoNotOptimize(x.data());
  }
  state.counters["elements/s"] = benchmark::Counter(
      static_cast<double>(n) * static_cast<double>(state.iterations()), benchmark::Counter::kIsRate);
}

void register_all() {
  openblas_set_num_threads(1);  // our kernels are single-threaded; so is the comparison
  const std::vector<Shape> linear_shapes = {
      {1, 8000, 128},  {1, 512, 128},  {1, 128, 512},  {1, 384, 128},
      {4, 8000, 128},  {4, 512, 128},  {8, 8000, 128},  {8, 512, 128},  // beam search
      {32, 8000, 128}, {32, 512, 128}, {32, 128, 512}, {32, 384, 128},
      {448, 8000, 128}, {448, 512, 128}, {448, 128, 512}, {448, 384, 128}};
  const std::vector<Shape> scores_shapes = {{1, 200, 32}, {32, 32, 32}, {200, 200, 32}};  // q·Kᵀ
  const std::vector<Shape> mix_shapes = {{1, 32, 200}, {32, 32, 32}, {200, 32, 200},      // P·V
                                         {32, 512, 128}, {448, 512, 128}};

  for (Isa isa : available_isas()) {
    const KernelTable* t = kernels_for(isa);
    const char* name = isa_name(isa);
    for (Shape s : linear_shapes) {
      if (isa == Isa::scalar && s.m > 1) continue;  // the reference is for correctness
      benchmark::RegisterBenchmark(shape_name("gemm_f32_nt", name, s).c_str(), bench_gemm_f32_nt, t, s);
      benchmark::RegisterBenchmark(shape_name("gemm_i8w_nt", name, s).c_str(), bench_gemm_i8w_nt, t, s);
      if (t->gemm_i8i8_nt && isa != Isa::scalar) {
        benchmark::RegisterBenchmark(shape_name("gemm_i8i8_nt", name, s).c_str(), bench_gemm_i8i8_nt, t, s);
      }
      if (t->panel_columns > 0 && s.m > 1) {
        const std::string packed = std::string(name) + "+panels";
        benchmark::RegisterBenchmark(shape_name("gemm_f32_nt", packed.c_str(), s).c_str(), bench_gemm_f32_nt_panels,
                                     t, s);
        benchmark::RegisterBenchmark(shape_name("gemm_i8w_nt", packed.c_str(), s).c_str(), bench_gemm_i8w_nt_panels,
                                     t, s);
      }
    }
    for (Shape s : scores_shapes) {
      benchmark::RegisterBenchmark(shape_name("gemm_f32_nt", name, s).c_str(), bench_gemm_f32_nt, t, s);
    }
    for (Shape s : mix_shapes) {
      if (isa == Isa::scalar && s.m > 32) continue;
      benchmark::RegisterBenchmark(shape_name("gemm_f32_nn", name, s).c_str(), bench_gemm_f32_nn, t, s);
    }
    for (int n : {32, 200, 8000}) {
      benchmark::RegisterBenchmark(("softmax_f32/" + std::string(name) + "/n:" + std::to_string(n)).c_str(),
                                   [t](benchmark::State& st, int len) {
                                     bench_rows(st, len, t->softmax_f32);
                                   }, n);
    }
    for (int n : {128, 256}) {
      benchmark::RegisterBenchmark(
          ("layernorm_f32/" + std::string(name) + "/n:" + std::to_string(n)).c_str(),
          [t](benchmark::State& st, int len) {
            const Aligned<float> gamma = random_floats(len), beta = random_floats(len);
            Aligned<float> y(len);
            bench_rows(st, len, [&](float* x, int count) {
              t->layernorm_f32(x, gamma.data(), beta.data(), y.data(), count, 1e-5f);
            });
          }, n);
    }
    benchmark::RegisterBenchmark(("gelu_f32/" + std::string(name) + "/n:512").c_str(),
                                 [t](benchmark::State& st) {
                                   const Aligned<float> input = random_floats(512, -8.0f, 8.0f);
                                   bench_rows(st, 512, [&](float* x, int count) {
                                     std::copy(input.begin(), input.end(), x);
                                     t->gelu_f32(x, count);
                                   });
                                 });
  }
  for (Shape s : linear_shapes) benchmark::RegisterBenchmark(shape_name("gemm_f32_nt", "openblas", s).c_str(), bench_openblas, true, s);
  for (Shape s : scores_shapes) benchmark::RegisterBenchmark(shape_name("gemm_f32_nt", "openblas", s).c_str(), bench_openblas, true, s);
  for (Shape s : mix_shapes) benchmark::RegisterBenchmark(shape_name("gemm_f32_nn", "openblas", s).c_str(), bench_openblas, false, s);
}

}  // namespace
}  // namespace attend::kernels

int main(int argc, char** argv) {
  benchmark::Initialize(&argc, argv);
  attend::kernels::register_all();
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
