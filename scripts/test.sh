#!/usr/bin/env bash
# Sets up and runs every test: the native release build (unit, parity with PyTorch and
# spm_encode, damaged model files, CLI, WebAssembly in Node, the page in Chromium), the native
# tests again under AddressSanitizer + UndefinedBehaviorSanitizer, then in the CUDA build (nvcc,
# no GPU needed: the GPU parity tests report skipped), then a minute of coverage-guided fuzzing
# (libFuzzer, clang) per parser of untrusted bytes (tests/fuzz).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
jobs=$(nproc)

cmake --preset release >/dev/null
cmake --build --preset release -j "$jobs"
ctest --test-dir build/release --output-on-failure -j "$jobs" --timeout 1500

cmake --preset asan >/dev/null
cmake --build --preset asan -j "$jobs"
# The sanitizers watch native code; the wasm, browser and training (Python) tests already ran above.
ASAN_OPTIONS=detect_leaks=1 ctest --test-dir build/asan --output-on-failure -j "$jobs" --timeout 1500 \
  -E '(wasm|e2e|bench|training)'

# The CUDA backend compiled (sm_80, sm_90, PTX) and every native test run in that build: its
# host-side tests, the device refused with its cause, the CPU path unchanged by the backend's presence.
cmake --preset cuda >/dev/null
cmake --build --preset cuda -j "$jobs"
ctest --test-dir build/cuda --output-on-failure -j "$jobs" --timeout 1500 -E '(wasm|e2e|bench|training)'

cmake --preset fuzz >/dev/null
cmake --build --preset fuzz -j "$jobs"
ctest --test-dir build/fuzz --output-on-failure -j "$jobs"
