"""The ceiling of wasm / native at batch: the weight GEMMs' rates in the WebAssembly SIMD128 build (in Node)
against the native build's best kernels on this CPU, at the model's shapes and a decoder step's row counts
(bench/gemm_rates.cpp, the same source in both builds; f32, int8-weight and int8 x int8 paths as the model
calls them, packed panels included). The runs alternate native and wasm --rounds times; each figure is the
best. With more than one --wasm build (e.g. kernels before and after a change) each gets its columns.

  python3 bench/wasm_gemm.py --native build/release --wasm build/wasm-simd [--wasm OTHER] [--rounds 3]

Builds attend_gemm_rates in each build directory first (ninja, under nice). Prints markdown.
"""
import argparse
import json
import os
import subprocess

from report import table

KERNELS = [("f32", "f32"), ("i8w", "int8 weights"), ("i8i8", "int8 × int8")]
MANY_ROWS = 32  # rows from which a batched decoder step's GEMMs run on the register tiles at full rate


def build(directory, jobs):
    subprocess.run(["nice", "-n", "10", "ninja", "-C", directory, jobs, "attend_gemm_rates"], check=True,
                   stdout=subprocess.DEVNULL)


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


def markdown(native, wasms, isas, names):
    header = ["m", "n × k"]
    for _, label in KERNELS:
        header += [f"{label} native ({isas[0]})"] + [f"{label} {name}" for name in names] + \
                  [f"{label} {name} / native" for name in names]
    rows = []
    for (kernel, m, n, k) in native:
        if kernel != KERNELS[0][0]:
            continue
        row = [m, f"{n} × {k}"]
        for name, _ in KERNELS:
            key = (name, m, n, k)
            row += [f"{native[key]:.1f}"] + [f"{w[key]:.1f}" for w in wasms] + \
                   [f"**{w[key] / native[key]:.2f}×**" for w in wasms]
        rows.append(row)
    summary = []
    for name, label in KERNELS:
        for wasm_name, w in zip(names, wasms):
            ratios = [w[key] / native[key] for key in native if key[0] == name and key[1] >= MANY_ROWS]
            summary.append(f"{label} ({wasm_name}) {min(ratios):.2f}–{max(ratios):.2f}×")
    return (f"GFLOP/s (int8 × int8: GOP/s), best of the rounds, 1 thread, {cpu_name()}.\n\n" + table(header, rows) +
            f"\nwasm / native with {MANY_ROWS} rows or more: " + "; ".join(summary) + ".\n")


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--native", required=True, help="a native build directory (CMake, ATTEND_BENCH on)")
    parser.add_argument("--wasm", action="append", required=True, help="a WebAssembly SIMD build directory")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--ms", type=float, default=50, help="least time of each shape's timing, per round")
    parser.add_argument("-j", dest="jobs", default="-j2")
    args = parser.parse_args()
    for directory in [args.native] + args.wasm:
        build(directory, args.jobs)
    commands = [native_command(args.native, args.ms)] + [wasm_command(w, args.ms) for w in args.wasm]
    best, isas = best_of(commands, args.rounds)
    names = [os.path.basename(os.path.normpath(w)) for w in args.wasm] if len(args.wasm) > 1 else ["wasm"]
    print(markdown(best[0], best[1:], isas, names), end="")


if __name__ == "__main__":
    main()
