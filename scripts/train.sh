#!/usr/bin/env bash
# Trains one translation direction on Multi30k end to end, then scores the exported models.
#   scripts/train.sh en-de [extra training/train.py options]
# Reads ../shared/data/multi30k (see README); writes runs/<pair>/ (not committed), or the --out given.
set -euo pipefail
cd "$(dirname "$0")/.."
pair=${1:?usage: scripts/train.sh SRC-TGT [train.py options]}
shift
out=runs/$pair  # train.py takes the last --out (and --data-dir) given
data=${ATTEND_DATA:-../shared/data/multi30k}
for ((i = 1; i <= $#; i++)); do
  case ${!i} in
    --out) next=$((i + 1)); out=${!next-} ;;
    --out=*) out=${!i#--out=} ;;
    --data-dir) next=$((i + 1)); data=${!next-} ;;
    --data-dir=*) data=${!i#--data-dir=} ;;
  esac
done
# OpenBLAS tuning variables of this machine's shell slow training down (train.py picks the
# kernels itself); tests keep them. glibc's malloc keeps freed memory instead of returning every
# large tensor to the kernel and faulting it in again the next step (12% of a run's CPU time was
# system time; bench/train_step.py: 1.61 -> 0.45 s of it, 1.89 -> 1.65 s per step on a busy machine).
env -u OPENBLAS_CORETYPE -u OPENBLAS_L2_SIZE \
  MALLOC_MMAP_THRESHOLD_=1000000000 MALLOC_TRIM_THRESHOLD_=100000000000 MALLOC_TOP_PAD_=1000000000 \
  /usr/bin/python3 training/train.py \
  --pair "$pair" --out "$out" --data-dir "$data" --threads "$(nproc)" "$@"
ATTEND_DATA=$data scripts/evaluate.sh "$out" "$pair"  # scored on the data it trained on
