#!/usr/bin/env bash
# Runs a wasm test command, or exits 77 (ctest: skipped) when Emscripten is not installed.
set -euo pipefail
command -v emcc >/dev/null || { echo "emcc not installed: skipping the WebAssembly tests"; exit 77; }
exec "$@"
