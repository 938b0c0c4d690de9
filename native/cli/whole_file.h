// A whole file read into memory, gzip inflated (the model folders Firefox Translations ships
// hold *.bin.gz and *.spm.gz).
#pragma once

#include <string>

namespace attend::cli {

// The file's bytes, inflated when they start with gzip's magic (every member of a multi-member
// file, as gzread reads them). Throws Error(io) naming the file: unreadable, truncated or
// damaged gzip data.
std::string read_whole_file(const std::string& path);

}  // namespace attend::cli
