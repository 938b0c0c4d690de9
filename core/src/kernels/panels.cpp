// The weight-panel layout (kernels.h), the same for every ISA; only the width differs.
#include <algorithm>

#include "kernels/kernels.h"

namespace attend::kernels {
namespace {

template <class T>
void pack(const T* b, int ldb, int n, int k, int columns, T* panels) {
  if (columns <= 0) return;  // a table that reads no panels
  for (int j0 = 0; j0 < n; j0 += columns) {
    T* panel = panels + static_cast<std::size_t>(j0) * k;  // [k, columns]
    const int rows = std::min(columns, n - j0);
    for (int p = 0; p < k; ++p) {
      for (int jj = 0; jj < columns; ++jj) {
        panel[static_cast<std::size_t>(p) * columns + jj] =
            jj < rows ? b[static_cast<std::size_t>(j0 + jj) * ldb + p] : T{0};
      }
    }
  }
}

}  // namespace

std::size_t panels_size(int n, int k, int columns) {
  if (columns <= 0 || n <= 0 || k <= 0) return 0;
  const std::size_t panels = (static_cast<std::size_t>(n) + columns - 1) / columns;
  return panels * columns * static_cast<std::size_t>(k);
}

void pack_panels(const float* b, int ldb, int n, int k, int columns, float* panels) {
  pack(b, ldb, n, k, columns, panels);
}

void pack_panels(const int8_t* b, int ldb, int n, int k, int columns, int8_t* panels) {
  pack(b, ldb, n, k, columns, panels);
}

}  // namespace attend::kernels
