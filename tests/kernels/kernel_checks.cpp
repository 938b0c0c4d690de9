#include "kernel_checks.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <random>
#include <sstream>

#include "tolerance.h"

namespace attend::kernels::testing {

namespace {

// `count` values starting `offset` elements into their storage (so a misaligned start is
// one element past an aligned one), followed by guard values that no kernel may touch.
template <class T>
class Buffer {
 public:
  static constexpr std::size_t kGuard = 64;

  Buffer(std::size_t count, bool misaligned)
      : offset_(misaligned ? 1 : 0), count_(count), storage_(offset_ + count + kGuard, guard()) {}

  T* data() { return storage_.data() + offset_; }
  const T* data() const { return storage_.data() + offset_; }
  T& operator[](std::size_t i) { return data()[i]; }
  const T& operator[](std::size_t i) const { return data()[i]; }
  std::size_t size() const { return count_; }

  bool guard_intact() const {
    for (std::size_t i = offset_ + count_; i < storage_.size(); ++i) {
      if (storage_[i] != guard()) return false;
    }
    return offset_ == 0 || storage_[0] == guard();
  }

 private:
  static T guard() { return static_cast<T>(77); }

  std::size_t offset_;
  std::size_t count_;
  std::vector<T> storage_;
};

// Deterministic inputs: the seed is derived from the case, so a failure reproduces alone.
class Random {
 public:
  explicit Random(unsigned seed) : engine_(seed) {}
  float uniform(float lo, float hi) {
    return std::uniform_real_distribution<float>(lo, hi)(engine_);
  }
  template <class T>
  void fill(Buffer<T>& buffer, float lo, float hi) {
    for (std::size_t i = 0; i < buffer.size(); ++i) buffer[i] = static_cast<T>(uniform(lo, hi));
  }

 private:
  std::mt19937 engine_;
};

// In unsigned arithmetic, which wraps (k = 2048 would overflow an int).
unsigned seed_of(const GemmCase& g) {
  return static_cast<unsigned>(g.m) * 7919u + static_cast<unsigned>(g.n) * 104729u +
         static_cast<unsigned>(g.k) * 1299709u + static_cast<unsigned>(g.pad) * 31u + g.misaligned * 2u +
         g.accumulate * 3u + g.bias * 5u;
}

bool within(float got, float want, float scale, Tolerance tol) {
  if (std::isnan(want)) return std::isnan(got);
  return std::fabs(got - want) <= tol.abs + tol.rel * scale;  // false for a NaN got
}

template <class T>
Buffer<T> absolute(const Buffer<T>& x, bool misaligned) {
  Buffer<T> out(x.size(), misaligned);
  for (std::size_t i = 0; i < x.size(); ++i) out[i] = x[i] < 0 ? static_cast<T>(-x[i]) : x[i];
  return out;
}

std::string mismatch(const std::string& what, std::size_t index, float got, float want) {
  std::ostringstream out;
  out.precision(9);
  out << what << ": at " << index << " got " << got << ", want " << want;
  return out.str();
}

// Which result a GEMM run computes: the reference, the tested table, or the reference on
// |operands| (the magnitude the tolerance is relative to).
enum class Run { reference, tested, magnitude };

// Runs `call` three ways on copies of one random c and compares inside the m×n window with
// the tolerance; outside it (row padding, guards) nothing may change.
template <class Call>
std::string compare_gemm(const GemmCase& g, Tolerance tol, const char* name, Call&& call) {
  const int ldc = g.n + g.pad;
  const std::size_t size = static_cast<std::size_t>(g.m) * ldc;
  Buffer<float> want(size, g.misaligned);
  Random(seed_of(g) + 1).fill(want, -1.0f, 1.0f);
  Buffer<float> got = want;
  Buffer<float> magnitude = absolute(want, g.misaligned);
  call(Run::reference, want.data(), ldc);
  call(Run::tested, got.data(), ldc);
  call(Run::magnitude, magnitude.data(), ldc);
  const std::string what = std::string(name) + " " + describe(g);
  for (int i = 0; i < g.m; ++i) {
    for (int j = 0; j < ldc; ++j) {
      const std::size_t at = static_cast<std::size_t>(i) * ldc + j;
      const bool inside = j < g.n;
      if (inside ? !within(got[at], want[at], magnitude[at], tol) : got[at] != want[at]) {
        return mismatch(what + " (row " + std::to_string(i) + ", col " + std::to_string(j) + ")",
                        at, got[at], want[at]);
      }
    }
  }
  if (!got.guard_intact()) return what + ": wrote past the end of c";
  return "";
}

// b[n, k] as the panels table t reads (empty when t reads none).
template <class T>
std::vector<T> panels_of(const KernelTable& t, const T* b, int ldb, const GemmCase& g) {
  std::vector<T> panels(panels_size(g.n, g.k, t.panel_columns));
  if (!panels.empty()) pack_panels(b, ldb, g.n, g.k, t.panel_columns, panels.data());
  return panels;
}

// compare_gemm of an _nt GEMM as is, then (for a table that reads panels) of its _panels
// variant given b also packed: call(run, c, ldc, packed).
template <class Call>
std::string compare_gemm_with_panels(const KernelTable& t, const GemmCase& g, Tolerance tol, const std::string& name,
                                     Call&& call) {
  std::string failure = compare_gemm(g, tol, name.c_str(), [&](Run run, float* c, int ldc) { call(run, c, ldc, false); });
  if (!failure.empty() || t.panel_columns == 0) return failure;
  return compare_gemm(g, tol, (name + "_panels").c_str(), [&](Run run, float* c, int ldc) { call(run, c, ldc, true); });
}

// Compares n values elementwise, tolerance relative to |want|.
std::string compare_values(const Buffer<float>& got, const Buffer<float>& want, Tolerance tol,
                           const std::string& what) {
  for (std::size_t i = 0; i < want.size(); ++i) {
    if (!within(got[i], want[i], std::fabs(want[i]), tol)) return mismatch(what, i, got[i], want[i]);
  }
  if (!got.guard_intact()) return what + ": wrote past the end";
  return "";
}

std::string row_context(const char* name, int n, bool misaligned) {
  return std::string(name) + " n=" + std::to_string(n) + (misaligned ? " misaligned" : "");
}

// Cases i = 0, 1, 2, … cycle through every combination of the variants.
GemmCase with_variant(int m, int n, int k, int i) {
  return GemmCase{m, n, k, (i & 8) ? 3 : 0, (i & 1) != 0, (i & 2) != 0, (i & 4) != 0};
}

template <class Check>
std::string first_failure(const std::vector<GemmCase>& cases, Check&& check) {
  for (const GemmCase& g : cases) {
    std::string failure = check(g);
    if (!failure.empty()) return failure;
  }
  return "";
}

}  // namespace

std::string describe(const GemmCase& g) {
  std::ostringstream out;
  out << "m=" << g.m << " n=" << g.n << " k=" << g.k << " pad=" << g.pad
      << (g.misaligned ? " misaligned" : "") << (g.accumulate ? " accumulate" : "")
      << (g.bias ? " bias" : "");
  return out.str();
}

std::string check_gemm_f32_nt(const KernelTable& ref, const KernelTable& t, const GemmCase& g) {
  const int ld = g.k + g.pad;
  Buffer<float> a(static_cast<std::size_t>(g.m) * ld, g.misaligned);
  Buffer<float> b(static_cast<std::size_t>(g.n) * ld, g.misaligned);
  Buffer<float> bias(g.n, g.misaligned);
  Random random(seed_of(g));
  random.fill(a, -1.0f, 1.0f);
  random.fill(b, -1.0f, 1.0f);
  random.fill(bias, -1.0f, 1.0f);
  const Buffer<float> a_abs = absolute(a, g.misaligned);
  const Buffer<float> b_abs = absolute(b, g.misaligned);
  const Buffer<float> bias_abs = absolute(bias, g.misaligned);
  const std::vector<float> panels = panels_of(t, b.data(), ld, g);
  return compare_gemm_with_panels(t, g, kGemmF32, "gemm_f32_nt", [&](Run run, float* c, int ldc, bool packed) {
    const bool mag = run == Run::magnitude;
    const float* a_used = mag ? a_abs.data() : a.data();
    const float* b_used = mag ? b_abs.data() : b.data();
    const float* bias_used = g.bias ? (mag ? bias_abs.data() : bias.data()) : nullptr;
    if (packed && run == Run::tested) {
      t.gemm_f32_nt_panels(a_used, ld, b_used, ld, panels.data(), bias_used, c, ldc, g.m, g.n, g.k, g.accumulate);
    } else {
      (run == Run::tested ? t : ref).gemm_f32_nt(a_used, ld, b_used, ld, bias_used, c, ldc, g.m, g.n, g.k,
                                                 g.accumulate);
    }
  });
}

std::string check_gemm_f32_nn(const KernelTable& ref, const KernelTable& t, const GemmCase& g) {
  const int lda = g.k + g.pad;
  const int ldb = g.n + g.pad;
  Buffer<float> a(static_cast<std::size_t>(g.m) * lda, g.misaligned);
  Buffer<float> b(static_cast<std::size_t>(g.k) * ldb, g.misaligned);
  Random random(seed_of(g));
  random.fill(a, -1.0f, 1.0f);
  random.fill(b, -1.0f, 1.0f);
  const Buffer<float> a_abs = absolute(a, g.misaligned);
  const Buffer<float> b_abs = absolute(b, g.misaligned);
  return compare_gemm(g, kGemmF32, "gemm_f32_nn", [&](Run run, float* c, int ldc) {
    const bool mag = run == Run::magnitude;
    (run == Run::tested ? t : ref)
        .gemm_f32_nn(mag ? a_abs.data() : a.data(), lda, mag ? b_abs.data() : b.data(), ldb, c,
                     ldc, g.m, g.n, g.k, g.accumulate);
  });
}

namespace {

// Random operands of an int8-weight GEMM case: a in [−1, 1], b in [−127, 127], per-row scales.
struct Int8WeightOperands {
  explicit Int8WeightOperands(const GemmCase& g)
      : ld(g.k + g.pad),
        a(static_cast<std::size_t>(g.m) * ld, g.misaligned),
        b(static_cast<std::size_t>(g.n) * ld, g.misaligned),
        scale(g.n, g.misaligned),
        bias(g.n, g.misaligned) {
    Random random(seed_of(g));
    random.fill(a, -1.0f, 1.0f);
    random.fill(b, -127.0f, 127.0f);
    random.fill(scale, 0.001f, 0.02f);
    random.fill(bias, -1.0f, 1.0f);
  }

  int ld;
  Buffer<float> a;
  Buffer<int8_t> b;
  Buffer<float> scale;
  Buffer<float> bias;
};

}  // namespace

std::string check_gemm_i8w_nt(const KernelTable& ref, const KernelTable& t, const GemmCase& g) {
  const Int8WeightOperands x(g);
  const int ld = x.ld;
  const Buffer<float> a_abs = absolute(x.a, g.misaligned);
  const Buffer<int8_t> b_abs = absolute(x.b, g.misaligned);
  const Buffer<float> bias_abs = absolute(x.bias, g.misaligned);
  const std::vector<int8_t> panels = panels_of(t, x.b.data(), ld, g);
  return compare_gemm_with_panels(t, g, kGemmI8W, "gemm_i8w_nt", [&](Run run, float* c, int ldc, bool packed) {
    const bool mag = run == Run::magnitude;
    const float* a_used = mag ? a_abs.data() : x.a.data();
    const int8_t* b_used = mag ? b_abs.data() : x.b.data();
    const float* bias_used = g.bias ? (mag ? bias_abs.data() : x.bias.data()) : nullptr;
    if (packed && run == Run::tested) {
      t.gemm_i8w_nt_panels(a_used, ld, b_used, ld, panels.data(), x.scale.data(), bias_used, c, ldc, g.m, g.n, g.k);
    } else {
      (run == Run::tested ? t : ref).gemm_i8w_nt(a_used, ld, b_used, ld, x.scale.data(), bias_used, c, ldc, g.m,
                                                 g.n, g.k);
    }
  });
}

// Exact: both sides sum the same integers and scale them in the same order. Row 0 is zeros,
// row 1 has one value 100 times the rest (the row's scale then rounds the others coarsely) and
// row 2 a NaN (the oracle's max skips it and its clamp makes it 127).
std::string check_gemm_i8i8_nt(const KernelTable& ref, const KernelTable& t, const GemmCase& g) {
  if (t.gemm_i8i8_nt == nullptr) return "";
  Int8WeightOperands x(g);
  for (int p = 0; p < g.k; ++p) {
    if (g.m > 0) x.a[p] = 0.0f;
    if (g.m > 1 && p == g.k / 2) x.a[x.ld + p] = -100.0f;
    if (g.m > 2 && p == g.k - 1) x.a[2 * x.ld + p] = std::numeric_limits<float>::quiet_NaN();
  }
  std::vector<int8_t> quads(quad_panels_size(g.n, g.k));
  std::vector<int32_t> sums(column_sums_size(g.n));
  if (!quads.empty()) pack_quad_panels(x.b.data(), x.ld, g.n, g.k, quads.data());
  if (!sums.empty()) sum_columns(x.b.data(), x.ld, g.n, g.k, sums.data());
  return compare_gemm(g, Tolerance{0.0f, 0.0f}, "gemm_i8i8_nt", [&](Run run, float* c, int ldc) {
    (run == Run::tested ? t : ref).gemm_i8i8_nt(x.a.data(), x.ld, x.b.data(), x.ld, quads.data(), sums.data(),
                                                x.scale.data(), g.bias ? x.bias.data() : nullptr, c, ldc, g.m, g.n, g.k);
  });
}

namespace {

// gemm_u8s8_shifted_nt's inputs, by kind: mixed (activations across the whole int8 range and past
// it, ties, a few values cvtps2dq cannot convert; a third of the pairs of b large and of one
// sign), saturating (most activations quantize near 254 and most pairs of b are near ±127, so
// most pairs saturate) or special (a third of the activations NaN, ±inf or outside int32 once
// scaled, among them ±2^31 exactly).
enum class ShiftedKind { mixed, saturating, special };

const char* shifted_kind_name(ShiftedKind kind) {
  switch (kind) {
    case ShiftedKind::mixed: return "mixed";
    case ShiftedKind::saturating: return "saturating";
    case ShiftedKind::special: return "special";
  }
  return "?";
}

// An activation, mostly as u / qa for u in quantized units: qa is a power of two or not, so
// that a·qa is u exactly (ties to even are exercised) or rounds first.
float shifted_activation(Random& random, float qa, ShiftedKind kind) {
  static const float specials[] = {std::numeric_limits<float>::quiet_NaN(),
                                   std::numeric_limits<float>::infinity(),
                                   -std::numeric_limits<float>::infinity(),
                                   3e9f,
                                   -3e9f,
                                   1e38f,
                                   -1e38f};
  const float pick = random.uniform(0.0f, 1.0f);
  const float special_share = kind == ShiftedKind::special ? 0.35f : 0.03f;
  if (pick < special_share) {
    const int which = std::min(9, static_cast<int>(random.uniform(0.0f, 10.0f)));
    if (which < 7) return specials[which];
    // a·qa = 2^31 exactly (out of range: 0), -2^31 (in range: clamped to -127, so 0) or the
    // largest float below 2^31 (254), for a power-of-two qa.
    const float u = which == 7 ? 2147483648.0f : which == 8 ? -2147483648.0f : 2147483520.0f;
    return u / qa;
  }
  const float high_share = kind == ShiftedKind::saturating ? 0.9f : 0.35f;
  if (pick < special_share + high_share) return random.uniform(118.0f, 200.0f) / qa;  // ua 245..254
  if (pick < special_share + high_share + 0.15f) {                                      // ties
    return (std::floor(random.uniform(-130.0f, 130.0f)) + 0.5f) / qa;
  }
  return random.uniform(-140.0f, 140.0f) / qa;
}

struct ShiftedOperands {
  ShiftedOperands(const GemmCase& g, ShiftedKind kind, bool power_of_two)
      : ld(g.k + g.pad),
        qa(power_of_two ? 8.0f : 127.0f / 3.3f),
        a(static_cast<std::size_t>(g.m) * ld, g.misaligned),
        b(static_cast<std::size_t>(g.n) * ld, g.misaligned),
        bias(g.n, g.misaligned) {
    Random random(seed_of(g) + 17 * static_cast<unsigned>(kind) + power_of_two);
    for (std::size_t i = 0; i < a.size(); ++i) a[i] = shifted_activation(random, qa, kind);
    const float large_share = kind == ShiftedKind::saturating ? 0.9f : 0.33f;
    for (int j = 0; j < g.n; ++j) {
      for (int p = 0; p < g.k; p += 2) {
        int8_t* pair = b.data() + static_cast<std::size_t>(j) * ld + p;
        const int count = std::min(2, g.k - p);
        if (random.uniform(0.0f, 1.0f) < large_share) {  // both near +127 or both near -127
          const int sign = random.uniform(0.0f, 1.0f) < 0.5f ? -1 : 1;
          for (int e = 0; e < count; ++e) pair[e] = static_cast<int8_t>(sign * (127 - static_cast<int>(random.uniform(0.0f, 6.0f))));
        } else {
          for (int e = 0; e < count; ++e) {
            // Now and then -128, which intgemm never makes but the kernel takes.
            pair[e] = random.uniform(0.0f, 1.0f) < 0.01f ? int8_t{-128}
                                                         : static_cast<int8_t>(std::lround(random.uniform(-127.0f, 127.0f)));
          }
        }
      }
    }
    random.fill(bias, -2.0f, 2.0f);
    unquant = random.uniform(1e-5f, 1e-3f);
  }

  int ld;
  float qa;
  float unquant = 0.0f;
  Buffer<float> a;
  Buffer<int8_t> b;
  Buffer<float> bias;
};

}  // namespace

std::string check_gemm_u8s8_shifted_nt(const KernelTable& ref, const KernelTable& t, const GemmCase& g) {
  if (t.gemm_u8s8_shifted_nt == nullptr) return "";
  for (ShiftedKind kind : {ShiftedKind::mixed, ShiftedKind::saturating, ShiftedKind::special}) {
    for (bool power_of_two : {true, false}) {
      const ShiftedOperands x(g, kind, power_of_two);
      const int ldc = g.n + g.pad;
      Buffer<float> want(static_cast<std::size_t>(g.m) * ldc, g.misaligned);
      Random(seed_of(g) + 1).fill(want, -1.0f, 1.0f);
      Buffer<float> got = want;
      ref.gemm_u8s8_shifted_nt(x.a.data(), x.ld, x.qa, x.b.data(), x.ld, x.unquant, x.bias.data(), want.data(), ldc,
                               g.m, g.n, g.k);
      t.gemm_u8s8_shifted_nt(x.a.data(), x.ld, x.qa, x.b.data(), x.ld, x.unquant, x.bias.data(), got.data(), ldc,
                             g.m, g.n, g.k);
      const std::string what = std::string("gemm_u8s8_shifted_nt ") + describe(g) + " " + shifted_kind_name(kind) +
                               (power_of_two ? " qa=8" : " qa=127/3.3");
      // Bit for bit inside the m×n window (the padding of c untouched too).
      for (std::size_t at = 0; at < want.size(); ++at) {
        if (std::memcmp(&got[at], &want[at], sizeof(float)) != 0) {
          return mismatch(what + " (row " + std::to_string(at / ldc) + ", col " + std::to_string(at % ldc) + ")", at,
                          got[at], want[at]);
        }
      }
      if (!got.guard_intact()) return what + ": wrote past the end of c";
    }
  }
  return "";
}

std::vector<GemmCase> gemm_shifted_sweep() {
  std::vector<GemmCase> cases;
  int i = 0;
  // Every m to 17 against column counts on both sides of the tiles' 4 and 8, even k to 80.
  for (int m = 1; m <= 17; ++m) {
    for (int n : {1, 3, 4, 5, 8, 9, 13}) cases.push_back(with_variant(m, n, 2 + 2 * ((m * 7 + n) % 40), i++));
  }
  // Every k to 70 (odd ones too), then every even k to 512 (the registers' 16, 32 and 64 bytes,
  // and the partial last k-steps).
  for (int k = 0; k <= 70; ++k) cases.push_back(with_variant(1 + k % 17, 1 + (k * 5) % 19, k, i++));
  for (int k = 72; k <= 512; k += 2) cases.push_back(with_variant(1 + k % 17, 1 + (k * 3) % 37, k, i++));
  // The models' shapes: decode and batched, d_model 512, FFN 2048.
  const int shapes[][3] = {{1, 512, 512}, {2, 512, 512}, {64, 512, 512}, {5, 2048, 512}, {3, 512, 2048}};
  for (const auto& s : shapes) cases.push_back(with_variant(s[0], s[1], s[2], i++));
  return cases;
}

namespace {

// A row of n logits in [−spread, spread]; masked sets every third to −∞ (as attention masks do).
Buffer<float> logits_row(int n, bool misaligned, float spread, bool masked) {
  Buffer<float> x(n, misaligned);
  Random(static_cast<unsigned>(n * 3 + misaligned)).fill(x, -spread, spread);
  if (masked) {
    for (int i = 2; i < n; i += 3) x[i] = -std::numeric_limits<float>::infinity();
  }
  return x;
}

std::string logits_context(const char* name, int n, bool misaligned, float spread, bool masked) {
  return row_context(name, n, misaligned) + " spread=" + std::to_string(spread) + (masked ? " masked" : "");
}

}  // namespace

std::string check_softmax(const KernelTable& ref, const KernelTable& t, int n, bool misaligned,
                          float spread, bool masked) {
  Buffer<float> want = logits_row(n, misaligned, spread, masked);
  Buffer<float> got = want;
  ref.softmax_f32(want.data(), n);
  t.softmax_f32(got.data(), n);
  return compare_values(got, want, kSoftmax, logits_context("softmax_f32", n, misaligned, spread, masked));
}

std::string check_sum_exp(const KernelTable& ref, const KernelTable& t, int n, bool misaligned, float spread,
                          bool masked) {
  const Buffer<float> x = logits_row(n, misaligned, spread, masked);
  float max = -std::numeric_limits<float>::infinity();
  for (int i = 0; i < n; ++i) max = std::max(max, x[i]);
  const float want = ref.sum_exp_f32(x.data(), n, max);
  const float got = t.sum_exp_f32(x.data(), n, max);
  return within(got, want, want, kSoftmax)
             ? ""
             : mismatch(logits_context("sum_exp_f32", n, misaligned, spread, masked), 0, got, want);
}

std::string check_layernorm(const KernelTable& ref, const KernelTable& t, int n, bool misaligned) {
  Buffer<float> x(n, misaligned);
  Buffer<float> gamma(n, misaligned);
  Buffer<float> beta(n, misaligned);
  Random random(static_cast<unsigned>(n * 5 + misaligned));
  random.fill(x, 1.0f, 5.0f);  // mean far from 0, as after a residual add
  random.fill(gamma, 0.5f, 1.5f);
  random.fill(beta, -0.5f, 0.5f);
  Buffer<float> want(n, misaligned);
  ref.layernorm_f32(x.data(), gamma.data(), beta.data(), want.data(), n, 1e-5f);
  // Odd lengths run in place (y == x), which callers may do.
  const bool in_place = n % 2 == 1;
  Buffer<float> got = in_place ? x : Buffer<float>(n, misaligned);
  t.layernorm_f32(in_place ? got.data() : x.data(), gamma.data(), beta.data(), got.data(), n,
                  1e-5f);
  return compare_values(got, want, kLayernorm,
                        row_context("layernorm_f32", n, misaligned) + (in_place ? " in place" : ""));
}

const char* activation_name(Activation a) {
  switch (a) {
    case Activation::relu: return "relu_f32";
    case Activation::gelu: return "gelu_f32";
    case Activation::swish: return "swish_f32";
  }
  return "unknown";
}

std::string check_activation(const KernelTable& ref, const KernelTable& t, Activation a, int n,
                             bool misaligned) {
  const bool dense = n < 0;
  const int count = dense ? 4001 : n;
  Buffer<float> want(count, misaligned);
  if (dense) {
    for (int i = 0; i < count; ++i) want[i] = -20.0f + 40.0f * static_cast<float>(i) / (count - 1);
  } else {
    Random(static_cast<unsigned>(n * 11 + misaligned)).fill(want, -8.0f, 8.0f);
  }
  Buffer<float> got = want;
  void (*const kernels[])(float*, int) = {ref.relu_f32, ref.gelu_f32, ref.swish_f32,
                                          t.relu_f32,   t.gelu_f32,   t.swish_f32};
  const int which = static_cast<int>(a);
  kernels[which](want.data(), count);
  kernels[3 + which](got.data(), count);
  return compare_values(got, want, kActivation,
                        row_context(activation_name(a), count, misaligned) + (dense ? " dense" : ""));
}

std::string check_add(const KernelTable& ref, const KernelTable& t, int n, bool misaligned) {
  Buffer<float> x(n, misaligned);
  Buffer<float> want(n, misaligned);
  Random random(static_cast<unsigned>(n * 13 + misaligned));
  random.fill(x, -1.0f, 1.0f);
  random.fill(want, -1.0f, 1.0f);
  Buffer<float> got = want;
  ref.add_f32(want.data(), x.data(), n);
  t.add_f32(got.data(), x.data(), n);
  return compare_values(got, want, kArithmetic, row_context("add_f32", n, misaligned));
}

std::string check_scale_add(const KernelTable& ref, const KernelTable& t, int n, bool misaligned) {
  Buffer<float> x(n, misaligned);
  Buffer<float> want(n, misaligned);
  Random random(static_cast<unsigned>(n * 17 + misaligned));
  random.fill(x, -1.0f, 1.0f);
  random.fill(want, -1.0f, 1.0f);
  Buffer<float> got = want;
  // √128 embedding scale plus positions; the products are of one sign, so no cancellation
  // can make the one-rounding difference of an FMA look large.
  const float alpha = 11.3137085f;
  ref.scale_add_f32(want.data(), alpha, x.data(), 1.0f, n);
  t.scale_add_f32(got.data(), alpha, x.data(), 1.0f, n);
  // Relative to the magnitude |y·alpha| + |x·beta| ≤ alpha + 1, written into the tolerance.
  const Tolerance tol{kArithmetic.abs + kArithmetic.rel * (alpha + 1.0f), kArithmetic.rel};
  return compare_values(got, want, tol, row_context("scale_add_f32", n, misaligned));
}

std::vector<GemmCase> gemm_sweep(int lanes) {
  const int top = 2 * lanes + 3;
  std::vector<GemmCase> cases;
  int i = 0;
  for (int m = 0; m <= std::max(top, 27); ++m) cases.push_back(with_variant(m, lanes + 3, lanes + 1, i++));
  for (int n = 0; n <= top; ++n) {
    for (int m : {1, 3, 7}) cases.push_back(with_variant(m, n, lanes + 2, i++));
  }
  for (int k = 0; k <= top; ++k) {
    for (int m : {2, 9}) cases.push_back(with_variant(m, 2 * lanes + 1, k, i++));
  }
  const int edges[] = {0, 1, 3, lanes, lanes + 1, top};
  for (int m : edges) {
    for (int n : edges) {
      for (int k : edges) cases.push_back(with_variant(m, n, k, i++));
    }
  }
  return cases;
}

std::vector<GemmCase> gemm_model_shapes_nt() {
  const int shapes[][3] = {{1, 8000, 128},  {1, 512, 128},   {1, 128, 512},  {1, 384, 128},
                           {4, 8000, 128},  {5, 256, 256},   {32, 512, 128}, {32, 128, 512},
                           {32, 8000, 128}, {448, 384, 128}, {448, 128, 512}};
  std::vector<GemmCase> cases;
  int i = 0;
  for (const auto& s : shapes) cases.push_back(with_variant(s[0], s[1], s[2], i++));
  return cases;
}

std::vector<GemmCase> gemm_model_shapes_nn() {
  const int shapes[][3] = {{1, 32, 200},  {1, 32, 1},   {20, 32, 20},
                           {200, 32, 200}, {448, 32, 448}, {32, 128, 512}};
  std::vector<GemmCase> cases;
  int i = 0;
  for (const auto& s : shapes) cases.push_back(with_variant(s[0], s[1], s[2], i++));
  return cases;
}

std::vector<int> length_sweep(int lanes) {
  std::vector<int> lengths;
  for (int n = 0; n <= 2 * lanes + 3; ++n) lengths.push_back(n);
  for (int n : {128, 200, 256, 512, 8000}) lengths.push_back(n);
  return lengths;
}

std::string sweep_gemm_f32_nt(const KernelTable& ref, const KernelTable& t, int lanes) {
  return first_failure(gemm_sweep(lanes), [&](const GemmCase& g) { return check_gemm_f32_nt(ref, t, g); });
}

std::string sweep_gemm_f32_nn(const KernelTable& ref, const KernelTable& t, int lanes) {
  return first_failure(gemm_sweep(lanes), [&](const GemmCase& g) { return check_gemm_f32_nn(ref, t, g); });
}

std::string sweep_gemm_i8w_nt(const KernelTable& ref, const KernelTable& t, int lanes) {
  return first_failure(gemm_sweep(lanes), [&](const GemmCase& g) { return check_gemm_i8w_nt(ref, t, g); });
}

std::string sweep_gemm_i8i8_nt(const KernelTable& ref, const KernelTable& t, int lanes) {
  return first_failure(gemm_sweep(lanes), [&](const GemmCase& g) { return check_gemm_i8i8_nt(ref, t, g); });
}

std::string sweep_gemm_u8s8_shifted_nt(const KernelTable& ref, const KernelTable& t, int lanes) {
  const auto check = [&](const GemmCase& g) { return check_gemm_u8s8_shifted_nt(ref, t, g); };
  const std::string failure = first_failure(gemm_shifted_sweep(), check);
  return failure.empty() ? first_failure(gemm_sweep(lanes), check) : failure;
}

std::string sweep_gemm_model_shapes(const KernelTable& ref, const KernelTable& t, int) {
  std::string failure = first_failure(gemm_model_shapes_nt(), [&](const GemmCase& g) {
    std::string f = check_gemm_f32_nt(ref, t, g);
    if (f.empty()) f = check_gemm_i8w_nt(ref, t, g);
    return f.empty() ? check_gemm_i8i8_nt(ref, t, g) : f;
  });
  if (!failure.empty()) return failure;
  return first_failure(gemm_model_shapes_nn(), [&](const GemmCase& g) { return check_gemm_f32_nn(ref, t, g); });
}

std::string sweep_gemm_reads_panels(const KernelTable& ref, const KernelTable& t, int) {
  if (t.panel_columns == 0) return "";
  for (int m : {16, 32}) {
    const int n = 37, k = 20;
    std::vector<float> a(m * k), w(n * k), zero_w(n * k, 0.0f), want(m * n), got(m * n);
    std::vector<int8_t> q(n * k), zero_q(n * k, 0);
    const std::vector<float> scale(n, 0.5f);
    for (int i = 0; i < m * k; ++i) a[i] = static_cast<float>(i % 7) - 3.0f;
    for (int i = 0; i < n * k; ++i) {
      q[i] = static_cast<int8_t>(i % 11 - 5);
      w[i] = q[i] * 0.5f;
    }
    std::vector<float> panels(panels_size(n, k, t.panel_columns));
    std::vector<int8_t> q_panels(panels.size());
    pack_panels(w.data(), k, n, k, t.panel_columns, panels.data());
    pack_panels(q.data(), k, n, k, t.panel_columns, q_panels.data());
    ref.gemm_f32_nt(a.data(), k, w.data(), k, nullptr, want.data(), n, m, n, k, false);
    // Small integers: exact in any order of summation.
    t.gemm_f32_nt_panels(a.data(), k, zero_w.data(), k, panels.data(), nullptr, got.data(), n, m, n, k, false);
    if (got != want) return "gemm_f32_nt_panels m=" + std::to_string(m) + " did not compute from the panels";
    t.gemm_i8w_nt_panels(a.data(), k, zero_q.data(), k, q_panels.data(), scale.data(), nullptr, got.data(), n, m,
                         n, k);
    if (got != want) return "gemm_i8w_nt_panels m=" + std::to_string(m) + " did not compute from the panels";
  }
  return "";
}

std::string sweep_gemm_rows_as_alone(const KernelTable&, const KernelTable& t, int lanes) {
  // Attention's shapes: scores [rows, keys] = Q·Kᵀ over head_dim, then P·V [rows, head_dim] over keys,
  // Q, K, V rows strided inside wider rows as the decoder's are. Random values: their sums round,
  // so a different order of summation shows.
  const int head_dim = 32, ld = 3 * head_dim;
  for (int keys : {1, 3, 4, 5, lanes, 2 * lanes + 3, 40}) {
    for (int m = 2; m <= kRowsAsAlone; ++m) {
      Random random(static_cast<unsigned>(keys * 131 + m));
      Buffer<float> q(m * ld, false), kv(keys * ld, false), p(m * keys, false);
      random.fill(q, -1.f, 1.f);
      random.fill(kv, -1.f, 1.f);
      random.fill(p, 0.f, 1.f);
      std::vector<float> together(m * keys), alone(m * keys), out_together(m * head_dim), out_alone(m * head_dim);
      t.gemm_f32_nt(q.data(), ld, kv.data(), ld, nullptr, together.data(), keys, m, keys, head_dim, false);
      t.gemm_f32_nn(p.data(), keys, kv.data() + head_dim, ld, out_together.data(), head_dim, m, head_dim, keys, false);
      for (int r = 0; r < m; ++r) {
        t.gemm_f32_nt(q.data() + r * ld, ld, kv.data(), ld, nullptr, alone.data() + r * keys, keys, 1, keys, head_dim,
                      false);
        t.gemm_f32_nn(p.data() + r * keys, keys, kv.data() + head_dim, ld, out_alone.data() + r * head_dim, head_dim, 1,
                      head_dim, keys, false);
      }
      const std::string sizes = " m=" + std::to_string(m) + " keys=" + std::to_string(keys);
      if (std::memcmp(together.data(), alone.data(), together.size() * sizeof(float)) != 0) {
        return "gemm_f32_nt rows differ from the rows alone:" + sizes;
      }
      if (std::memcmp(out_together.data(), out_alone.data(), out_together.size() * sizeof(float)) != 0) {
        return "gemm_f32_nn rows differ from the rows alone:" + sizes;
      }
    }
  }
  return "";
}

// A layer's random inputs: activations a [rows, k] and weights w [n, k] in [-1, 1], the same
// weights' shape in int8 (q) with a scale and a bias per output.
struct RandomLayer {
  Buffer<float> a, w;
  std::vector<int8_t> q;
  std::vector<float> scale, bias;

  RandomLayer(int rows, int n, int k, unsigned seed) : a(rows * k, false), w(n * k, false), q(n * k), scale(n), bias(n) {
    Random random(seed);
    random.fill(a, -1.f, 1.f);
    random.fill(w, -1.f, 1.f);
    for (int i = 0; i < n * k; ++i) q[i] = static_cast<int8_t>(static_cast<int>(random.uniform(-127.f, 127.f)));
    for (int j = 0; j < n; ++j) {
      scale[j] = random.uniform(0.001f, 0.01f);
      bias[j] = random.uniform(-1.f, 1.f);
    }
  }
};

std::string sweep_gemm_row_blocks(const KernelTable&, const KernelTable& t, int) {
  // The output projection's use: rows of one activation matrix in calls cut by next_row_block,
  // against one call over all of them. Random values: their sums round.
  const int n = 100, k = 128;
  constexpr int kMaxRows = 43;
  const RandomLayer layer(kMaxRows, n, k, 4242);
  const Buffer<float>& a = layer.a;
  const Buffer<float>& w = layer.w;
  const std::vector<int8_t>& q = layer.q;
  const std::vector<float>& scale = layer.scale;
  const std::vector<float>& bias = layer.bias;
  const int columns = std::max(t.panel_columns, 1);
  std::vector<float> panels(panels_size(n, k, columns));
  std::vector<int8_t> q_panels(panels.size()), quads(quad_panels_size(n, k));
  std::vector<int32_t> sums(column_sums_size(n));
  pack_panels(w.data(), k, n, k, columns, panels.data());
  pack_panels(q.data(), k, n, k, columns, q_panels.data());
  pack_quad_panels(q.data(), k, n, k, quads.data());
  sum_columns(q.data(), k, n, k, sums.data());
  const float* f32_panels = t.panel_columns ? panels.data() : nullptr;
  const int8_t* i8_panels = t.panel_columns ? q_panels.data() : nullptr;
  // gemm(first, count, c): rows [first, first + count) into c [count, n].
  auto check = [&](const char* name, auto&& gemm) -> std::string {
    for (int m : {3, 13, 16, 17, 25, 28, 29, 40, kMaxRows}) {
      std::vector<float> whole(m * n), blocks(m * n);
      gemm(0, m, whole.data());
      for (int block : {kRowTile, 2 * kRowTile}) {
        for (int first = 0, count = 0; first < m; first += count) {
          count = next_row_block(m - first, block);
          gemm(first, count, blocks.data() + first * n);
        }
        if (std::memcmp(whole.data(), blocks.data(), whole.size() * sizeof(float)) != 0) {
          return std::string(name) + " m=" + std::to_string(m) + ": rows in calls of " + std::to_string(block) +
                 " differ from one call";
        }
      }
    }
    return "";
  };
  std::string failure = check("gemm_f32_nt_panels", [&](int first, int count, float* c) {
    t.gemm_f32_nt_panels(a.data() + first * k, k, w.data(), k, f32_panels, bias.data(), c, n, count, n, k, false);
  });
  if (failure.empty()) {
    failure = check("gemm_i8w_nt_panels", [&](int first, int count, float* c) {
      t.gemm_i8w_nt_panels(a.data() + first * k, k, q.data(), k, i8_panels, scale.data(), bias.data(), c, n, count, n, k);
    });
  }
  if (failure.empty() && t.gemm_i8i8_nt) {
    failure = check("gemm_i8i8_nt", [&](int first, int count, float* c) {
      t.gemm_i8i8_nt(a.data() + first * k, k, q.data(), k, quads.data(), sums.data(), scale.data(), bias.data(), c, n,
                     count, n, k);
    });
  }
  return failure;
}

std::string sweep_gemm_columns_alone(const KernelTable&, const KernelTable& t, int) {
  // A lexical shortlist's output layer (model/weights.h select_rows): some of the weight's rows
  // (columns of c) multiplied alone, at another place in the call, against one call over all of
  // them; without panels, as select_rows' copy of a layer without panels is read. Random values:
  // their sums round.
  const int n = 23, k = 72;
  const RandomLayer layer(17, n, k, 977);
  const Buffer<float>& a = layer.a;
  const Buffer<float>& w = layer.w;
  const std::vector<int8_t>& q = layer.q;
  const std::vector<float>& scale = layer.scale;
  const std::vector<float>& bias = layer.bias;
  // gemm(first, count, m, c): columns [first, first + count) of rows [0, m) into c [m, count].
  auto check = [&](const char* name, auto&& gemm) -> std::string {
    for (int m : {1, 2, 3, 5, 13, 17}) {
      std::vector<float> whole(m * n);
      gemm(0, n, m, whole.data());
      for (int count : {1, 2, 3, 5, 9}) {
        for (int first = 0; first + count <= n; ++first) {
          std::vector<float> some(m * count);
          gemm(first, count, m, some.data());
          for (int r = 0; r < m; ++r) {
            if (std::memcmp(whole.data() + r * n + first, some.data() + r * count, count * sizeof(float)) != 0) {
              return std::string(name) + " m=" + std::to_string(m) + " row " + std::to_string(r) + ": columns [" +
                     std::to_string(first) + ", " + std::to_string(first + count) + ") alone differ from the whole call's";
            }
          }
        }
      }
    }
    return "";
  };
  std::string failure = check("gemm_f32_nt", [&](int first, int count, int m, float* c) {
    t.gemm_f32_nt(a.data(), k, w.data() + first * k, k, bias.data() + first, c, count, m, count, k, false);
  });
  if (failure.empty()) {
    failure = check("gemm_i8w_nt", [&](int first, int count, int m, float* c) {
      t.gemm_i8w_nt(a.data(), k, q.data() + first * k, k, scale.data() + first, bias.data() + first, c, count, m, count, k);
    });
  }
  if (failure.empty()) {
    failure = check("gemm_u8s8_shifted_nt", [&](int first, int count, int m, float* c) {
      t.gemm_u8s8_shifted_nt(a.data(), k, 40.f, q.data() + first * k, k, 0.0007f, bias.data() + first, c, count, m, count,
                             k);
    });
  }
  return failure;
}

std::string sweep_gemm_skips_zeros(const KernelTable&, const KernelTable& t, int) {
  // An FFN's second product after a ReLU: rows of a mostly 0 (a hidden unit 0 in all of them, or in
  // some; some zeros -0), through the panels (f32, and int8 weights), where the tile steps only
  // through the p where a row of its block is not 0, against the same call without panels, which
  // steps through every p: the same bits. Rows 0-6 are all 0 and rows 7-13 none 0, so that blocks of every height go both ways.
  const int n = 21, k = 200;
  constexpr int kMaxRows = 29;
  RandomLayer layer(kMaxRows, n, k, 6161);
  Buffer<float>& a = layer.a;
  Random random(77);
  for (int p = 0; p < k; ++p) {
    const float zero_share = p % 10 == 0 ? 1.f : random.uniform(0.f, 1.f);  // a tenth of the units never fire
    for (int r = 0; r < kMaxRows; ++r) {
      const bool zero = r < 7 || (r >= 14 && random.uniform(0.f, 1.f) < zero_share);
      if (zero) a[r * k + p] = (r + p) % 3 == 0 ? -0.f : 0.f;
    }
  }
  const int columns = std::max(t.panel_columns, 1);
  std::vector<float> panels(panels_size(n, k, columns));
  std::vector<int8_t> q_panels(panels.size());
  pack_panels(layer.w.data(), k, n, k, columns, panels.data());
  pack_panels(layer.q.data(), k, n, k, columns, q_panels.data());
  const float* packed = t.panel_columns ? panels.data() : nullptr;
  const int8_t* q_packed = t.panel_columns ? q_panels.data() : nullptr;
  for (int m : {5, 6, 7, 8, 13, 14, 17, 24, kMaxRows}) {
    for (bool accumulate : {false, true}) {
      const float* bias = accumulate ? nullptr : layer.bias.data();
      std::vector<float> skipped(m * n, 0.5f), stepped(m * n, 0.5f);
      t.gemm_f32_nt_panels(a.data(), k, layer.w.data(), k, packed, bias, skipped.data(), n, m, n, k, accumulate);
      t.gemm_f32_nt(a.data(), k, layer.w.data(), k, bias, stepped.data(), n, m, n, k, accumulate);
      if (std::memcmp(skipped.data(), stepped.data(), skipped.size() * sizeof(float)) != 0) {
        return "gemm_f32_nt_panels m=" + std::to_string(m) + (accumulate ? " accumulate" : "") +
               ": rows of a with zeros differ from gemm_f32_nt's, which steps through every p";
      }
    }
    // int8 weights: natively widened from the panels in registers, the same skipping tile
    std::vector<float> skipped(m * n), stepped(m * n);
    t.gemm_i8w_nt_panels(a.data(), k, layer.q.data(), k, q_packed, layer.scale.data(), layer.bias.data(), skipped.data(), n,
                         m, n, k);
    t.gemm_i8w_nt(a.data(), k, layer.q.data(), k, layer.scale.data(), layer.bias.data(), stepped.data(), n, m, n, k);
    if (std::memcmp(skipped.data(), stepped.data(), skipped.size() * sizeof(float)) != 0) {
      return "gemm_i8w_nt_panels m=" + std::to_string(m) + ": rows of a with zeros differ from gemm_i8w_nt's";
    }
  }
  return "";
}

std::string sweep_first_above(const KernelTable& ref, const KernelTable& t, int lanes) {
  for (int n : length_sweep(lanes)) {
    for (bool misaligned : {false, true}) {
      for (bool with_nan : {false, true}) {
        Random random(static_cast<unsigned>(n * 17 + misaligned * 3 + with_nan));
        Buffer<float> x(n, misaligned);
        random.fill(x, -10.f, 10.f);
        if (with_nan) {
          for (int i = 0; i < n; i += 3) x[i] = std::numeric_limits<float>::quiet_NaN();
        }
        // Thresholds below, among and above the values, and equal to one of them (not above itself).
        std::vector<float> thresholds = {-20.f, 0.f, 9.f, 20.f};
        if (n > 0) thresholds.push_back(x[n - 1]);
        for (float threshold : thresholds) {
          for (int from = 0; from <= n; from += std::max(1, n / 3)) {
            const int want = ref.first_above_f32(x.data() + from, n - from, threshold);
            const int got = t.first_above_f32(x.data() + from, n - from, threshold);
            if (got != want) {
              return "first_above_f32 n=" + std::to_string(n - from) + " threshold=" + std::to_string(threshold) +
                     (with_nan ? " with NaN" : "") + ": got " + std::to_string(got) + ", want " + std::to_string(want);
            }
          }
        }
      }
    }
  }
  return "";
}

namespace {

// check(ref, t, n, misaligned, spread, masked) over every logits row the sweeps use.
template <class Check>
std::string sweep_logits_rows(const KernelTable& ref, const KernelTable& t, int lanes, Check&& check) {
  for (int n : length_sweep(lanes)) {
    for (bool misaligned : {false, true}) {
      for (float spread : {1.0f, 30.0f}) {
        for (bool masked : {false, true}) {
          std::string failure = check(ref, t, n, misaligned, spread, masked);
          if (!failure.empty()) return failure;
        }
      }
    }
  }
  return "";
}

}  // namespace

std::string sweep_softmax(const KernelTable& ref, const KernelTable& t, int lanes) {
  return sweep_logits_rows(ref, t, lanes, check_softmax);
}

std::string sweep_sum_exp(const KernelTable& ref, const KernelTable& t, int lanes) {
  return sweep_logits_rows(ref, t, lanes, check_sum_exp);
}

std::string sweep_layernorm(const KernelTable& ref, const KernelTable& t, int lanes) {
  for (int n : length_sweep(lanes)) {
    for (bool misaligned : {false, true}) {
      std::string failure = check_layernorm(ref, t, n, misaligned);
      if (!failure.empty()) return failure;
    }
  }
  return "";
}

std::string sweep_activations(const KernelTable& ref, const KernelTable& t, int lanes) {
  std::vector<int> lengths = length_sweep(lanes);
  lengths.push_back(-1);  // the dense sweep of [−20, 20]
  for (Activation a : {Activation::relu, Activation::gelu, Activation::swish}) {
    for (int n : lengths) {
      for (bool misaligned : {false, true}) {
        std::string failure = check_activation(ref, t, a, n, misaligned);
        if (!failure.empty()) return failure;
      }
    }
  }
  return "";
}

std::string sweep_arithmetic(const KernelTable& ref, const KernelTable& t, int lanes) {
  for (int n : length_sweep(lanes)) {
    for (bool misaligned : {false, true}) {
      std::string failure = check_add(ref, t, n, misaligned);
      if (failure.empty()) failure = check_scale_add(ref, t, n, misaligned);
      if (!failure.empty()) return failure;
    }
  }
  return "";
}

const std::vector<NamedSweep>& all_sweeps() {
  static const std::vector<NamedSweep> sweeps = {
      {"gemm_f32_nt", sweep_gemm_f32_nt},       {"gemm_f32_nn", sweep_gemm_f32_nn},
      {"gemm_i8w_nt", sweep_gemm_i8w_nt},       {"gemm_i8i8_nt", sweep_gemm_i8i8_nt},
      {"gemm_u8s8_shifted_nt", sweep_gemm_u8s8_shifted_nt},
      {"gemm_model_shapes", sweep_gemm_model_shapes},
      {"gemm_reads_panels", sweep_gemm_reads_panels},
      {"gemm_rows_as_alone", sweep_gemm_rows_as_alone},
      {"gemm_row_blocks", sweep_gemm_row_blocks},
      {"gemm_columns_alone", sweep_gemm_columns_alone},
      {"gemm_skips_zeros", sweep_gemm_skips_zeros},
      {"softmax_f32", sweep_softmax},           {"sum_exp_f32", sweep_sum_exp},
      {"layernorm_f32", sweep_layernorm},
      {"activations", sweep_activations},       {"arithmetic", sweep_arithmetic},
      {"first_above_f32", sweep_first_above},
  };
  return sweeps;
}

}  // namespace attend::kernels::testing
