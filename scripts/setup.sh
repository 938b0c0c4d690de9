#!/usr/bin/env bash
# Installs every system dependency of Attend from Debian packages and npm. Idempotent.
set -euo pipefail

packages=(
  build-essential cmake ninja-build pkg-config git ca-certificates
  libeigen3-dev nlohmann-json3-dev libgtest-dev libgmock-dev libbenchmark-dev
  libsentencepiece-dev sentencepiece libicu-dev
  libopenblas-dev libopenblas0-pthread
  python3 python3-torch python3-numpy
  emscripten node-acorn clang-19 lld-19
  chromium
  dpkg-dev zlib1g-dev
  clang libclang-rt-dev
  libcpp-httplib-dev libcld2-dev haproxy
)

sudo_if_needed() { if [ "$(id -u)" -eq 0 ]; then "$@"; else sudo "$@"; fi; }

command -v node >/dev/null && command -v npm >/dev/null || packages+=(nodejs npm)
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  sudo_if_needed apt-get update -qq
  sudo_if_needed env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi

# PyTorch and the benches must use OpenBLAS, not the reference BLAS (~40x slower).
for alt in libblas.so.3-x86_64-linux-gnu liblapack.so.3-x86_64-linux-gnu; do
  target=$(update-alternatives --list "$alt" 2>/dev/null | grep openblas-pthread | head -n 1 || true)
  [ -n "$target" ] && sudo_if_needed update-alternatives --set "$alt" "$target" >/dev/null
done

# deb-src entry, so the SentencePiece source can be compiled with Emscripten for the wasm build.
if ! grep -rqs '^Types:.*deb-src\|^deb-src' /etc/apt/sources.list /etc/apt/sources.list.d/; then
  if [ -f /etc/apt/sources.list.d/debian.sources ]; then
    sudo_if_needed sed -i 's/^Types: deb$/Types: deb deb-src/' /etc/apt/sources.list.d/debian.sources
  else
    sudo_if_needed sh -c "grep '^deb ' /etc/apt/sources.list | sed 's/^deb /deb-src /' >> /etc/apt/sources.list"
  fi
  sudo_if_needed apt-get update -qq
fi

# npm packages (playwright-core drives Debian's chromium, no browser download; axe-core checks
# accessibility in tests/e2e/accessibility.test.mjs; @browsermt/bergamot-translator is Marian in
# WebAssembly, the oracle tests/marian/bergamot.mjs runs; libretranslate is the LibreTranslate client
# tests/server/libretranslate_client_test.mjs drives `attend serve` with).
top=$(cd "$(dirname "$0")/.." && pwd)
if [ -f "$top/package.json" ] && { [ ! -d "$top/node_modules/playwright-core" ] || [ ! -d "$top/node_modules/axe-core" ] ||
                                   [ ! -d "$top/node_modules/@browsermt/bergamot-translator" ] ||
                                   [ ! -d "$top/node_modules/libretranslate" ]; }; then
  (cd "$top" && npm install --no-audit --no-fund --ignore-scripts)
fi

# nvcc for the optional CUDA backend (the cuda preset, which scripts/test.sh builds): looked for
# where CMake looks, on PATH, in $CUDA_HOME/bin, in /usr/local/cuda/bin. The toolkit is NVIDIA's,
# not a Debian package, so nothing is installed here; a GPU is not needed to build or test.
nvcc=$(command -v nvcc || true)
for dir in "${CUDA_HOME:-}" /usr/local/cuda; do
  [ -z "$nvcc" ] && [ -n "$dir" ] && [ -x "$dir/bin/nvcc" ] && nvcc="$dir/bin/nvcc"
done
if [ -n "$nvcc" ]; then
  echo "setup: nvcc for the cuda preset: $nvcc ($("$nvcc" --version | sed -n 's/.*release \([0-9.]*\).*/CUDA \1/p'))"
else
  echo "setup: no nvcc (not on PATH, not in \$CUDA_HOME/bin, not in /usr/local/cuda/bin): the cuda preset" \
       "(-DATTEND_CUDA=ON) cannot be built; install the CUDA toolkit 13 or set CUDA_HOME" >&2
fi

