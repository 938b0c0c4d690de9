// gemm_u8s8_shifted_nt against intgemm's own shifted int8 GEMM (PrepareA = QuantizeU,
// PrepareBQuantizedTransposed, Multiply8Shift with UnquantizeAndAddBiasAndWrite): every table
// compiled in and runnable here, bit for bit. Natively against intgemm's SSSE3, AVX2 and
// AVX512BW kernels (and, to show it differs, AVX512VNNI's); under Emscripten against intgemm's
// SSSE3 kernel compiled through Emscripten's SSE emulation, which is what Bergamot's wasm
// fallback runs. Not part of ctest (it needs an intgemm checkout): compare_with_intgemm.sh.
// Prints one line per pair and exits non-zero if a table differs from a kernel it must match.
#include <cmath>
#include <cstdio>
#include <cstring>
#include <limits>
#include <random>
#include <vector>

#include "intgemm/aligned.h"
#include "intgemm/intgemm.h"
#include "intgemm/ssse3_gemm.h"
#ifndef __EMSCRIPTEN__
#include "intgemm/avx2_gemm.h"
#include "intgemm/avx512_gemm.h"
#include "intgemm/avx512vnni_gemm.h"
#endif
#include "kernels/kernels.h"

namespace {

using intgemm::AlignedVector;

struct Case {
  int m, n, k;
  float qa, unquant;
  AlignedVector<float> a;
  AlignedVector<int8_t> b;  // [n, k]
  std::vector<float> bias;
};

// Activations: a third quantizing near 254, ties, the whole range and past it, 3 % NaN, ±inf or
// beyond int32 once scaled; weights: a third of the pairs both near +127 or both near -127.
Case make_case(std::mt19937& rng, int trial, int k_unit) {
  std::uniform_real_distribution<float> uniform(0.0f, 1.0f);
  const float nan = std::numeric_limits<float>::quiet_NaN(), inf = std::numeric_limits<float>::infinity();
  const float specials[] = {nan, inf, -inf, 3e9f, -3e9f, 1e38f};
  Case c{1 + trial % 9, 8 * (1 + trial % 5), k_unit * (1 + trial % 8), trial % 2 ? 8.0f : 127.0f / 2.7f, 0.0f,
         AlignedVector<float>(0), AlignedVector<int8_t>(0), {}};
  c.a = AlignedVector<float>(c.m * c.k);
  c.b = AlignedVector<int8_t>(c.n * c.k);
  for (float& x : c.a) {
    const float p = uniform(rng);
    if (p < 0.03f) {
      x = specials[static_cast<int>(uniform(rng) * 6) % 6];
    } else if (p < 0.4f) {
      x = (118.0f + 80.0f * uniform(rng)) / c.qa;
    } else if (p < 0.55f) {
      x = (std::floor(-130.0f + 260.0f * uniform(rng)) + 0.5f) / c.qa;
    } else {
      x = (-140.0f + 280.0f * uniform(rng)) / c.qa;
    }
  }
  for (int i = 0; i < c.n * c.k; i += 2) {
    if (uniform(rng) < 0.35f) {
      const int sign = uniform(rng) < 0.5f ? -1 : 1;
      c.b[i] = static_cast<int8_t>(sign * (127 - static_cast<int>(uniform(rng) * 6)));
      c.b[i + 1] = static_cast<int8_t>(sign * (127 - static_cast<int>(uniform(rng) * 6)));
    } else {
      c.b[i] = static_cast<int8_t>(std::lround(-127.0f + 254.0f * uniform(rng)));
      c.b[i + 1] = static_cast<int8_t>(std::lround(-127.0f + 254.0f * uniform(rng)));
    }
  }
  c.bias.resize(c.n);
  for (float& x : c.bias) x = -2.0f + 4.0f * uniform(rng);
  c.unquant = 1e-5f + uniform(rng) * 1e-3f;
  return c;
}

template <class Kernels>
std::vector<float> run_intgemm(const Case& c) {
  AlignedVector<uint8_t> ua(c.m * c.k);
  AlignedVector<int8_t> prepared(c.n * c.k);
  Kernels::PrepareA(c.a.begin(), ua.begin(), c.qa, c.m, c.k);
  Kernels::PrepareBQuantizedTransposed(c.b.begin(), prepared.begin(), c.k, c.n);
  AlignedVector<float> out(c.m * c.n);
  Kernels::Multiply8Shift(ua.begin(), prepared.begin(), c.m, c.k, c.n,
                          intgemm::callbacks::UnquantizeAndAddBiasAndWrite(c.unquant, c.bias.data(), out.begin()));
  return std::vector<float>(out.begin(), out.end());
}

struct Reference {
  const char* name;
  std::vector<float> (*run)(const Case&);
  bool must_match;  // VNNI's vpdpbusds does not saturate pairs: expected to differ
};

}  // namespace

int main() {
  using namespace attend::kernels;
  const Reference references[] = {
      {"SSSE3", run_intgemm<intgemm::SSSE3::Kernels8>, true},
#ifndef __EMSCRIPTEN__
      {"AVX2", run_intgemm<intgemm::AVX2::Kernels8>, true},
      {"AVX512BW", run_intgemm<intgemm::AVX512BW::Kernels8>, true},
      {"AVX512VNNI", run_intgemm<intgemm::AVX512VNNI::Kernels8>, false},
#endif
  };
  constexpr int kReferences = sizeof references / sizeof references[0];
  constexpr int kTrials = 300;
  const std::vector<Isa> isas = available_isas();
  std::vector<std::vector<int>> differ(isas.size(), std::vector<int>(kReferences, 0));
  std::mt19937 rng(1234);
  for (int trial = 0; trial < kTrials; ++trial) {
    // intgemm wants k a multiple of its widest register's bytes (64 natively, 16 for SSSE3 alone).
#ifdef __EMSCRIPTEN__
    const Case c = make_case(rng, trial, 16);
#else
    const Case c = make_case(rng, trial, 64);
#endif
    std::vector<std::vector<float>> want;
    for (const Reference& r : references) want.push_back(r.run(c));
    for (std::size_t t = 0; t < isas.size(); ++t) {
      std::vector<float> got(c.m * c.n);
      kernels_for(isas[t])->gemm_u8s8_shifted_nt(c.a.begin(), c.k, c.qa, c.b.begin(), c.k, c.unquant, c.bias.data(),
                                                 got.data(), c.n, c.m, c.n, c.k);
      for (int r = 0; r < kReferences; ++r) {
        differ[t][r] += std::memcmp(got.data(), want[r].data(), got.size() * sizeof(float)) != 0;
      }
    }
  }
  int failures = 0;
  for (std::size_t t = 0; t < isas.size(); ++t) {
    for (int r = 0; r < kReferences; ++r) {
      const bool bad = references[r].must_match ? differ[t][r] != 0 : differ[t][r] == 0;
      std::printf("%s attend %-12s vs intgemm %-10s: %3d of %d cases differ%s\n", bad ? "FAIL" : "ok  ",
                  isa_name(isas[t]), references[r].name, differ[t][r], kTrials,
                  references[r].must_match ? "" : " (expected: no pair saturation)");
      failures += bad;
    }
  }
  return failures == 0 ? 0 : 1;
}
