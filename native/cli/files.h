// Opening the files a command names, with errors that say which file and why.
#pragma once

#include <fstream>
#include <memory>
#include <string>

#include "attend/model.h"

namespace attend::cli {

// Throws attend::Error whose message starts with the model's path.
std::shared_ptr<const Model> load_model(const std::string& path, const ModelOptions& options = {});

// Opens (truncates) a file for writing; throws attend::Error(io).
void open_output(std::ofstream& out, const std::string& path);
// Throws what open_output would, without truncating the file (it is created if missing).
void check_writable(const std::string& path);

// Throws attend::Error(io) if writing to the stream failed (disk full, closed pipe, ...).
void check_written(std::ostream& out, const std::string& name);

}  // namespace attend::cli
