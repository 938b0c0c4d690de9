#!/usr/bin/env bash
# Builds the WebAssembly module in its two variants, build/wasm-simd (SIMD128 kernels) and
# build/wasm-nosimd (scalar, for engines without WebAssembly SIMD), and copies them to
# wasm/dist/, where wasm/attend.mjs loads them. Builds SentencePiece and CLD2 for wasm first if
# needed (scripts/build_sentencepiece_wasm.sh, scripts/build_cld2_wasm.sh). Idempotent: reruns only rebuild what changed.
#   usage: scripts/build_wasm.sh [-jN]     (default -j2; the build runs under nice)
# For experiments beside the shipped build, the environment can move it elsewhere:
#   ATTEND_WASM_BUILD=DIR         builds in DIR-simd and DIR-nosimd (default build/wasm)
#   ATTEND_WASM_DIST=DIR          copies the modules there (default wasm/dist)
#   ATTEND_WASM_VARIANTS="simd"   only these variants (default "simd nosimd")
#   ATTEND_WASM_CMAKE_ARGS="..."  more CMake arguments when a build directory is configured
set -euo pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
jobs=${1:--j2}
command -v emcmake >/dev/null || { echo "emcmake not found: install emscripten (scripts/setup.sh)" >&2; exit 1; }
# Debian's emscripten runs its JS tools with node and needs Debian's node modules (acorn).
export NODE_PATH=${NODE_PATH:-/usr/share/nodejs}

spm_prefix=$("$top/scripts/build_sentencepiece_wasm.sh")
cld2_prefix=$("$top/scripts/build_cld2_wasm.sh")
dist=${ATTEND_WASM_DIST:-$top/wasm/dist}
mkdir -p "$dist"
for variant in ${ATTEND_WASM_VARIANTS:-simd nosimd}; do
  build=${ATTEND_WASM_BUILD:-$top/build/wasm}-$variant
  simd=$([ "$variant" = simd ] && echo ON || echo OFF)
  if [ ! -f "$build/build.ninja" ]; then
    # shellcheck disable=SC2086  # the extra arguments are meant to split
    emcmake cmake -S "$top" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release \
      -DATTEND_WASM_SIMD="$simd" -DATTEND_SPM_WASM_PREFIX="$spm_prefix" -DATTEND_CLD2_WASM_PREFIX="$cld2_prefix" ${ATTEND_WASM_CMAKE_ARGS:-} >&2
  fi
  nice ninja -C "$build" "$jobs" attend_wasm >&2
  # cp -p keeps the build's times, so an unchanged module is not "newer" for caches.
  cp -p "$build/wasm/attend-$variant.mjs" "$build/wasm/attend-$variant.wasm" "$dist/"
  if [ "$variant" = simd ]; then cp -p "$build/wasm/attend-relaxed.wasm" "$dist/"; fi
done
echo "$dist"
