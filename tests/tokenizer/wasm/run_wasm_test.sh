#!/usr/bin/env bash
# ctest tokenizer_wasm_node: builds the tokenizer for WebAssembly (SentencePiece from
# scripts/build_sentencepiece_wasm.sh, cached under third_party/) and checks in Node that
# it encodes and decodes every line of val.en and val.de as spm_encode/spm_decode do.
# Exits 77 (ctest: skipped) only when Emscripten is not installed.
#   usage: run_wasm_test.sh <repo root> <build dir> <vocab dir from train_vocabularies.sh>
set -euo pipefail
root=$1
build=$2
vocab=$3
here=$(cd "$(dirname "$0")" && pwd)

command -v emcc >/dev/null || { echo "emcc not installed: skipping the wasm tokenizer test"; exit 77; }
export NODE_PATH=${NODE_PATH:-/usr/share/nodejs}

prefix=$("$root/scripts/build_sentencepiece_wasm.sh")
emcmake cmake -S "$here" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release \
  -DATTEND_SPM_WASM_PREFIX="$prefix" > "$build.configure.log" 2>&1 \
  || { cat "$build.configure.log"; exit 1; }
nice ninja -C "$build" -j1 tokenizer_wasm

model=$vocab/joint_unigram.model
files=()
for lang in en de; do
  text=$vocab/text/val.$lang
  spm_encode --model="$model" --output_format=id < "$text" > "$build/val.$lang.ids"
  spm_decode --model="$model" --input_format=id < "$build/val.$lang.ids" > "$build/val.$lang.decoded"
  files+=("$text" "$build/val.$lang.ids" "$build/val.$lang.decoded")
done
node "$here/run_wasm_test.mjs" "$build/tokenizer_wasm.cjs" "$model" "${files[@]}"
