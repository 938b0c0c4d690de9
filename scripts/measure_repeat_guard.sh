#!/usr/bin/env bash
# The repeat guard's effect (TranslateOptions::max_repeats, `attend translate --max-repeats`): for the
# four shipped models, int8 beam 5, lowercased BLEU and chrF2 on Multi30k val and test_2016_flickr with the
# guard (default, 4) and without (0), the lines it changes, and the most consecutive copies of one n-gram (1-16 pieces) in any output
# line, with the number of lines holding more than 4; the same counts on tests/data/real_text/out_of_domain.en
# for the models that read English.
#   scripts/measure_repeat_guard.sh   (ATTEND_CLI, ATTEND_DATA as in scripts/evaluate.sh)
set -euo pipefail
cd "$(dirname "$0")/.."
data=${ATTEND_DATA:-../shared/data/multi30k}
cli=${ATTEND_CLI:-build/release/native/cli/attend}
[ -x "$cli" ] || { echo "measure_repeat_guard.sh: no $cli: build it or set ATTEND_CLI" >&2; exit 1; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
repeats() { /usr/bin/python3 training/measure_repeats.py --texts "$1" --model "$2"; }
# "BLEU / chrF2", lowercased
scores() { "$cli" eval --hyp "$1" --ref "$2" --lowercase | sed -n 's/^[BLEUchrF2]*|[^=]*= \([0-9.]*\).*/\1/p' | paste -sd/ | sed 's|/| / |'; }

printf '| model | set | BLEU / chrF2 lc, guard | BLEU / chrF2 lc, no guard | lines changed | copies, guard | copies, no guard |\n'
printf '| --- | --- | --- | --- | --- | --- | --- |\n'
for pair in en-de de-en en-fr fr-en; do
  IFS=- read -r src tgt <<<"$pair"
  model=models/$pair/model.int8.safetensors
  sets=(val test_2016_flickr)
  [ "$src" = en ] && sets+=(out_of_domain)
  for set in "${sets[@]}"; do
    if [ "$set" = out_of_domain ]; then input=tests/data/real_text/out_of_domain.en; else input=$data/$set.$src.gz; fi
    for repeats in 4 0; do
      zcat -f "$input" | "$cli" translate --model "$model" --beam 5 --max-repeats "$repeats" --threads 2 > "$tmp/$repeats"
    done
    changed=$(paste -d '\n' "$tmp/4" "$tmp/0" | paste - - | awk -F'\t' '$1 != $2' | wc -l)
    if [ "$set" = out_of_domain ]; then with=-; without=-; else
      with=$(scores "$tmp/4" "$data/$set.$tgt.gz"); without=$(scores "$tmp/0" "$data/$set.$tgt.gz"); fi
    printf '| %s | %s | %s | %s | %s | %s | %s |\n' "$pair" "$set" "$with" "$without" "$changed" \
      "$(repeats "$tmp/4" "$model")" "$(repeats "$tmp/0" "$model")"
  done
done
