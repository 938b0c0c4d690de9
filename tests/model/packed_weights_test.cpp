// Every Linear of a loaded model carries its weight as panels for the kernels this process
// runs (what lets the batched GEMMs skip repacking), in the weight's own dtype; the values
// are checked by the kernel tests and the PyTorch parity tests, this checks they are wired.
#include <gtest/gtest.h>

#include <cstdlib>
#include <string>

#include "attend/attend.h"
#include "kernels/kernels.h"
#include "model/model_impl.h"

namespace attend {
namespace {

std::string fixture(const std::string& name) {
  const char* dir = std::getenv("ATTEND_PARITY_DIR");
  if (!dir) throw std::runtime_error("set ATTEND_PARITY_DIR (the ctest fixture does)");
  return std::string(dir) + "/" + name;
}

class PackedWeightsTest : public ::testing::TestWithParam<std::string> {};

TEST_P(PackedWeightsTest, EveryLinearHasPanelsForTheChosenKernels) {
  const auto model = Model::from_file(fixture(GetParam()));
  const int columns = kernels::best_kernels().panel_columns;
  for_each_linear(model->impl().weights, [&](const Linear& l) {
    EXPECT_EQ(l.panel_columns, columns);
    const bool int8 = l.weight_i8 != nullptr;
    EXPECT_EQ(l.panels_i8 != nullptr, columns > 0 && int8);
    EXPECT_EQ(l.panels != nullptr, columns > 0 && !int8);
  });
}

// ModelOptions::int8_activations: the int8 weights as quads (and no int8 panels, which nothing
// would read), under the best table and (ctest packed_weights.forced_avx2) the AVX2 one.
TEST(Int8ActivationsTest, QuadsNotPanels) {
  const std::string path = fixture("post_relu_sin.int8.safetensors");
  const auto model = Model::from_file(path, ModelOptions{Int8Activations::on});
  EXPECT_TRUE(model->info().int8_activations);
  for_each_linear(model->impl().weights, [&](const Linear& l) {
    EXPECT_NE(l.quads, nullptr);
    EXPECT_NE(l.column_sums, nullptr);
    EXPECT_EQ(l.panels_i8, nullptr);
  });
  EXPECT_FALSE(Model::from_file(path)->info().int8_activations);
}

TEST(Int8ActivationsTest, IfInt8LeavesF32FilesAsTheyAre) {
  const ModelOptions if_int8{Int8Activations::if_int8};
  EXPECT_FALSE(Model::from_file(fixture("post_relu_sin.safetensors"), if_int8)->info().int8_activations);
  EXPECT_TRUE(Model::from_file(fixture("post_relu_sin.int8.safetensors"), if_int8)->info().int8_activations);
}

INSTANTIATE_TEST_SUITE_P(ParityModels, PackedWeightsTest,
                         ::testing::Values("post_relu_sin.safetensors", "post_relu_sin.int8.safetensors",
                                           "pre_gelu_half_untied_bias.int8.safetensors"),
                         [](const ::testing::TestParamInfo<std::string>& info) {
                           std::string name = info.param.substr(0, info.param.find(".safetensors"));
                           for (char& ch : name) ch = (ch == '.') ? '_' : ch;
                           return name;
                         });

}  // namespace
}  // namespace attend
