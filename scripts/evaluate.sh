#!/usr/bin/env bash
# BLEU and chrF of a run's exported models on Multi30k val and test_2016_flickr: f32 and int8,
# beam 1 and 5, cased and lowercased (the figures of the model cards).
#   scripts/evaluate.sh DIR_WITH_MODEL_FILES SRC-TGT [attend translate options, e.g. --alpha 1.0]
set -euo pipefail
cd "$(dirname "$0")/.."
dir=$1
IFS=- read -r src tgt <<<"$2"
shift 2
data=${ATTEND_DATA:-../shared/data/multi30k}
cli=${ATTEND_CLI:-build/release/native/cli/attend}
[ -x "$cli" ] || { cmake --preset release >/dev/null && cmake --build --preset release --target attend_cli; }
[ -f "$dir/model.f32.safetensors" ] || [ -f "$dir/model.int8.safetensors" ] || { echo "evaluate.sh: no model.f32/int8.safetensors in $dir" >&2; exit 1; }
printf '| model | set | beam | BLEU | BLEU (lowercased) | chrF2 |\n| --- | --- | --- | --- | --- | --- |\n'
for dtype in f32 int8; do
  model="$dir/model.$dtype.safetensors"
  [ -f "$model" ] || continue
  for set in val test_2016_flickr; do
    for beam in 1 5; do
      hyp=$(mktemp)
      "$cli" translate --model "$model" --beam "$beam" --batch 32 "$@" < <(zcat "$data/$set.$src.gz") > "$hyp"
      cased=$("$cli" eval --hyp "$hyp" --ref "$data/$set.$tgt.gz")
      lower=$("$cli" eval --hyp "$hyp" --ref "$data/$set.$tgt.gz" --lowercase)
      bleu=$(sed -n 's/^BLEU[^=]*= \([0-9.]*\).*/\1/p' <<<"$cased")
      bleu_lc=$(sed -n 's/^BLEU[^=]*= \([0-9.]*\).*/\1/p' <<<"$lower")
      chrf=$(sed -n 's/^chrF[^=]*= \([0-9.]*\).*/\1/p' <<<"$cased")
      printf '| %s | %s | %s | %s | %s | %s |\n' "$dtype" "$set" "$beam" "$bleu" "$bleu_lc" "$chrf"
      rm -f "$hyp"
    done
  done
done
