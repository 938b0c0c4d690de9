#!/usr/bin/env bash
# The whole GPU proof of the CUDA backend in one command (docs/cuda.md), in under 10 minutes:
# the parity tests against the CPU engine (logits, greedy and beam-5 ids on Multi30k test,
# attention capture, head masking), then `attend bench` on the GPU at greedy batch 1, 32 and 256
# and beam 5 (greedy also with ATTEND_CUDA_GRAPHS=0, every step launched eagerly: what the CUDA
# Graphs buy), and the CPU engine on the same settings in the same run; all of it written to a
# report file (default gpu-report-<UTC time>.txt in the current directory).
#
# Runs from the folder scripts/gpu-bundle.sh makes (bin/, lib/, models/, data/ beside it) on a
# machine with only the NVIDIA driver and CUDA's own libraries: cuBLAS is looked for, in this
# order, in LD_LIBRARY_PATH, $CUDA_HOME/lib64, /usr/local/cuda/lib64, then the nvidia/*/lib
# folders of the Python environment (python3 -c 'import nvidia'); the report says which was used.
#   usage: ./gpu-check.sh [REPORT_FILE]
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
report=${1:-$PWD/gpu-report-$(date -u +%Y%m%d-%H%M%S).txt}
bin=$here/bin
model=$here/models/en-de/model.int8.safetensors
sources=$here/data/test_2016_flickr.en.gz
for needed in "$bin/attend" "$bin/attend_gpu_parity_tests" "$model" "$sources"; do
  [ -e "$needed" ] || { echo "gpu-check: $needed is missing: run the copy that scripts/gpu-bundle.sh made" >&2; exit 2; }
done

say() { echo "$@" | tee -a "$report"; }
: > "$report"

# cuBLAS 13 (libcublas.so.13, libcublasLt.so.13): the first folder that has it.
has_cublas() { [ -n "$1" ] && [ -e "$1/libcublas.so.13" ] && [ -e "$1/libcublasLt.so.13" ]; }
cublas_dir="" cublas_from=""
IFS=: read -r -a ld_dirs <<< "${LD_LIBRARY_PATH:-}"
for dir in "${ld_dirs[@]}"; do has_cublas "$dir" && { cublas_dir=$dir cublas_from=LD_LIBRARY_PATH; break; }; done
if [ -z "$cublas_dir" ]; then
  for dir in "${CUDA_HOME:+$CUDA_HOME/lib64}" /usr/local/cuda/lib64; do
    has_cublas "$dir" && { cublas_dir=$dir cublas_from="CUDA_HOME or /usr/local/cuda"; break; }
  done
fi
if [ -z "$cublas_dir" ] && command -v python3 >/dev/null; then
  nvidia=$(python3 -c 'import nvidia, os; print(os.path.dirname(list(nvidia.__path__)[0]) + "/nvidia")' 2>/dev/null || true)
  for dir in "$nvidia"/*/lib; do has_cublas "$dir" && { cublas_dir=$dir cublas_from="python3's nvidia package"; break; }; done
fi
if [ -z "$cublas_dir" ]; then
  say "gpu-check: cuBLAS 13 (libcublas.so.13) not found in LD_LIBRARY_PATH, \$CUDA_HOME/lib64, /usr/local/cuda/lib64 or python3's nvidia/*/lib"
  exit 2
fi
export LD_LIBRARY_PATH=$here/lib:$cublas_dir${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
export ATTEND_TEST_MODEL=$model ATTEND_TEST_SOURCES=$sources

say "# Attend GPU check, $(date -u '+%Y-%m-%d %H:%M UTC')"
say "bundle    $here ($(cat "$here/BUNDLE" 2>/dev/null | head -n 1))"
say "cuBLAS    $cublas_dir (from $cublas_from)"
say "host      $(uname -srm), $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ *//')"
if command -v nvidia-smi >/dev/null; then
  say "GPU       $(nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader | head -n 1)"
fi
say ""

status=0
say "## Parity tests (GPU against the CPU engine)"
for tests in attend_cuda_check_tests attend_cuda_host_tests attend_gpu_parity_tests; do
  output=$("$bin/$tests" 2>&1)
  code=$?
  echo "$output" >> "$report"
  { echo "$output" | grep -E '^\[ *(PASSED|FAILED|SKIPPED) *\] [0-9]+ tests?'; echo "$output" | grep -m1 '^skipped: '; } |
    sed "s/^/$tests: /"
  [ $code -eq 0 ] || status=1
  if echo "$output" | grep -q '^\[  SKIPPED \]'; then
    say "gpu-check: $tests skipped tests: no usable GPU here, so nothing is proven (see the reason above)"
    status=1
  fi
done
[ $status -eq 0 ] && say "parity: every test passed" || say "parity: FAILED or skipped (details above)"
say ""

say "## attend bench: GPU and CPU on the same sentences ($(gzip -dc "$sources" | wc -l) Multi30k test lines)"
bench() {  # label, then attend bench options; the JSON report goes beside the report file
  local label=$1; shift
  "$bin/attend" bench --model "$model" --src "$sources" --json "$@" > "$report.$label.json" 2>>"$report" ||
    { say "bench $label failed: $(tail -n 1 "$report")"; status=1; return 1; }
}
if ! bench cuda-greedy --device cuda --beam 1 --batch 1,32,256 --threads 1; then
  say "gpu-check: FAILED, the GPU cannot run here, so there is nothing to compare the CPU with; report: $report"
  exit 1
fi
bench cuda-beam5 --device cuda --beam 5 --batch 32 --threads 1
ATTEND_CUDA_GRAPHS=0 bench cuda-greedy-eager --device cuda --beam 1 --batch 1,32,256 --threads 1  # what the graphs buy
bench cpu-greedy --beam 1 --batch 1,32,256 --threads "1,$(nproc)"
bench cpu-greedy-int8a --beam 1 --batch 1,32,256 --threads "1,$(nproc)" --int8-activations  # the CPU's fastest path
bench cpu-beam5 --beam 5 --batch 32 --threads "1,$(nproc)"
bench cpu-beam5-int8a --beam 5 --batch 32 --threads "1,$(nproc)" --int8-activations
if command -v python3 >/dev/null; then
  python3 - "$report" >> "$report" <<'PY'
import json, sys
base = sys.argv[1]
def runs(label):  # a CPU label's runs include its --int8-activations twin's
    found = []
    for name in (label, label + "-int8a") if label.startswith("cpu") else (label,):
        try:
            found += json.load(open(f"{base}.{name}.json"))["runs"]
        except (OSError, ValueError):
            pass
    return found
print(" beam  batch   GPU tok/s   best CPU tok/s (threads)   GPU/CPU   GPU p50 ms/sentence")
for label in ("greedy", "beam5"):
    for g in runs(f"cuda-{label}"):
        cpu = [c for c in runs(f"cpu-{label}") if c["batch"] == g["batch"]]
        if not cpu:
            continue
        c = max(cpu, key=lambda r: r["target_tokens_per_second"])
        ratio = g["target_tokens_per_second"] / c["target_tokens_per_second"]
        p50 = f"{g['latency_ms']['p50']:.3f}" if "latency_ms" in g else "-"
        print(f"{g['beam']:5} {g['batch']:6} {g['target_tokens_per_second']:11.0f} "
              f"{c['target_tokens_per_second']:16.0f} ({c['threads']}) {ratio:13.2f}x   {p50}")
eager = {r["batch"]: r for r in runs("cuda-greedy-eager")}
for g in runs("cuda-greedy"):
    if g["batch"] in eager:
        ratio = g["target_tokens_per_second"] / eager[g["batch"]]["target_tokens_per_second"]
        print(f"CUDA Graphs: greedy batch {g['batch']} {ratio:.2f}x the tokens/s of every step launched eagerly")
best_cpu = max((r["target_tokens_per_second"] for r in runs("cpu-greedy")), default=0)
for g in runs("cuda-greedy"):
    if g["batch"] == 256 and best_cpu:
        ratio = g["target_tokens_per_second"] / best_cpu
        print(f"\nspeed bar: greedy batch 256 on the GPU is {ratio:.1f}x the best CPU greedy figure here "
              f"(bar 20x): {'met' if ratio >= 20 else 'NOT met'}")
    if g["batch"] == 1 and "latency_ms" in g:
        p50 = g["latency_ms"]["p50"]
        print(f"speed bar: batch-1 latency p50 {p50:.3f} ms per sentence (bar: under 1 ms): "
              f"{'met' if p50 < 1 else 'NOT met'}")
PY
else
  say "(no python3: the JSON reports beside $report hold the figures)"
fi
tail -n 12 "$report"
say ""
say "gpu-check: $([ $status -eq 0 ] && echo 'done' || echo 'FAILED'); report: $report"
exit $status
