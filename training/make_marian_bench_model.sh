#!/usr/bin/env bash
# Makes the Marian model the Bergamot benchmark (bench/run.py --only bergamot, issue 65) compares
# Attend with at the real dimensions of Firefox Translations' `tiny` students: d_model 256, 8 heads,
# FFN 1536, 6 encoder layers, 2 SSRU decoder layers, tied embeddings and one shared SentencePiece
# vocabulary, intgemm8 with alphas and a lex.50.50 shortlist. Trained briefly on Multi30k en-de
# with the recipe of training/make_marian_fixtures.sh (whose committed fixture is the same
# architecture shrunk to d 128); quality is not the point (a speed fixture), only that it writes
# normal-length German without loops. Firefox's vocabulary is 32000; SentencePiece makes at most ~20990 pieces
# from Multi30k en+de, so this one has 20000.
#
# The files are written as Firefox lays them out (model.ende.bin float32,
# model.ende.intgemm.alphas.bin, vocab.ende.spm, lex.50.50.ende.s2t.bin) to bench/models/ssru-tiny-ende/,
# which is NOT committed (.gitignore: about 70 MB); bench/run.py measures it when the folder exists.
# Training is ATTEND_BENCH_STEPS (450) then ATTEND_BENCH_MORE_STEPS (180) steps of batches of 2,500 tokens
# (about 3 epochs): 40 + 12 minutes on a shared 2-core machine at load 5-10 (400-600 target tokens/s).
# A run directory is kept in RUN_DIR to resume.
#
#   training/make_marian_bench_model.sh [RUN_DIR]      (default /tmp/attend-marian-bench-model)
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
run=${1:-/tmp/attend-marian-bench-model}
steps=${ATTEND_BENCH_STEPS:-450}
more=${ATTEND_BENCH_MORE_STEPS:-180}
unset OPENBLAS_CORETYPE OPENBLAS_L2_SIZE  # training picks its own kernels (training/attend_ref/openblas.py)

dims=(--marian --decoder-autoreg ssru --pair en-de --vocab-size 20000 --d-model 256 --heads 8 --d-ff 1536
      --encoder-layers 6 --decoder-layers 2)
/usr/bin/python3 "$top/training/train.py" "${dims[@]}" --out "$run/ssru-tiny-ende" \
  --max-steps "$steps" --warmup $((steps / 6))
# After the first schedule its sentences run on (30-40 words of "und einem schwarzen Hemd ..."); a second
# short one without dropout from its weights brings them to normal length. Its German hardly depends on the
# source: without the shortlist the first 6 test lines all get one sentence, one at a time or together
# (`attend translate --no-shortlist`, --batch 1 or 32; PyTorch's greedy search alike). With it, each line
# alone is held to its own shortlist's words and so reads differently (Bergamot writes the same); in one
# batch they share the batch's shortlist and are one sentence again. A speed fixture, not a translator.
/usr/bin/python3 "$top/training/train.py" "${dims[@]}" --out "$run/ssru-tiny-ende-more" \
  --init-from "$run/ssru-tiny-ende/model.f32.safetensors" --max-steps "$more" --warmup 20 --lr 1e-3 --dropout 0.0
out="$top/bench/models/ssru-tiny-ende"
/usr/bin/python3 "$top/training/export_marian.py" "$run/ssru-tiny-ende-more/model.f32.safetensors" --out "$out" --intgemm8-alphas
data=${ATTEND_MULTI30K_DIR:-$top/../shared/data/multi30k}
/usr/bin/python3 "$top/training/make_shortlist.py" --spm "$out/vocab.ende.spm" --src "$data/train.en.gz" \
  --tgt "$data/train.de.gz" --out "$out/lex.50.50.ende.s2t.bin"
