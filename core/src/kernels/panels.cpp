// The weight-panel layouts (kernels.h), the same for every ISA; only the width differs.
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

namespace {
std::size_t round_up(std::size_t x, std::size_t to) { return (x + to - 1) / to * to; }
}  // namespace

std::size_t quad_panels_size(int n, int k) {
  if (n <= 0 || k <= 0) return 0;
  return round_up(static_cast<std::size_t>(n), kQuadColumns) * static_cast<std::size_t>(quad_depth(k));
}

void pack_quad_panels(const int8_t* b, int ldb, int n, int k, int8_t* quads) {
  const std::size_t kq = static_cast<std::size_t>(quad_depth(k));
  for (int j0 = 0; j0 < n; j0 += kQuadColumns) {
    int8_t* panel = quads + static_cast<std::size_t>(j0) * kq;  // [kq / 4, kQuadColumns, 4]
    for (std::size_t p = 0; p < kq; ++p) {
      for (int jj = 0; jj < kQuadColumns; ++jj) {
        const int j = j0 + jj;
        panel[(p / 4) * 4 * kQuadColumns + jj * 4 + p % 4] =
            j < n && p < static_cast<std::size_t>(k) ? b[static_cast<std::size_t>(j) * ldb + p] : int8_t{0};
      }
    }
  }
}

std::size_t column_sums_size(int n) { return n <= 0 ? 0 : round_up(static_cast<std::size_t>(n), kQuadColumns); }

void sum_columns(const int8_t* b, int ldb, int n, int k, int32_t* column_sums) {
  for (std::size_t j = 0; j < column_sums_size(n); ++j) {
    int32_t sum = 0;
    for (int p = 0; j < static_cast<std::size_t>(n) && p < k; ++p) sum += b[j * ldb + p];
    column_sums[j] = sum;
  }
}

}  // namespace attend::kernels
