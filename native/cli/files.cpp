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

namespace {

void open_or_throw(std::ofstream& out, const std::string& path, std::ios::openmode mode) {
  errno = 0;
  out.open(path, std::ios::binary | mode);
  if (!out) {
    throw Error(ErrorCode::io, "cannot write '" + path +
                                   "': " + (errno != 0 ? std::strerror(errno) : "open failed"));
  }
}

}  // namespace

void open_output(std::ofstream& out, const std::string& path) { open_or_throw(out, path, std::ios::trunc); }

void check_writable(const std::string& path) {
  std::ofstream out;
  open_or_throw(out, path, std::ios::app);  // an existing file is left as it is
}

void check_written(std::ostream& out, const std::string& name) {
  out.flush();
  if (!out) throw Error(ErrorCode::io, "cannot write to " + name);
}

}  // namespace attend::cli
