// gemm_u8s8_shifted_nt's products and epilogue (core/src/kernels/kernels.h) with relaxed SIMD's
// i16x8.relaxed_dot_i8x16_i7x16_s, which V8 compiles to pmaddubsw on x86: intgemm's own
// instruction, so each lane is sat16(ua[2q]·b[2q] + ua[2q+1]·b[2q+1]) with ua unsigned, as
// Bergamot computes it. Elsewhere the instruction may compute otherwise (the proposal leaves bytes
// above 127 and the saturation to the engine), so the main module takes this kernel only after it
// gave its own kernel's bits on a sweep of shapes (kernels_wasm_u8s8.cpp).
//
// A freestanding module built by clang-19 (Emscripten 3.1.6 cannot emit relaxed SIMD), on the
// main module's memory; it keeps nothing in memory of its own (no stack, no data).
#include <stdint.h>
#include <wasm_simd128.h>

#define ROWS 2
#define COLUMNS 4

// acc + the 8 saturated pair sums of 16 bytes of ua (unsigned) and of b (signed), into 4 lanes.
static inline v128_t accumulate(v128_t acc, v128_t ua, v128_t b) {
  return wasm_i32x4_add(acc, wasm_i32x4_extadd_pairwise_i16x8(__builtin_wasm_relaxed_dot_i8x16_i7x16_s_i16x8(b, ua)));
}

// Lanes 0..3 = the sums of the 4 lanes of a0..a3.
static inline v128_t sums4(v128_t a0, v128_t a1, v128_t a2, v128_t a3) {
  const v128_t t01 = wasm_i32x4_add(wasm_i32x4_shuffle(a0, a1, 0, 4, 1, 5), wasm_i32x4_shuffle(a0, a1, 2, 6, 3, 7));
  const v128_t t23 = wasm_i32x4_add(wasm_i32x4_shuffle(a2, a3, 0, 4, 1, 5), wasm_i32x4_shuffle(a2, a3, 2, 6, 3, 7));
  return wasm_i32x4_add(wasm_i32x4_shuffle(t01, t23, 0, 1, 4, 5), wasm_i32x4_shuffle(t01, t23, 2, 3, 6, 7));
}

// c[0, 0..columns) = fl(fl((float)sums·unquant) + bias), lane by lane.
static inline void store(v128_t sums, float unquant, const float* bias, int columns, float* c) {
  const v128_t scaled = wasm_f32x4_mul(wasm_f32x4_convert_i32x4(sums), wasm_f32x4_splat(unquant));
  if (columns == COLUMNS) {
    wasm_v128_store(c, wasm_f32x4_add(scaled, wasm_v128_load(bias)));
    return;
  }
  const v128_t out = wasm_f32x4_add(scaled, wasm_f32x4_make(bias[0], bias[columns > 1], bias[columns > 2 ? 2 : 0], 0.f));
  c[0] = wasm_f32x4_extract_lane(out, 0);
  if (columns > 1) c[1] = wasm_f32x4_extract_lane(out, 1);
  if (columns > 2) c[2] = wasm_f32x4_extract_lane(out, 2);
}

// The rows i0 .. i0 + rows (1 or ROWS) against columns j0 .. j0 + columns (≤ COLUMNS; a missing
// column reads the last one again and is not stored).
static inline void tile(const uint8_t* ua, int steps, const int8_t* b, int ldb, float unquant, const float* bias,
                        float* c, int ldc, int rows, int columns) {
  const int8_t* w0 = b;
  const int8_t* w1 = b + (columns > 1 ? 1 : 0) * ldb;
  const int8_t* w2 = b + (columns > 2 ? 2 : columns - 1) * ldb;
  const int8_t* w3 = b + (columns > 3 ? 3 : columns - 1) * ldb;
  const uint8_t* u0 = ua;
  const uint8_t* u1 = ua + (rows > 1 ? 16 * steps : 0);
  v128_t a00 = wasm_i32x4_splat(0), a01 = a00, a02 = a00, a03 = a00;
  v128_t a10 = a00, a11 = a00, a12 = a00, a13 = a00;
  for (int p = 0; p < 16 * steps; p += 16) {
    const v128_t x0 = wasm_v128_load(u0 + p), x1 = wasm_v128_load(u1 + p);
    const v128_t b0 = wasm_v128_load(w0 + p), b1 = wasm_v128_load(w1 + p);
    const v128_t b2 = wasm_v128_load(w2 + p), b3 = wasm_v128_load(w3 + p);
    a00 = accumulate(a00, x0, b0);
    a01 = accumulate(a01, x0, b1);
    a02 = accumulate(a02, x0, b2);
    a03 = accumulate(a03, x0, b3);
    if (rows > 1) {  // the loop is unswitched on it: a row alone costs its own products only
      a10 = accumulate(a10, x1, b0);
      a11 = accumulate(a11, x1, b1);
      a12 = accumulate(a12, x1, b2);
      a13 = accumulate(a13, x1, b3);
    }
  }
  store(sums4(a00, a01, a02, a03), unquant, bias, columns, c);
  if (rows > 1) store(sums4(a10, a11, a12, a13), unquant, bias, columns, c + ldc);
}

// c [m, n] (ldc apart) from ua [m, 16·steps] (QuantizeU's bytes, zeros past k) and b [n, k]
// (ldb apart, k = 16·steps: the caller takes its own kernel otherwise); bias [n].
__attribute__((export_name("attend_u8s8_relaxed")))
void attend_u8s8_relaxed(const uint8_t* ua, int steps, const int8_t* b, int ldb, float unquant, const float* bias,
                         float* c, int ldc, int m, int n) {
  for (int j0 = 0; j0 < n; j0 += COLUMNS) {
    const int columns = n - j0 < COLUMNS ? n - j0 : COLUMNS;
    for (int i0 = 0; i0 < m; i0 += ROWS) {
      tile(ua + i0 * 16 * steps, steps, b + j0 * ldb, ldb, unquant, bias + j0, c + i0 * ldc + j0, ldc,
           m - i0 < ROWS ? m - i0 : ROWS, columns);
    }
  }
}
