// File opening helpers of the CLI.
#include "files.h"

#include <cerrno>
#include <cstring>

#include "attend/error.h"

namespace attend::cli {

std::shared_ptr<const Model> load_model(const std::string& path, const ModelOptions& options) {
  try {
    return Model::from_file(path, options);
  } catch (const Error& error) {
    if (error.code() == ErrorCode::io) throw;  // ByteStorage names the file in those
    throw Error(error.code(), "model '" + path + "': " + error.what());
  }
}

void open_output(std::ofstream& out, const std::string& path) {
  errno = 0;
  out.open(path, std::ios::binary | std::ios::trunc);
  if (!out) {
    throw Error(ErrorCode::io, "cannot write '" + path +
                                   "': " + (errno != 0 ? std::strerror(errno) : "open failed"));
  }
}

void check_written(std::ostream& out, const std::string& name) {
  out.flush();
  if (!out) throw Error(ErrorCode::io, "cannot write to " + name);
}

}  // namespace attend::cli
