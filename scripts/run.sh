#!/usr/bin/env bash
# The main job on the shipped default model: sets up, builds, translates with the CLI, then
# serves the offline translator page on 127.0.0.1 (Ctrl-C to stop).
#   scripts/run.sh [port]
set -euo pipefail
cd "$(dirname "$0")/.."
port=${1:-8080}
scripts/setup.sh
scripts/build.sh release
model=models/en-de/model.int8.safetensors
cli=build/release/native/cli/attend
echo
echo "== attend inspect $model"
"$cli" inspect "$model"
echo
echo "== attend translate (English -> German, beam 5)"
printf '%s\n' "A man in a blue shirt is riding a bike down the street." \
  "Two dogs are playing in the snow." | "$cli" translate --model "$model" --beam 5
echo
echo "== the page (Ctrl-C to stop)"
exec node scripts/serve.mjs --port "$port"
