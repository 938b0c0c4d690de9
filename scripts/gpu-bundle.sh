#!/usr/bin/env bash
# Makes, on a machine without a GPU, the self-contained folder that proves the CUDA backend on a
# machine with one (scripts/gpu-check.sh, docs/cuda.md): the cuda preset's CLI and test binaries,
# every shared library they need besides glibc's, the driver and CUDA's own (cuBLAS), the shipped
# en-de model and the Multi30k test sources. At most 60 MB; the GPU machine needs no Debian
# package (no SentencePiece, ICU, GoogleTest), only the NVIDIA driver and cuBLAS 13.
#   usage: scripts/gpu-bundle.sh [FOLDER]      (default build/gpu-bundle)
#   ATTEND_CUDA_BUILD=DIR: take the binaries from DIR, a build configured with -DATTEND_CUDA=ON,
#   instead of the cuda preset's build/cuda
set -euo pipefail
cd "$(dirname "$0")/.."
out=$(realpath -m "${1:-build/gpu-bundle}")
binaries=(native/cli/attend tests/cuda/attend_gpu_parity_tests tests/cuda/attend_cuda_host_tests
          tests/cuda/attend_cuda_check_tests)
targets=(--target attend_cli attend_gpu_parity_tests attend_cuda_host_tests attend_cuda_check_tests)

build=${ATTEND_CUDA_BUILD:-build/cuda}
if [ -n "${ATTEND_CUDA_BUILD:-}" ]; then
  cmake --build "$build" "${targets[@]}"
else
  cmake --preset cuda >/dev/null
  cmake --build --preset cuda "${targets[@]}"
fi
data=${ATTEND_DATA:-$(cmake -L -N "$build" | sed -n 's/^ATTEND_MULTI30K_DIR:PATH=//p')}  # as the tests find it

rm -rf "$out"
mkdir -p "$out/bin" "$out/lib" "$out/models/en-de" "$out/data"
for b in "${binaries[@]}"; do cp "$build/$b" "$out/bin/"; done
cp models/en-de/model.int8.safetensors "$out/models/en-de/"
cp "$data/test_2016_flickr.en.gz" "$out/data/"
cp scripts/gpu-check.sh "$out/"

# The libraries the binaries load, but not glibc's (the GPU machine's own must match its kernel),
# the driver's (libcuda) nor cuBLAS (NVIDIA's, found there by gpu-check.sh).
for b in "$out"/bin/*; do ldd "$b"; done | awk '$2 == "=>" && $3 ~ /^\// {print $3}' | sort -u | while read -r lib; do
  case $(basename "$lib") in
    libc.so.*|libm.so.*|libpthread.so.*|libdl.so.*|librt.so.*|ld-linux*|libcuda.so*|libcublas*) ;;
    *) cp -L "$lib" "$out/lib/" ;;
  esac
done

{
  echo "commit $(git rev-parse --short HEAD)$(git diff --quiet HEAD -- core native tests/cuda || echo ' plus uncommitted changes'), built $(date -u '+%Y-%m-%d %H:%M UTC') on $(uname -srm)"
  echo "glibc $(ldd --version | head -n 1 | awk '{print $NF}') or newer is needed (the binaries link the build machine's)"
  echo "bin/: $(cd "$out/bin" && echo *)"
  echo "lib/: $(cd "$out/lib" && echo *)"
  echo "run: ./gpu-check.sh [REPORT_FILE]"
} > "$out/BUNDLE"

size=$(du -sm "$out" | cut -f1)
echo "gpu-bundle: $out, ${size} MB"
cat "$out/BUNDLE"
if [ "$size" -gt 60 ]; then
  echo "gpu-bundle: ${size} MB is over the 60 MB the GPU machine takes" >&2
  exit 1
fi
