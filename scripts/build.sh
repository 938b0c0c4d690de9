#!/usr/bin/env bash
# Builds the native release (the `attend` CLI, tests, benches) and both WebAssembly variants.
#   scripts/build.sh [preset]     (default: release; see CMakePresets.json)
set -euo pipefail
cd "$(dirname "$0")/.."
preset=${1:-release}
cmake --preset "$preset" >/dev/null
cmake --build --preset "$preset" -j "$(nproc)"
scripts/build_wasm.sh
