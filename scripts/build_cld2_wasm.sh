#!/usr/bin/env bash
# Builds CLD2 (Chromium's Compact Language Detector 2) as a static WebAssembly library with
# Emscripten, from the Debian source of the very version installed natively (libcld2-dev), and
# with the same files as Debian's libcld2.so, which the native build links: upstream's
# compile_libs.sh's first library, the smaller ("chrome") table set of 83 languages, not
# libcld2_full's. So native and wasm detect alike. Idempotent: a finished build is reused.
# Progress goes to stderr; the install prefix (include/ + lib/) is the only thing printed on stdout.
#   usage: scripts/build_cld2_wasm.sh [root]   (default: third_party/cld2-wasm)
set -euo pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
root=${1:-$top/third_party/cld2-wasm}
prefix=$root/install
version=$(dpkg-query -W -f='${source:Version}' libcld2-dev)
stamp=$prefix/built-from-$version

if [ -f "$stamp" ]; then
  echo "$prefix"
  exit 0
fi
command -v em++ >/dev/null || { echo "em++ not found: install emscripten (scripts/setup.sh)" >&2; exit 1; }
export NODE_PATH=${NODE_PATH:-/usr/share/nodejs}

mkdir -p "$root/src"
upstream=${version%-*}
source_dir=$root/src/cld2-$upstream
if [ ! -d "$source_dir" ]; then
  echo "fetching the Debian source of cld2 $version" >&2
  # apt-get source unpacks it as cld2-<upstream>. Where the mirror serves the .dsc and the upstream
  # tarball but not Debian's packaging (debian.tar.xz: its CMake files and patches, none of which
  # touch the detector's code), the upstream tarball is checked against the .dsc and unpacked.
  if ! (cd "$root/src" && apt-get source -qq "cld2=$version" >&2); then
    orig=$root/src/cld2_$upstream.orig.tar.gz
    dsc=$root/src/cld2_$version.dsc
    [ -f "$orig" ] && [ -f "$dsc" ] || { echo "apt-get source cld2=$version failed" >&2; exit 1; }
    want=$(awk '/^Checksums-Sha256:/ {s = 1; next} /^[^ ]/ {s = 0} s && $3 == "'"$(basename "$orig")"'" {print $1}' "$dsc")
    [ -n "$want" ] && [ "$(sha256sum "$orig" | cut -d' ' -f1)" = "$want" ] \
      || { echo "$orig does not match the sha256 of $dsc" >&2; exit 1; }
    echo "Debian's packaging of cld2 $version could not be fetched; building its upstream tarball, checked against the .dsc" >&2
    mkdir -p "$source_dir"
    tar -xzf "$orig" -C "$source_dir" --strip-components=1
  fi
fi

# libcld2.so's sources, as compile_libs.sh lists them (and Debian builds them).
sources="cldutil.cc cldutil_shared.cc compact_lang_det.cc compact_lang_det_hint_code.cc
  compact_lang_det_impl.cc debug.cc fixunicodevalue.cc
  generated_entities.cc generated_language.cc generated_ulscript.cc
  getonescriptspan.cc lang_script.cc offsetmap.cc scoreonescriptspan.cc
  tote.cc utf8statetable.cc
  cld_generated_cjk_uni_prop_80.cc cld2_generated_cjk_compatible.cc
  cld_generated_cjk_delta_bi_4.cc generated_distinct_bi_0.cc
  cld2_generated_quadchrome_2.cc cld2_generated_deltaoctachrome.cc
  cld2_generated_distinctoctachrome.cc cld_generated_score_quad_octa_2.cc"
grep -q "cld2_generated_quadchrome_2.cc" "$source_dir/internal/compile_libs.sh" \
  || { echo "$source_dir/internal/compile_libs.sh no longer lists these files: check the list" >&2; exit 1; }

build_dir=$root/build
mkdir -p "$build_dir"
echo "building libcld2.a with Emscripten in $build_dir" >&2
objects=()
for file in $sources; do
  object=$build_dir/${file%.cc}.o
  # The generated tables narrow int constants into char arrays, which C++11 refuses; CLD2 is C++98.
  [ -f "$object" ] || nice em++ -O2 -std=c++98 -Wno-c++11-narrowing -c "$source_dir/internal/$file" -o "$object" >&2
  objects+=("$object")
done
rm -f "$build_dir/libcld2.a"
emar rcs "$build_dir/libcld2.a" "${objects[@]}" >&2

rm -rf "$prefix"
mkdir -p "$prefix/lib" "$prefix/include/cld2/public" "$prefix/include/cld2/internal"
cp "$build_dir/libcld2.a" "$prefix/lib/"
cp "$source_dir"/public/*.h "$prefix/include/cld2/public/"
cp "$source_dir"/internal/*.h "$prefix/include/cld2/internal/"  # the public headers include some
touch "$stamp"
echo "$prefix"
