#!/usr/bin/env bash
# Trains one translation direction on Multi30k end to end, then scores the exported models.
#   scripts/train.sh en-de [extra training/train.py options]
# Reads ../shared/data/multi30k (see README); writes runs/<pair>/ (not committed).
set -euo pipefail
cd "$(dirname "$0")/.."
pair=${1:?usage: scripts/train.sh SRC-TGT [train.py options]}
shift
# OpenBLAS tuning variables of this machine's shell slow training down; tests keep them.
env -u OPENBLAS_CORETYPE -u OPENBLAS_L2_SIZE /usr/bin/python3 training/train.py \
  --pair "$pair" --out "runs/$pair" --threads "$(nproc)" "$@"
scripts/evaluate.sh "runs/$pair" "$pair"
