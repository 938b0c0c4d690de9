// The peak resident memory of one stretch of `attend bench` (a row of its grid), not of the
// whole process: Linux's high-water mark (VmHWM) is reset before the stretch and read after it.
#pragma once

#include <optional>

namespace attend::cli {

// Gives freed heap back to the system (so the stretch before does not count) and resets the
// high-water mark to the memory resident now. False where the kernel does not allow it.
bool reset_peak_memory();

// VmHWM in MiB, or nothing where /proc/self/status does not give it.
std::optional<double> peak_memory_mib();

}  // namespace attend::cli
