#!/usr/bin/env bash
# Builds the scalar reference + WebAssembly SIMD128 kernels + the shared checks with emcc and
# runs them under Node. Usage: run_wasm_kernel_check.sh SOURCE_DIR BUILD_DIR
# Exits 77 (ctest: skipped) when emcc or node is not installed.
set -euo pipefail
src=$1
out=$2
command -v emcc >/dev/null 2>&1 || { echo "emcc not found: skipping"; exit 77; }
command -v node >/dev/null 2>&1 || { echo "node not found: skipping"; exit 77; }
export NODE_PATH=${NODE_PATH:-/usr/share/nodejs}
mkdir -p "$out"
kernels=$src/core/src/kernels
emcc -std=c++17 -O2 -msimd128 -Wall -Wextra -DATTEND_KERNELS_WASM \
  -I"$src/core/src" -I"$src/core/include" -I"$src/tests/kernels" \
  "$kernels/dispatch.cpp" "$kernels/panels.cpp" "$kernels/scratch.cpp" "$kernels/kernels_ref.cpp" \
  "$kernels/kernels_wasm.cpp" "$kernels/kernels_wasm_i8i8.cpp" "$kernels/kernels_wasm_u8s8.cpp" "$src/tests/kernels/kernel_checks.cpp" \
  "$src/tests/kernels/wasm/wasm_kernel_check.cpp" \
  -sALLOW_MEMORY_GROWTH=1 -sENVIRONMENT=node -o "$out/wasm_kernel_check.cjs"
# .cjs: the repository's package.json may declare ES modules, and Emscripten 3.1 emits
# CommonJS. Node ≥ 18 has a global fetch, which its loader would try on a file path.
node --no-experimental-fetch "$out/wasm_kernel_check.cjs"
