#!/usr/bin/env bash
# Test fixture: decompresses Multi30k into <out>/text/ and trains the test vocabularies
# into <out>/ with Debian's spm_train. Reuses what a previous run made (delete <out> to redo).
#   usage: train_vocabularies.sh <multi30k dir> <out dir>
#   joint_unigram.model  8000-piece unigram, train.en + train.de
#   fr_bpe.model         8000-piece BPE, train.fr
#   bytes_bpe.model      1000-piece BPE with byte fallback and case folding, train.{en,de,fr}
set -euo pipefail
data=$1
out=$2
mkdir -p "$out/text"

for split in train val test_2016_flickr; do
  for lang in en de fr; do
    [ -s "$out/text/$split.$lang" ] || zcat "$data/$split.$lang.gz" > "$out/text/$split.$lang"
  done
done

train() {
  local name=$1; shift
  [ -s "$out/$name.model" ] && return
  echo "training $name" >&2
  spm_train --model_prefix="$out/$name" --num_threads=2 --minloglevel=1 "$@" 2> "$out/$name.log"
}
t=$out/text
train joint_unigram --input="$t/train.en,$t/train.de" --model_type=unigram --vocab_size=8000
train fr_bpe --input="$t/train.fr" --model_type=bpe --vocab_size=8000
train bytes_bpe --input="$t/train.en,$t/train.de,$t/train.fr" --model_type=bpe --vocab_size=1000 \
  --byte_fallback=true --character_coverage=0.98 --normalization_rule_name=nmt_nfkc_cf
ls "$out"/*.model
