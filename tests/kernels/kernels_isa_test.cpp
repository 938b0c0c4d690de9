// Every ISA compiled in and runnable here, checked against the scalar reference over the
// sweeps of kernel_checks.h (the reference runs too: it must handle the same edge cases).
#include <gtest/gtest.h>

#include <cstdlib>
#include <string>

#include "kernel_checks.h"
#include "kernels/isa_tables.h"
#include "kernels/kernels.h"

namespace attend::kernels::testing {
namespace {

// Vector width in floats of each ISA's kernels, which sets the sweep lengths (0..2·lanes+3).
int lanes_of(Isa isa) {
  switch (isa) {
    case Isa::avx512: return 16;
    case Isa::avx2: return 8;
    default: return 4;
  }
}

class KernelsIsaTest : public ::testing::TestWithParam<Isa> {
 protected:
  const KernelTable& ref() const { return *kernels_for(Isa::scalar); }
  const KernelTable& tested() const { return *kernels_for(GetParam()); }
  std::string sweep(Sweep run) const { return run(ref(), tested(), lanes_of(GetParam())); }
};

TEST_P(KernelsIsaTest, TableIsTheIsaAsked) { EXPECT_EQ(tested().isa, GetParam()); }
TEST_P(KernelsIsaTest, GemmF32Nt) { EXPECT_EQ(sweep(sweep_gemm_f32_nt), ""); }
TEST_P(KernelsIsaTest, GemmF32Nn) { EXPECT_EQ(sweep(sweep_gemm_f32_nn), ""); }
TEST_P(KernelsIsaTest, GemmI8wNt) { EXPECT_EQ(sweep(sweep_gemm_i8w_nt), ""); }
TEST_P(KernelsIsaTest, GemmI8i8Nt) { EXPECT_EQ(sweep(sweep_gemm_i8i8_nt), ""); }
TEST_P(KernelsIsaTest, GemmU8s8ShiftedNt) { EXPECT_EQ(sweep(sweep_gemm_u8s8_shifted_nt), ""); }
TEST_P(KernelsIsaTest, GemmModelShapes) { EXPECT_EQ(sweep(sweep_gemm_model_shapes), ""); }
TEST_P(KernelsIsaTest, BatchedGemmsReadThePanels) { EXPECT_EQ(sweep(sweep_gemm_reads_panels), ""); }
TEST_P(KernelsIsaTest, GemmRowsAsAlone) { EXPECT_EQ(sweep(sweep_gemm_rows_as_alone), ""); }
TEST_P(KernelsIsaTest, GemmRowBlocks) { EXPECT_EQ(sweep(sweep_gemm_row_blocks), ""); }
TEST_P(KernelsIsaTest, GemmColumnsAlone) { EXPECT_EQ(sweep(sweep_gemm_columns_alone), ""); }
TEST_P(KernelsIsaTest, GemmSkipsZeros) { EXPECT_EQ(sweep(sweep_gemm_skips_zeros), ""); }
TEST_P(KernelsIsaTest, Softmax) { EXPECT_EQ(sweep(sweep_softmax), ""); }
TEST_P(KernelsIsaTest, SumExp) { EXPECT_EQ(sweep(sweep_sum_exp), ""); }
TEST_P(KernelsIsaTest, Layernorm) { EXPECT_EQ(sweep(sweep_layernorm), ""); }
TEST_P(KernelsIsaTest, Activations) { EXPECT_EQ(sweep(sweep_activations), ""); }
TEST_P(KernelsIsaTest, Arithmetic) { EXPECT_EQ(sweep(sweep_arithmetic), ""); }
TEST_P(KernelsIsaTest, FirstAbove) { EXPECT_EQ(sweep(sweep_first_above), ""); }

// Null pointers are fine when there is nothing to read or write.
TEST_P(KernelsIsaTest, EmptySizesTouchNothing) {
  const KernelTable& t = tested();
  t.gemm_f32_nt(nullptr, 0, nullptr, 0, nullptr, nullptr, 0, 0, 0, 0, false);
  t.gemm_f32_nn(nullptr, 0, nullptr, 0, nullptr, 0, 0, 5, 3, true);
  t.gemm_i8w_nt(nullptr, 0, nullptr, 0, nullptr, nullptr, nullptr, 0, 3, 0, 4);
  t.gemm_f32_nt_panels(nullptr, 0, nullptr, 0, nullptr, nullptr, nullptr, 0, 0, 4, 3, false);
  t.gemm_i8w_nt_panels(nullptr, 0, nullptr, 0, nullptr, nullptr, nullptr, nullptr, 0, 3, 0, 4);
  if (t.gemm_i8i8_nt) t.gemm_i8i8_nt(nullptr, 0, nullptr, 0, nullptr, nullptr, nullptr, nullptr, nullptr, 0, 0, 3, 4);
  t.gemm_u8s8_shifted_nt(nullptr, 0, 1.0f, nullptr, 0, 1.0f, nullptr, nullptr, 0, 0, 3, 4);
  t.gemm_u8s8_shifted_nt(nullptr, 0, 1.0f, nullptr, 0, 1.0f, nullptr, nullptr, 0, 3, 0, 4);
  t.softmax_f32(nullptr, 0);
  EXPECT_EQ(t.sum_exp_f32(nullptr, 0, 0.0f), 0.0f);
  t.layernorm_f32(nullptr, nullptr, nullptr, nullptr, 0, 1e-5f);
  t.relu_f32(nullptr, 0);
  t.gelu_f32(nullptr, 0);
  t.swish_f32(nullptr, 0);
  t.add_f32(nullptr, nullptr, 0);
  t.scale_add_f32(nullptr, 2.0f, nullptr, 1.0f, 0);
  EXPECT_EQ(t.first_above_f32(nullptr, 0, 0.0f), 0);
}

INSTANTIATE_TEST_SUITE_P(AvailableIsas, KernelsIsaTest, ::testing::ValuesIn(available_isas()),
                         [](const ::testing::TestParamInfo<Isa>& info) {
                           return std::string(isa_name(info.param));
                         });

TEST(KernelsDispatchTest, BestIsLastUnlessForced) {
  const std::vector<Isa> isas = available_isas();
  ASSERT_FALSE(isas.empty());
  EXPECT_EQ(isas.front(), Isa::scalar);
  if (const char* forced = std::getenv("ATTEND_ISA")) {
    EXPECT_STREQ(isa_name(best_kernels().isa), forced);  // ctest kernels.forced_scalar
  } else {
    EXPECT_EQ(best_kernels().isa, isas.back());
  }
  EXPECT_EQ(&best_kernels(), &best_kernels());  // chosen once
}

TEST(KernelsDispatchTest, IsaNames) {
  EXPECT_STREQ(isa_name(Isa::scalar), "scalar");
  EXPECT_STREQ(isa_name(Isa::avx2), "avx2");
  EXPECT_STREQ(isa_name(Isa::avx512), "avx512");
  EXPECT_STREQ(isa_name(Isa::wasm_simd128), "wasm_simd128");
}

// The GemmU8s8ShiftedNt sweep passes vacuously on a table without the kernel: every table has it.
TEST(KernelsDispatchTest, ShiftedInt8OnEveryTable) {
  for (Isa isa : available_isas()) EXPECT_NE(kernels_for(isa)->gemm_u8s8_shifted_nt, nullptr) << isa_name(isa);
}

#if defined(__x86_64__)
// The GemmI8i8Nt sweep passes vacuously on a table without the kernel: every table has it.
TEST(KernelsDispatchTest, Int8ActivationsOnEveryTable) {
  for (Isa isa : available_isas()) EXPECT_NE(kernels_for(isa)->gemm_i8i8_nt, nullptr) << isa_name(isa);
}

// The avx512 table's is VNNI's where the CPU has it, AVX2's elsewhere.
TEST(KernelsDispatchTest, Avx512Int8ActivationsNeedNoVnni) {
  const KernelTable* avx2 = kernels_for(Isa::avx2);
  const KernelTable* avx512 = kernels_for(Isa::avx512);
  if (avx2 == nullptr || avx512 == nullptr) GTEST_SKIP() << "this CPU has no AVX-512";
  __builtin_cpu_init();
  EXPECT_EQ(avx512->gemm_i8i8_nt == avx2->gemm_i8i8_nt, __builtin_cpu_supports("avx512vnni") == 0);
}
#endif

#ifdef ATTEND_KERNELS_AVX512
// The avx512 table's gemm_u8s8_shifted_nt is the VNNI one (vpdpwssd) where the CPU has VNNI: the
// AVX512BW one (vpmaddwd + vpaddd), which the table holds elsewhere, is swept here too.
TEST(KernelsDispatchTest, Avx512ShiftedInt8WithAndWithoutVnni) {
  const KernelTable* avx512 = kernels_for(Isa::avx512);
  if (avx512 == nullptr) GTEST_SKIP() << "this CPU has no AVX-512";
  __builtin_cpu_init();
  const bool vnni = __builtin_cpu_supports("avx512vnni") != 0;
  EXPECT_EQ(avx512->gemm_u8s8_shifted_nt,
            vnni ? gemm_u8s8_shifted_nt_avx512_vnni : gemm_u8s8_shifted_nt_avx512);
  KernelTable bw = *avx512;
  bw.gemm_u8s8_shifted_nt = gemm_u8s8_shifted_nt_avx512;
  EXPECT_EQ(sweep_gemm_u8s8_shifted_nt(*kernels_for(Isa::scalar), bw, 16), "");
}
#endif

#if !defined(__EMSCRIPTEN__)
TEST(KernelsDispatchTest, NoWasmTableNatively) { EXPECT_EQ(kernels_for(Isa::wasm_simd128), nullptr); }
#endif

}  // namespace
}  // namespace attend::kernels::testing
