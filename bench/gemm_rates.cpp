// The weight GEMMs as the model calls them, at its shapes, with one source for every build: natively
// on the best kernel table of this CPU, and compiled to WebAssembly (run in Node) on the SIMD128 table.
// bench/wasm_gemm.py runs both and divides. Prints one JSON object:
//   {"isa": "...", "rows": [{"kernel": "f32" | "i8w" | "i8i8", "m":, "n":, "k":, "gflops":}, ...]}
//   attend_gemm_rates [--ms 50]     (each shape: repeated for at least --ms milliseconds, best of 3)
//   attend_gemm_rates --u8s8 [--ms 50]: gemm_u8s8_shifted_nt (Marian's int8 files) instead, at more row counts,
//     the same shapes (the Firefox students' d_model 256 / d_ff 1536 too), with "per_row_us" (µs per row)
#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cmath>
#include <cstring>
#include <functional>
#include <random>
#include <vector>

#include "kernels/kernels.h"

namespace attend::kernels {
namespace {

struct Shape {
  int m, n, k;
};

// The linear layers' [n, k] (vocabulary 8000, d_model 128, d_ff 512, fused q/k/v 384) at the rows
// a decoder step has: 1 (greedy, batch 1), 5 (beam 5, batch 1), 32 (greedy, batch 32), and 448 (a
// batch's source tokens in the encoder, and rates levelled off, bench/ceilings.py).
constexpr int kRows[] = {1, 5, 32, 448};
constexpr Shape kLayers[] = {{0, 8000, 128}, {0, 512, 128}, {0, 128, 512}, {0, 384, 128}};
constexpr int kRounds = 3;

std::vector<float> random_floats(std::size_t count, float lo, float hi, unsigned seed) {
  std::mt19937 engine(seed);
  std::uniform_real_distribution<float> uniform(lo, hi);
  std::vector<float> values(count);
  for (float& v : values) v = uniform(engine);
  return values;
}

// The operands of one shape, the weights packed as the model loader packs them.
struct Operands {
  Operands(const KernelTable& t, Shape s)
      : a(random_floats(std::size_t(s.m) * s.k, -1.0f, 1.0f, 1)),   // [m, k]
        b(random_floats(std::size_t(s.n) * s.k, -1.0f, 1.0f, 2)),   // [n, k]
        scale(random_floats(s.n, 0.001f, 0.02f, 3)),                // [n]
        bias(random_floats(s.n, -1.0f, 1.0f, 4)),                   // [n]
        c(std::size_t(s.m) * s.n),                                  // [m, n]
        b_i8(b.size()),                                             // [n, k] in [-127, 127]
        panels(panels_size(s.n, s.k, t.panel_columns)),
        panels_i8(panels.size()),
        quads(quad_panels_size(s.n, s.k)),
        sums(column_sums_size(s.n)) {
    for (std::size_t i = 0; i < b.size(); ++i) b_i8[i] = static_cast<int8_t>(b[i] * 127.0f);
    pack_panels(b.data(), s.k, s.n, s.k, t.panel_columns, panels.data());
    pack_panels(b_i8.data(), s.k, s.n, s.k, t.panel_columns, panels_i8.data());
    pack_quad_panels(b_i8.data(), s.k, s.n, s.k, quads.data());
    sum_columns(b_i8.data(), s.k, s.n, s.k, sums.data());
  }
  std::vector<float> a, b, scale, bias, c;
  std::vector<int8_t> b_i8;
  std::vector<float> panels;
  std::vector<int8_t> panels_i8, quads;
  std::vector<int32_t> sums;
};

// GFLOP/s (2 per multiply-add) of the best of kRounds rounds of at least `ms` milliseconds each.
double rate(Shape s, double ms, const std::function<void()>& call) {
  using Clock = std::chrono::steady_clock;
  double best = 0.0;
  for (int round = 0; round < kRounds; ++round) {
    long calls = 0;
    const Clock::time_point start = Clock::now();
    double elapsed = 0.0;
    do {
      call();
      ++calls;
      elapsed = std::chrono::duration<double, std::milli>(Clock::now() - start).count();
    } while (elapsed < ms);
    best = std::max(best, 2.0 * s.m * s.n * s.k * calls / (elapsed * 1e6));
  }
  return best;
}

// gemm_u8s8_shifted_nt at rows 1 (greedy, batch 1) to 64 (a batch's decoder step, a short sentence's encoder):
// batching gains where the time per row falls as m grows.
void run_u8s8(double ms) {
  const KernelTable& t = best_kernels();
  std::printf("{\"isa\": \"%s\", \"rows\": [", isa_name(t.isa));
  const char* separator = "";
  constexpr Shape kShapes[] = {{0, 2000, 128}, {0, 512, 128}, {0, 128, 512}, {0, 128, 128},
                               {0, 1536, 256}, {0, 256, 1536}, {0, 256, 256}};
  for (Shape layer : kShapes) {
    for (int m : {1, 2, 4, 8, 16, 32, 64}) {
      const Shape s{m, layer.n, layer.k};
      Operands x(t, s);
      // Weights as a Marian int8 file has them: most small, a few near ±127 (b = 127·u³ for u uniform in
      // [-1, 1]: about 2% of the byte pairs could saturate, where the student's layers have 0-4%).
      for (std::size_t i = 0; i < x.b.size(); ++i) x.b_i8[i] = static_cast<int8_t>(std::lround(127.0f * x.b[i] * x.b[i] * x.b[i]));
      const double gflops = rate(s, ms, [&] {
        t.gemm_u8s8_shifted_nt(x.a.data(), s.k, 60.0f, x.b_i8.data(), s.k, 1e-4f, x.bias.data(), x.c.data(), s.n, s.m,
                               s.n, s.k);
      });
      std::printf("%s\n  {\"kernel\": \"u8s8\", \"m\": %d, \"n\": %d, \"k\": %d, \"gflops\": %.2f, \"per_row_us\": %.3f}",
                  separator, s.m, s.n, s.k, gflops, 2.0 * s.n * s.k / (gflops * 1e3));
      separator = ",";
      std::fflush(stdout);
    }
  }
  std::printf("\n]}\n");
}

void run(double ms) {
  const KernelTable& t = best_kernels();
  std::printf("{\"isa\": \"%s\", \"rows\": [", isa_name(t.isa));
  const char* separator = "";
  for (int m : kRows) {
    for (Shape layer : kLayers) {
      const Shape s{m, layer.n, layer.k};
      Operands x(t, s);
      const std::pair<const char*, std::function<void()>> kernels[] = {
          {"f32", [&] { t.gemm_f32_nt_panels(x.a.data(), s.k, x.b.data(), s.k, x.panels.data(), x.bias.data(),
                                             x.c.data(), s.n, s.m, s.n, s.k, false); }},
          {"i8w", [&] { t.gemm_i8w_nt_panels(x.a.data(), s.k, x.b_i8.data(), s.k, x.panels_i8.data(), x.scale.data(),
                                             x.bias.data(), x.c.data(), s.n, s.m, s.n, s.k); }},
          {"i8i8", [&] { t.gemm_i8i8_nt(x.a.data(), s.k, x.b_i8.data(), s.k, x.quads.data(), x.sums.data(),
                                        x.scale.data(), x.bias.data(), x.c.data(), s.n, s.m, s.n, s.k); }}};
      for (const auto& [name, call] : kernels) {
        std::printf("%s\n  {\"kernel\": \"%s\", \"m\": %d, \"n\": %d, \"k\": %d, \"gflops\": %.2f}", separator, name, s.m,
                    s.n, s.k, rate(s, ms, call));
        separator = ",";
        std::fflush(stdout);
      }
    }
  }
  std::printf("\n]}\n");
}

}  // namespace
}  // namespace attend::kernels

int main(int argc, char** argv) {
  double ms = 50.0;
  bool u8s8 = false;
  for (int i = 1; i < argc; ++i) {
    if (std::strcmp(argv[i], "--ms") == 0 && i + 1 < argc) ms = std::atof(argv[++i]);
    if (std::strcmp(argv[i], "--u8s8") == 0) u8s8 = true;
  }
  if (u8s8) {
    attend::kernels::run_u8s8(ms);
  } else {
    attend::kernels::run(ms);
  }
  return 0;
}
