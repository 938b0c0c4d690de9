#!/usr/bin/env bash
# gemm_u8s8_shifted_nt against intgemm itself (intgemm_parity.cpp), natively and, when emcc and
# node are installed, in WebAssembly. Needs an intgemm checkout (github.com/kpu/intgemm; checked
# with f7401513): not part of ctest.
#   usage: tests/kernels/intgemm/compare_with_intgemm.sh INTGEMM_DIR [BUILD_DIR]
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
src=$(cd "$here/../../.." && pwd)
intgemm=$(cd "$1" && pwd)
out=${2:-$(mktemp -d)}
mkdir -p "$out/native/intgemm" "$out/wasm/intgemm"
kernels=$src/core/src/kernels
# intgemm's CMake writes intgemm_config.h; here it is written by hand for each target.
printf '#pragma once\n#define INTGEMM_COMPILER_SUPPORTS_AVX2\n#define INTGEMM_COMPILER_SUPPORTS_AVX512BW\n#define INTGEMM_COMPILER_SUPPORTS_AVX512VNNI\n' \
  >"$out/native/intgemm/intgemm_config.h"
printf '#pragma once\n' >"$out/wasm/intgemm/intgemm_config.h"

# Natively: each kernel file with the flags core/src/kernels/CMakeLists.txt gives it.
common=(-std=c++17 -O2 -w -I"$src/core/src" -I"$src/core/include" -DATTEND_KERNELS_AVX2 -DATTEND_KERNELS_AVX512)
avx512=(-mavx512f -mavx512bw -mavx512vl)
objects=()
compile() {  # compile NAME FLAGS... SOURCE
  local name=$1; shift
  g++ "${common[@]}" "$@" -c -o "$out/native/$name.o"
  objects+=("$out/native/$name.o")
}
compile dispatch "$kernels/dispatch.cpp"
compile panels "$kernels/panels.cpp"
compile scratch "$kernels/scratch.cpp"
compile ref -ffp-contract=off "$kernels/kernels_ref.cpp"
compile avx2 -mavx2 -mfma "$kernels/kernels_avx2.cpp"
compile avx2_i8i8 -mavx2 -mfma -ffp-contract=off "$kernels/kernels_avx2_i8i8.cpp"
compile avx2_u8s8 -mavx2 -ffp-contract=off "$kernels/kernels_avx2_u8s8.cpp"
compile avx512 "${avx512[@]}" -mavx512dq -mfma "$kernels/kernels_avx512.cpp"
compile avx512_vnni "${avx512[@]}" -mavx512vnni -ffp-contract=off "$kernels/kernels_avx512_vnni.cpp"
compile avx512_u8s8 "${avx512[@]}" -ffp-contract=off "$kernels/kernels_avx512_u8s8.cpp"
compile avx512_vnni_u8s8 "${avx512[@]}" -mavx512vnni -ffp-contract=off "$kernels/kernels_avx512_vnni_u8s8.cpp"
g++ "${common[@]}" -I"$out/native" -I"$intgemm" "$intgemm/intgemm/intgemm.cc" "$here/intgemm_parity.cpp" \
  "${objects[@]}" -o "$out/native/intgemm_parity"
echo "native:"
"$out/native/intgemm_parity"

if command -v emcc >/dev/null 2>&1 && command -v node >/dev/null 2>&1; then
  export NODE_PATH=${NODE_PATH:-/usr/share/nodejs}
  # -DWASM: intgemm's own switch for Emscripten (SSSE3 only, through Emscripten's SSE emulation).
  emcc -std=c++17 -O2 -w -msimd128 -mssse3 -DWASM -DATTEND_KERNELS_WASM -I"$out/wasm" -I"$intgemm" \
    -I"$src/core/src" -I"$src/core/include" "$intgemm/intgemm/intgemm.cc" "$here/intgemm_parity.cpp" \
    "$kernels/dispatch.cpp" "$kernels/panels.cpp" "$kernels/scratch.cpp" "$kernels/kernels_ref.cpp" \
    "$kernels/kernels_wasm.cpp" "$kernels/kernels_wasm_i8i8.cpp" "$kernels/kernels_wasm_u8s8.cpp" \
    -sALLOW_MEMORY_GROWTH=1 -sENVIRONMENT=node -o "$out/wasm/intgemm_parity.cjs" 2>&1 | grep -v "is not a recognized feature" || true
  echo "wasm ($(emcc --version | sed -n 1p)):"
  node --no-experimental-fetch "$out/wasm/intgemm_parity.cjs"
fi
