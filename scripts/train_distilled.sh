#!/usr/bin/env bash
# Trains one translation direction by sequence-level distillation, end to end: a teacher with the
# given recipe (runs/<pair>-teacher), then a student with the same recipe on the training pairs
# plus the teacher's beam-5 translations of the training source (runs/<pair>-distilled); each is scored.
#   scripts/train_distilled.sh en-de [train.py options, the same for both models]
set -euo pipefail
cd "$(dirname "$0")/.."
pair=${1:?usage: scripts/train_distilled.sh SRC-TGT [train.py options]}
shift
scripts/train.sh "$pair" "$@" --out "runs/$pair-teacher"  # its scoring builds the attend CLI, which decodes the teacher's translations
scripts/train.sh "$pair" "$@" --out "runs/$pair-distilled" --distill-from "runs/$pair-teacher/model.int8.safetensors"
