#include "peak_memory.h"

#include <malloc.h>

#include <fstream>
#include <string>

namespace attend::cli {

bool reset_peak_memory() {
  malloc_trim(0);
  std::ofstream clear_refs("/proc/self/clear_refs");
  clear_refs << "5";  // proc(5): "reset the peak resident set size"
  clear_refs.flush();
  return static_cast<bool>(clear_refs);
}

std::optional<double> peak_memory_mib() {
  std::ifstream status("/proc/self/status");
  for (std::string line; std::getline(status, line);) {
    if (line.rfind("VmHWM:", 0) == 0) return std::stod(line.substr(6)) / 1024.0;  // "VmHWM:   1234 kB"
  }
  return std::nullopt;
}

}  // namespace attend::cli
