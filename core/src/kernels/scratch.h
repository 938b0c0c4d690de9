// Per-thread scratch memory for the kernels' packed panels: grown on demand, never shrunk,
// so steady-state calls allocate nothing.
#pragma once

#include <cstddef>

namespace attend::kernels {

// At least `count` floats, 64-byte aligned, contents unspecified. Valid until the next call
// on the same thread.
float* scratch_floats(std::size_t count);

}  // namespace attend::kernels
