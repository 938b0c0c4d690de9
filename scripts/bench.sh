#!/usr/bin/env bash
# The one benchmark command: builds what it needs, then runs Attend and its peers (PyTorch,
# ONNX Runtime for Node, and in Chromium Attend's WebAssembly build vs onnxruntime-web; on
# Marian's files, Attend's WebAssembly vs Bergamot's in Node and Chromium) on the same weights
# and sentences, and writes docs/benchmarks.md and bench/latest.json.
#   usage: scripts/bench.sh [bench/run.py options]     e.g. --lines 200 --skip browser,torch
#          scripts/bench.sh --only bergamot            (that section alone, into the last run's page)
#   (python3 bench/run.py --help lists them; --model FILE picks the model)
# Takes about 10-15 minutes on the 2-core development machine (see docs/benchmarks.md).
set -euo pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top"
build=$top/build/bench
log() { echo "[bench.sh $(date -u +%H:%M:%S)] $*" >&2; }

log "native build in $build"
if [ ! -f "$build/build.ninja" ]; then
  cmake -S "$top" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release -DATTEND_TESTS=OFF >&2
fi
nice ninja -C "$build" -j2 attend_cli attend_kernel_bench >&2

extra=()
log "WebAssembly build (scripts/build_wasm.sh)"
if ! scripts/build_wasm.sh >&2; then
  log "WARNING: the WebAssembly build failed; the browser part is skipped"
  extra+=(--skip browser)
fi

if [ ! -d node_modules/onnxruntime-node ] || [ ! -d node_modules/onnxruntime-web ] ||
   [ ! -d node_modules/playwright-core ]; then
  log "npm install (--ignore-scripts: onnxruntime-node's install script downloads; its CPU runtime is in the package)"
  npm install --no-audit --no-fund --ignore-scripts >&2
fi

# Debian's PyTorch (python3-torch) lives in the system Python.
python=/usr/bin/python3
[ -x "$python" ] || python=python3
started=$(date +%s)
"$python" bench/run.py --build "$build" "${extra[@]}" "$@"
log "done in $(( $(date +%s) - started )) s (after the builds)"
