// Choosing the CUDA device (ModelOptions::device) is one clear answer on every machine and build:
// a build without the backend says so; a CUDA build where no GPU is usable names the cause (on
// our machines without a GPU: no NVIDIA driver); where one is usable the model loads there and
// names it. Never a crash, never the CPU instead.
#include <gtest/gtest.h>

#include <iostream>

#include "attend/error.h"
#include "attend/model.h"
#include "test_paths.h"

namespace attend {
namespace {

std::string model_path() { return test_path("ATTEND_TEST_MODEL", ATTEND_TEST_MODEL); }

ModelOptions on_cuda() {
  ModelOptions o;
  o.device = Device::cuda;
  return o;
}

TEST(DeviceChoice, TheCpuIsTheDefault) {
  EXPECT_EQ(Model::from_file(model_path())->info().device, "cpu");
}

TEST(DeviceChoice, CudaLoadsThereOrSaysWhyNot) {
  try {
    const auto model = Model::from_file(model_path(), on_cuda());
    EXPECT_EQ(model->info().device.rfind("cuda:0 ", 0), 0u) << model->info().device;
  } catch (const Error& e) {
    std::cout << "cuda refused: " << e.what() << "\n";
    EXPECT_EQ(e.code(), ErrorCode::device_unavailable) << e.what();
#ifdef ATTEND_CUDA_BUILD
    EXPECT_EQ(std::string(e.what()).rfind("CUDA device unavailable: ", 0), 0u) << e.what();
#else
    EXPECT_STREQ(e.what(), "this build of Attend has no CUDA backend (configure it with -DATTEND_CUDA=ON: the cuda preset)");
#endif
  }
}

TEST(DeviceChoice, Int8ActivationsStayOnTheCpu) {
  ModelOptions o = on_cuda();
  o.int8_activations = Int8Activations::on;
  try {
    Model::from_file(model_path(), o);
    FAIL() << "loaded";
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ErrorCode::invalid_argument);
    EXPECT_STREQ(e.what(), "int8 activations are a CPU path; a device model dequantizes int8 weights");
  }
}

}  // namespace
}  // namespace attend
