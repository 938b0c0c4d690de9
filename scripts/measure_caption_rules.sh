#!/usr/bin/env bash
# What the caption layer (core/src/caption) does to each shipped model's translations of Multi30k
# val: BLEU and chrF with its rules and without, and the lines they change (the first few shown).
# Model choices are made on val; test_2016_flickr is not read here.
#   scripts/measure_caption_rules.sh [PAIR ...]   (default: every models/*-* pair; beam 5)
set -euo pipefail
cd "$(dirname "$0")/.."
data=${ATTEND_DATA:-../shared/data/multi30k}
cli=${ATTEND_CLI:-build/release/native/cli/attend}
[ -x "$cli" ] || { cmake --preset release >/dev/null && cmake --build --preset release --target attend_cli; }
pairs=("$@")
[ ${#pairs[@]} -gt 0 ] || pairs=($(cd models && ls -d *-*))
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
printf '| model | rules | BLEU | chrF2 | val lines changed |\n| --- | --- | --- | --- | --- |\n'
for pair in "${pairs[@]}"; do
  IFS=- read -r src tgt <<<"$pair"
  for rules in on off; do
    "$cli" translate --model "models/$pair/model.int8.safetensors" --beam 5 --caption-rules "$rules" \
      < <(zcat "$data/val.$src.gz") > "$work/$pair.$rules"
  done
  changed=$(paste -d '\t' "$work/$pair.on" "$work/$pair.off" | awk -F '\t' '$1 != $2' | wc -l)
  for rules in on off; do
    scores=$("$cli" eval --hyp "$work/$pair.$rules" --ref "$data/val.$tgt.gz")
    bleu=$(sed -n 's/^BLEU[^=]*= \([0-9.]*\).*/\1/p' <<<"$scores")
    chrf=$(sed -n 's/^chrF[^=]*= \([0-9.]*\).*/\1/p' <<<"$scores")
    printf '| %s | %s | %s | %s | %s |\n' "$pair" "$rules" "$bleu" "$chrf" "$changed"
  done
  paste -d '\t' <(zcat "$data/val.$src.gz") "$work/$pair.on" "$work/$pair.off" |
    awk -F '\t' -v pair="$pair" '$2 != $3 && shown++ < 5 { printf "%s changed: %s\n  on:  %s\n  off: %s\n", pair, $1, $2, $3 > "/dev/stderr" }'
done
