// load_device_model for Device::cuda: the first CUDA device opened (or device_unavailable naming
// why not), the weights checked against its free memory and uploaded once.
#include <memory>
#include <string>

#include "cuda/cuda_check.h"
#include "cuda/cuda_session.h"
#include "cuda/device_plan.h"
#include "cuda/device_weights.h"
#include "model/device_model.h"
#include "model/model_impl.h"

namespace attend {
namespace {

class CudaModel final : public DeviceModel {
 public:
  CudaModel(const Model::Impl& model, ComputeType type) : config_(model.config), type_(type) {
    properties_ = cuda::open_first_device();
    cuda::check_fits(std::string("the model's weights in ") + cuda::compute_type_name(type),
                     cuda::weight_bytes(config_, type), properties_.free_bytes);
    cuda::Stream stream;
    weights_ = cuda::upload_weights(config_, model.weights, type, stream.get());
  }

  std::string description() const override {
    return "cuda:" + std::to_string(properties_.index) + " " + properties_.name + " (sm_" +
           std::to_string(properties_.major) + std::to_string(properties_.minor) + ", " +
           cuda::compute_type_name(type_) + ")";
  }

  std::unique_ptr<DeviceSession> new_session() const override {
    return std::make_unique<cuda::CudaSession>(config_, weights_, type_);
  }

 private:
  ModelConfig config_;
  ComputeType type_;
  cuda::DeviceProperties properties_;
  cuda::DeviceWeights weights_;
};

}  // namespace

std::unique_ptr<DeviceModel> load_device_model(const Model::Impl& model, const ModelOptions& options) {
  return std::make_unique<CudaModel>(model, options.compute);
}

}  // namespace attend
