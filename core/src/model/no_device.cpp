// load_device_model of a build without a device backend (configured without -DATTEND_CUDA=ON).
#include "attend/error.h"
#include "model/device_model.h"

namespace attend {

std::unique_ptr<DeviceModel> load_device_model(const Model::Impl&, const ModelOptions&) {
  throw Error(ErrorCode::device_unavailable,
              "this build of Attend has no CUDA backend (configure it with -DATTEND_CUDA=ON: the cuda preset)");
}

}  // namespace attend
