#!/usr/bin/env bash
# Makes the Marian model files the tests compare Attend with Bergamot on (issue 65,
# docs/marian.md): a small Firefox-Translations-style student (an SSRU decoder, one shared
# SentencePiece vocabulary with Marian's ids) trained briefly on Multi30k en-de, written as
# Marian writes it: float32 and intgemm8-with-alphas .bin, vocab.ende.spm, and a lexical shortlist; and a small
# OPUS-MT-style transformer as OPUS-MT releases it (.npz, vocab.yml, source.spm, target.spm, decoder.yml; its README.md
# and LICENSE are written by hand). Minutes of training on 2 cores: run once, the files are committed in
# tests/marian/fixtures/ (a run directory is kept in $RUN_DIR to resume).
#
#   training/make_marian_fixtures.sh [RUN_DIR]      (default /tmp/attend-marian-fixtures)
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
run=${1:-/tmp/attend-marian-fixtures}
unset OPENBLAS_CORETYPE OPENBLAS_L2_SIZE  # training picks its own kernels (training/attend_ref/openblas.py)

# d 128, 8 heads, FFN 512, 3 encoder and 2 SSRU decoder layers: Firefox's `tiny` student shrunk to
# keep the committed float32 .bin near 5 MB.
/usr/bin/python3 "$top/training/train.py" --marian --decoder-autoreg ssru --pair en-de \
  --out "$run/ssru-ende" --vocab-size 2000 --d-model 128 --heads 8 --d-ff 512 \
  --encoder-layers 3 --decoder-layers 2 --max-steps 2400 --warmup 400
out="$top/tests/marian/fixtures/ssru-ende"
/usr/bin/python3 "$top/training/export_marian.py" "$run/ssru-ende/model.f32.safetensors" --out "$out" --intgemm8-alphas
data=${ATTEND_MULTI30K_DIR:-$top/../shared/data/multi30k}
/usr/bin/python3 "$top/training/make_shortlist.py" --spm "$out/vocab.ende.spm" --src "$data/train.en.gz" \
  --tgt "$data/train.de.gz" --out "$out/lex.50.50.ende.s2t.bin"

# OPUS-MT's layout (tests/marian/fixtures/opus-ende): a Marian transformer with a self-attention
# decoder and swish, as OPUS-MT's are (6+6 layers and d 512 there; 2+2 and d 128 here to keep the
# committed .npz near 4 MB), written as .npz with vocab.yml, source.spm, target.spm and decoder.yml.
/usr/bin/python3 "$top/training/train.py" --marian --activation swish --pair en-de \
  --out "$run/opus-ende" --vocab-size 2000 --d-model 128 --heads 8 --d-ff 256 \
  --encoder-layers 2 --decoder-layers 2 --max-steps 1600 --warmup 400
opus="$top/tests/marian/fixtures/opus-ende"
/usr/bin/python3 "$top/training/export_marian.py" "$run/opus-ende/model.f32.safetensors" --out "$opus" --opus-mt
