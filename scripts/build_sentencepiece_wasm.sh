#!/usr/bin/env bash
# Builds SentencePiece as a static WebAssembly library with Emscripten, from the Debian
# source of the very version installed natively (so native and wasm tokenize alike).
# Idempotent: a finished build is reused. Progress goes to stderr; the install prefix
# (include/ + lib/) is the only thing printed on stdout.
#   usage: scripts/build_sentencepiece_wasm.sh [root]   (default: third_party/sentencepiece-wasm)
set -euo pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
root=${1:-$top/third_party/sentencepiece-wasm}
prefix=$root/install
version=$(dpkg-query -W -f='${source:Version}' libsentencepiece-dev)
stamp=$prefix/built-from-$version

if [ -f "$stamp" ]; then
  echo "$prefix"
  exit 0
fi
command -v emcmake >/dev/null || { echo "emcmake not found: install emscripten (scripts/setup.sh)" >&2; exit 1; }
export NODE_PATH=${NODE_PATH:-/usr/share/nodejs}

mkdir -p "$root/src"
upstream=${version%-*}
source_dir=$root/src/sentencepiece-$upstream
if [ ! -d "$source_dir" ]; then
  echo "fetching the Debian source of sentencepiece $version" >&2
  (cd "$root/src" && apt-get source -qq "sentencepiece=$version" >&2)
  # Debian drops the static targets (it ships only the shared library); bring them back.
  patch -R -p1 -d "$source_dir" < "$source_dir/debian/patches/disable-static-library.patch" >&2
fi

build_dir=$root/build
echo "building sentencepiece-static with Emscripten in $build_dir" >&2
emcmake cmake -S "$source_dir" -B "$build_dir" -DCMAKE_BUILD_TYPE=Release \
  -DSPM_ENABLE_SHARED=OFF -DSPM_ENABLE_TCMALLOC=OFF -DSPM_USE_BUILTIN_PROTOBUF=ON >&2
emmake make -C "$build_dir" -j"$(nproc)" sentencepiece-static >&2

# libsentencepiece.a carries the bundled protobuf-lite, so it is all a program links.
rm -rf "$prefix"
mkdir -p "$prefix/lib" "$prefix/include"
cp "$build_dir/src/libsentencepiece.a" "$prefix/lib/"
cp "$source_dir/src/sentencepiece_processor.h" "$prefix/include/"
touch "$stamp"
echo "$prefix"
