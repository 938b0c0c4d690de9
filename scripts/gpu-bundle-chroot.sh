#!/usr/bin/env bash
# Runs a bundle of scripts/gpu-bundle.sh in a chroot that holds only the bundle, glibc, the shell
# tools gpu-check.sh uses (with their own libraries) and cuBLAS, none of Debian's -dev packages,
# SentencePiece, ICU or GoogleTest outside the bundle: on a machine without a GPU it shows the
# bundle starts and goes as far as it can (the parity tests skip naming the cause, the GPU bench
# is refused, the CPU bench runs). Needs root (chroot).
#   usage: scripts/gpu-bundle-chroot.sh [BUNDLE]    (default build/gpu-bundle)
set -euo pipefail
bundle=$(realpath "${1:-build/gpu-bundle}")
root=$(mktemp -d /tmp/attend-gpu-chroot.XXXXXX)
trap 'rm -rf "$root"' EXIT
cuda_lib=${CUDA_HOME:-/usr/local/cuda}/lib64

tools=(bash cat cut date dirname env grep gzip head mkdir nproc sed tail tee uname wc)
mkdir -p "$root/bin" "$root/lib64" "$root/lib/x86_64-linux-gnu" "$root/proc" "$root/tmp" "$root/cuda/lib64" "$root/dev"
mknod -m 666 "$root/dev/null" c 1 3
for t in "${tools[@]}"; do cp -L "$(command -v "$t")" "$root/bin/"; done
# The tools' libraries and glibc: every library of the tools, nothing the bundle's binaries need
# besides glibc (ldd below shows where theirs resolve).
for t in "${tools[@]}"; do ldd "$(command -v "$t")" || true; done | awk '$2 == "=>" && $3 ~ /^\// {print $3}' | sort -u |
  while read -r lib; do cp -L "$lib" "$root/lib/x86_64-linux-gnu/"; done
cp -L /lib64/ld-linux-x86-64.so.2 "$root/lib64/"
# glibc, as any Linux machine has it
for lib in libc.so.6 libm.so.6 libpthread.so.0 libdl.so.2 librt.so.1; do cp -L "/lib/x86_64-linux-gnu/$lib" "$root/lib/x86_64-linux-gnu/"; done
ln "$cuda_lib/libcublas.so.13" "$cuda_lib/libcublasLt.so.13" "$root/cuda/lib64/" 2>/dev/null ||
  cp "$cuda_lib/libcublas.so.13" "$cuda_lib/libcublasLt.so.13" "$root/cuda/lib64/"
cp -r "$bundle" "$root/bundle"
mount -t proc proc "$root/proc" 2>/dev/null || true

echo "chroot $root: $(ls "$root/lib/x86_64-linux-gnu" | tr '\n' ' ')"
echo "--- where the bundle's binaries find their libraries inside it"
chroot "$root" /bin/bash -c 'for b in /bundle/bin/*; do echo "$b"; LD_LIBRARY_PATH=/bundle/lib:/cuda/lib64 /lib64/ld-linux-x86-64.so.2 --list "$b" | sed "s/^/  /"; done'
echo "--- gpu-check.sh"
status=0
chroot "$root" /bin/env -i PATH=/bin CUDA_HOME=/cuda HOME=/tmp /bin/bash /bundle/gpu-check.sh /tmp/report.txt || status=$?
umount "$root/proc" 2>/dev/null || true
echo "--- gpu-check.sh exited $status"
