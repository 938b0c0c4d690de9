#!/usr/bin/env bash
# Sets up and runs every test: the native release build (unit, parity with PyTorch and
# spm_encode, damaged model files, CLI, WebAssembly in Node, the page in Chromium), the native
# tests again under AddressSanitizer + UndefinedBehaviorSanitizer, then the CUDA backend's and the
# engine's in the CUDA build (nvcc, no GPU needed: the GPU parity tests report skipped), then a minute of coverage-guided fuzzing
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
# The sanitizers watch native code; the wasm, browser, training (Python) and Bergamot tests already ran above.
ASAN_OPTIONS=detect_leaks=1 ctest --test-dir build/asan --output-on-failure -j "$jobs" --timeout 1500 \
  -E '(wasm|e2e|bench|training|bergamot)'

# The CUDA backend compiled (sm_80, sm_90, PTX) and the tests that meet it in that build: its
# host-side tests, the device refused with its cause, its kernels and host code under CPU
# emulation, and the engine's own tests (the search, parity with PyTorch, damaged and packed
# model files): the CPU path unchanged by the backend's presence. The text layers above the
# engine (core/src/pipeline, caption, html) hold no device code and are tested above.
cmake --preset cuda >/dev/null
cmake --build --preset cuda -j "$jobs" --target attend_cuda_host_tests attend_cuda_check_tests attend_gpu_parity_tests \
  attend_cuda_kernels_emulated_tests attend_gpu_parity_tests_emulated attend_decode_tests attend_engine_alone_tests \
  attend_model_tests attend_parity_tests
ctest --test-dir build/cuda --output-on-failure -j "$jobs" --timeout 1500 \
  -R '^(cuda_host|cuda_check|gpu_parity|cuda_emulated|gpu_parity_emulated|decode|engine_alone)\.|^(damaged_model|packed_weights\..*|parity)$'

cmake --preset fuzz >/dev/null
cmake --build --preset fuzz -j "$jobs"
ctest --test-dir build/fuzz --output-on-failure -j "$jobs"
