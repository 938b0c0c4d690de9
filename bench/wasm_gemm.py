"""The ceiling of wasm / native at batch: the weight GEMMs' rates in the WebAssembly SIMD128 build (in Node)
against the native build's best kernels on this CPU, at the model's shapes and a decoder step's row counts
(bench/gemm_rates.cpp, the same source in both builds; f32, int8-weight and int8 x int8 paths as the model
calls them, packed panels included). The runs alternate native and wasm --rounds times; each figure is the
best. With more than one --wasm build (e.g. kernels before and after a change) each gets its columns.

  python3 bench/wasm_gemm.py --native build/release --wasm build/wasm-simd [--wasm OTHER] [--rounds 3]

Builds attend_gemm_rates in each build directory first (ninja, under nice). Prints markdown (bench/report.py's;
bench/run.py records the same measurement for docs/benchmarks.md).
"""
import argparse
import json
import os
import subprocess

from report import wasm_gemm_markdown

def build(directory, jobs):
    # Debian's emcc runs its JS tools with node-acorn, found through NODE_PATH.
    env = {**os.environ, "NODE_PATH": os.environ.get("NODE_PATH", "/usr/share/nodejs")}
    subprocess.run(["nice", "-n", "10", "ninja", "-C", directory, jobs, "attend_gemm_rates"], check=True,
                   stdout=subprocess.DEVNULL, env=env)


def native_command(directory, ms):
    return [os.path.join(directory, "native", "bench", "attend_gemm_rates"), "--ms", str(ms)]


def wasm_command(directory, ms):
    # Emscripten 3.1's loader would fetch the .wasm by path with Node's global fetch.
    return ["node", "--no-experimental-fetch", os.path.join(directory, "wasm", "attend_gemm_rates.cjs"), "--ms", str(ms)]


def best_of(commands, rounds):
    """[{(kernel, m, n, k): GFLOP/s}] per command, the best of `rounds` alternating runs; and each run's ISA."""
    best, isas = [{} for _ in commands], [None] * len(commands)
    for _ in range(rounds):
        for i, command in enumerate(commands):
            out = json.loads(subprocess.run(command, check=True, stdout=subprocess.PIPE).stdout)
            isas[i] = out["isa"]
            for row in out["rows"]:
                key = (row["kernel"], row["m"], row["n"], row["k"])
                best[i][key] = max(best[i].get(key, 0.0), row["gflops"])
    return best, isas


def cpu_name():
    fields = {}
    with open("/proc/cpuinfo") as f:
        for line in f:
            key, _, value = line.partition(":")
            fields.setdefault(key.strip(), value.strip())
    return f"{fields.get('model name', '?')} (family {fields.get('cpu family', '?')}, model {fields.get('model', '?')})"


def measure(native_dir, wasm_dirs, rounds=3, ms=50, jobs="-j2"):
    """Builds and times both sides; JSON-ready: the CPU, the native ISA, the wasm builds' names and one row per
    (kernel, m, n, k) with the native rate and each wasm build's (report.wasm_gemm_markdown prints it)."""
    for directory in [native_dir] + wasm_dirs:
        build(directory, jobs)
    commands = [native_command(native_dir, ms)] + [wasm_command(w, ms) for w in wasm_dirs]
    best, isas = best_of(commands, rounds)
    names = [os.path.basename(os.path.normpath(w)) for w in wasm_dirs] if len(wasm_dirs) > 1 else ["wasm"]
    rows = [{"kernel": kernel, "m": m, "n": n, "k": k, "native": rate, "wasm": [w[(kernel, m, n, k)] for w in best[1:]]}
            for (kernel, m, n, k), rate in best[0].items()]
    return {"cpu": cpu_name(), "native_isa": isas[0], "builds": names, "rounds": rounds, "rows": rows}


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--native", required=True, help="a native build directory (CMake, ATTEND_BENCH on)")
    parser.add_argument("--wasm", action="append", required=True, help="a WebAssembly SIMD build directory")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--ms", type=float, default=50, help="least time of each shape's timing, per round")
    parser.add_argument("-j", dest="jobs", default="-j2")
    args = parser.parse_args()
    print(wasm_gemm_markdown(measure(args.native, args.wasm, args.rounds, args.ms, args.jobs)), end="")

if __name__ == "__main__":
    main()
