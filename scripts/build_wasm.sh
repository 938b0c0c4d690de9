#!/usr/bin/env bash
# Builds the WebAssembly module in its two variants, build/wasm-simd (SIMD128 kernels) and
# build/wasm-nosimd (scalar, for engines without WebAssembly SIMD), and copies them to
# wasm/dist/, where wasm/attend.mjs loads them. Builds SentencePiece for wasm first if needed
# (scripts/build_sentencepiece_wasm.sh). Idempotent: reruns only rebuild what changed.
#   usage: scripts/build_wasm.sh [-jN]     (default -j2; the build runs under nice)
set -euo pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
jobs=${1:--j2}
command -v emcmake >/dev/null || { echo "emcmake not found: install emscripten (scripts/setup.sh)" >&2; exit 1; }
# Debian's emscripten runs its JS tools with node and needs Debian's node modules (acorn).
export NODE_PATH=${NODE_PATH:-/usr/share/nodejs}

spm_prefix=$("$top/scripts/build_sentencepiece_wasm.sh")
dist=$top/wasm/dist
mkdir -p "$dist"
for variant in simd nosimd; do
  build=$top/build/wasm-$variant
  simd=$([ "$variant" = simd ] && echo ON || echo OFF)
  if [ ! -f "$build/build.ninja" ]; then
    emcmake cmake -S "$top" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release \
      -DATTEND_WASM_SIMD="$simd" -DATTEND_SPM_WASM_PREFIX="$spm_prefix" >&2
  fi
  nice ninja -C "$build" "$jobs" attend_wasm >&2
  # cp -p keeps the build's times, so an unchanged module is not "newer" for caches.
  cp -p "$build/wasm/attend-$variant.mjs" "$build/wasm/attend-$variant.wasm" "$dist/"
done
echo "$dist"
