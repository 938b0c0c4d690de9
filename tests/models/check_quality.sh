#!/usr/bin/env bash
# Translates the first N sentences of Multi30k test_2016_flickr with a shipped model and fails
# if the sample's BLEU falls below a floor: a broken export or kernel cannot land unnoticed.
#   check_quality.sh ATTEND_CLI MODEL SRC_LANG TGT_LANG FLOOR [N [TRANSLATE_OPTION...]]
set -euo pipefail
cli=$1 model=$2 src=$3 tgt=$4 floor=$5 n=${6:-100}
options=("${@:7}")
data=${ATTEND_DATA:-$(dirname "$0")/../../../shared/data/multi30k}
for f in "$model" "$data/test_2016_flickr.$src.gz" "$data/test_2016_flickr.$tgt.gz"; do
  [ -f "$f" ] || { echo "missing $f"; exit 1; }
done
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
head -n "$n" < <(zcat "$data/test_2016_flickr.$src.gz") > "$work/src"
head -n "$n" < <(zcat "$data/test_2016_flickr.$tgt.gz") > "$work/ref"
if ! "$cli" translate --model "$model" --beam 5 "${options[@]}" < "$work/src" > "$work/hyp" 2> "$work/err"; then
  cat "$work/err" >&2
  exit 1
fi
score=$("$cli" eval --hyp "$work/hyp" --ref "$work/ref" --lowercase)
echo "$score"
bleu=$(sed -n 's/^BLEU[^=]*= \([0-9.]*\).*/\1/p' <<<"$score")
head -n 3 "$work/hyp"
awk -v b="$bleu" -v f="$floor" 'BEGIN { if (b + 0 < f + 0) { printf "BLEU %s is below the floor %s\n", b, f; exit 1 } }'
