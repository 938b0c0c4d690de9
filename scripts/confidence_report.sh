#!/usr/bin/env bash
# Reproduces docs/confidence.md: how well `attend translate --confidence` (attend::confidence, the mean
# token log-probability of a line's least confident sentence) follows translation quality. en-de and
# en-fr, int8, beam 5: Multi30k val (where kLowConfidence is chosen) and test_2016_flickr (held out),
# each line's confidence and sentence chrF2 (`attend eval` on the line), the reverse model's mean token
# log p of the source given the translation (`attend score`), and tests/data/real_text/out_of_domain.en.
#   scripts/confidence_report.sh [OUT.md]   (default docs/confidence.md; ATTEND_CLI, ATTEND_DATA as in
#                                             scripts/evaluate.sh)
set -euo pipefail
cd "$(dirname "$0")/.."
out=${1:-docs/confidence.md}
data=${ATTEND_DATA:-../shared/data/multi30k}
cli=${ATTEND_CLI:-build/release/native/cli/attend}
[ -x "$cli" ] || { echo "confidence_report.sh: no $cli: build it or set ATTEND_CLI" >&2; exit 1; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
for pair in en-de en-fr; do
  IFS=- read -r src tgt <<<"$pair"
  for set in val test_2016_flickr out_of_domain; do
    if [ "$set" = out_of_domain ]; then zcat -f tests/data/real_text/out_of_domain.en; else zcat "$data/$set.$src.gz"; fi \
      > "$work/$pair.$set.src"
    "$cli" translate --model "models/$pair/model.int8.safetensors" --beam 5 --threads 2 --confidence \
      < "$work/$pair.$set.src" > "$work/$pair.$set.confidence"
    [ "$set" = out_of_domain ] && continue
    zcat "$data/$set.$tgt.gz" > "$work/$pair.$set.ref"
    cut -f3- "$work/$pair.$set.confidence" > "$work/$pair.$set.hyp"
    # log p(source | translation) under the reverse model, `log_prob<TAB>tokens` per line.
    "$cli" score --model "models/$tgt-$src/model.int8.safetensors" --src "$work/$pair.$set.hyp" \
      --tgt "$work/$pair.$set.src" --threads 2 > "$work/$pair.$set.reverse"
  done
done
/usr/bin/python3 scripts/confidence_stats.py --cli "$cli" --work "$work" --out "$out"
echo "wrote $out" >&2
