"""Turns bench/run.py's results (bench/latest.json) into the markdown of docs/benchmarks.md.

  python3 bench/report.py bench/latest.json > docs/benchmarks.md
"""
import json
import os
import sys

import ceilings

CT2_GREEDY_B32_TOKENS_PER_S = 17000  # CTranslate2, this machine, 1 thread, Tiny shape (given, not measured here)
CT2_MS_PER_14_TOKEN_SENTENCE = 4.9

SETTINGS = [  # (run name, label)
    ("beam1_batch1_threads1", "greedy, batch 1, 1 thread"),
    ("beam1_batch1_threads2", "greedy, batch 1, 2 threads"),
    ("beam1_batch32_threads1", "greedy, batch 32, 1 thread"),
    ("beam1_batch32_threads2", "greedy, batch 32, 2 threads"),
    ("beam5_batch1_threads1", "beam 5, batch 1, 1 thread"),
    ("beam5_batch1_threads2", "beam 5, batch 1, 2 threads"),
]
BROWSER_SETTINGS = [  # (run name, label): 2 threads = wasm/pool.mjs with 2 workers
    ("beam1_batch1_threads1", "greedy, batch 1"),
    ("beam1_batch32_threads1", "greedy, batch 32"),
    ("beam5_batch1_threads1", "beam 5, batch 1"),
    ("beam5_batch32_threads1", "beam 5, batch 32"),
    ("beam1_batch32_threads2", "greedy, batch 32, 2 threads"),
    ("beam5_batch32_threads2", "beam 5, batch 32, 2 threads"),
]
NATIVE_PEERS = [("pytorch", "PyTorch"), ("onnxruntime-node", "ONNX Runtime (Node)")]
BROWSER = ("attend-wasm (Chromium)", "onnxruntime-web (Chromium)")


def runs_of(results, engine):
    return {r["name"]: r for r in results["engines"].get(engine, {}).get("runs", [])}


def attend_run(results, name):
    """Attend's run on the same sentences as the peers: beam rows come from the beam subset when there is one."""
    if name.startswith("beam5") and "attend-beam-subset" in results["engines"]:
        return runs_of(results, "attend-beam-subset").get(name)
    return runs_of(results, "attend").get(name)


def fmt(value, digits=0):
    return "—" if value is None else f"{value:,.{digits}f}"


def ratio(a, b):
    return "—" if a is None or b is None or b == 0 else f"**{a / b:.2f}×**"


def tps(run):
    return run["target_tokens_per_second"] if run else None


def tokens_per_cpu_second(run):
    return run["target_tokens"] / run["cpu_seconds"] if run and run.get("cpu_seconds") else None


def differing(run):
    if run is None or run.get("differing_sentences") is None:
        return "—"
    return f"{run['differing_sentences']}/{run['sentences']}"


def table(header, rows):
    lines = ["| " + " | ".join(header) + " |", "|" + "|".join(" --- " for _ in header) + "|"]
    lines += ["| " + " | ".join(str(c) for c in row) + " |" for row in rows]
    return "\n".join(lines) + "\n"


def peers_table(results):
    header = ["setting", "sentences", "Attend tok/s"]
    for _, label in NATIVE_PEERS:
        header += [f"{label} tok/s", f"Attend / {label}", "same, by CPU time", "differing"]
    rows = []
    for name, label in SETTINGS:
        mine = attend_run(results, name)
        if mine is None:
            continue
        row = [label, mine["sentences"], fmt(tps(mine))]
        for engine, _ in NATIVE_PEERS:
            peer = runs_of(results, engine).get(name)
            row += [fmt(tps(peer)), ratio(tps(mine), tps(peer)),
                    ratio(tokens_per_cpu_second(mine), tokens_per_cpu_second(peer)).replace("**", ""), differing(peer)]
        rows.append(row)
    return table(header, rows)


def latency_table(results):
    engines = [("Attend", None)] + [(label, engine) for engine, label in NATIVE_PEERS] + \
              [("Attend wasm (Chromium)", BROWSER[0]), ("onnxruntime-web (Chromium)", BROWSER[1])]
    rows = []
    for label, engine in engines:
        row = [label]
        for name in ("beam1_batch1_threads1", "beam5_batch1_threads1"):
            run = attend_run(results, name) if engine is None else runs_of(results, engine).get(name)
            lat = run.get("latency_ms") if run else None
            row += [fmt(lat["p50"], 2) if lat else "—", fmt(lat["p90"], 2) if lat else "—",
                    fmt(lat["mean"], 2) if lat else "—"]
        rows.append(row)
    return table(["engine", "greedy p50 ms", "greedy p90 ms", "greedy mean ms", "beam 5 p50 ms", "beam 5 p90 ms",
                  "beam 5 mean ms"], rows)


def browser_table(results):
    """Attend wasm beside onnxruntime-web and beside native Attend with the same arithmetic (wasm / native: f32 against
    the f32 grid, on the same sentences; int8 against the native int8 grids, whose beam rows ran on every sentence)."""
    rows = []
    wasm, ort = runs_of(results, BROWSER[0]), runs_of(results, BROWSER[1])
    int8_weights = runs_of(results, "attend-wasm-int8-weights (Chromium)")
    int8 = runs_of(results, "attend-wasm-int8-activations (Chromium)")
    native_int8_weights, native_int8 = runs_of(results, "attend-int8"), runs_of(results, "attend-int8-activations")
    for name, label in BROWSER_SETTINGS:
        if name not in wasm:
            continue
        rows.append([label, wasm[name]["sentences"], fmt(tps(wasm[name])), ratio(tps(wasm[name]), tps(attend_run(results, name))),
                     fmt(tps(ort.get(name))), ratio(tps(wasm[name]), tps(ort.get(name))), differing(ort.get(name)),
                     differing(wasm[name]), fmt(tps(int8_weights.get(name))),
                     ratio(tps(int8_weights.get(name)), tps(native_int8_weights.get(name))), fmt(tps(int8.get(name))),
                     ratio(tps(int8.get(name)), tps(native_int8.get(name))),
                     ratio(tps(int8.get(name)), tps(wasm[name])), ratio(tps(int8.get(name)), tps(int8_weights.get(name)))])
    return table(["setting", "sentences", "Attend wasm tok/s", "wasm / native", "onnxruntime-web tok/s",
                  "Attend / onnxruntime-web", "differing (ort-web vs native)", "differing (wasm vs native)",
                  "Attend wasm, int8 weights tok/s", "int8 weights: wasm / native",
                  "Attend wasm, int8 weights and activations tok/s", "int8 activations: wasm / native",
                  "int8 activations / f32", "int8 activations / int8 weights"], rows)


def grid_table(engine_result):
    rows = []
    for run in engine_result["runs"]:
        lat = run.get("latency_ms")
        rows.append([run["beam"], run["batch"], run["threads"], fmt(run["sentences_per_second"], 1),
                     fmt(run["target_tokens_per_second"]), fmt(lat["p50"], 2) if lat else "—",
                     fmt(lat["p90"], 2) if lat else "—", fmt(run["seconds"], 2), fmt(run["cpu_seconds"], 2),
                     fmt(run["peak_rss_mib"], 1) if "peak_rss_mib" in run else "—"])
    return table(["beam", "batch", "threads", "sentences/s", "target tokens/s", "p50 ms", "p90 ms", "wall s", "CPU s",
                  "peak RSS MiB"], rows)


def load_table(results):
    rows = []
    for engine, result in results["engines"].items():
        if engine == "attend-beam-subset":
            continue
        load = result.get("model", {}).get("load_ms", result.get("load_ms"))
        peak = result.get("peak_rss_mib")
        rows.append([engine, fmt(load, 1), fmt(peak, 1) if peak else "—"])
    return table(["engine", "model load ms", "peak RSS MiB"], rows)


def kernels_table(kernels):
    by_name = {r["name"]: r for r in kernels["rows"]}
    rows = []
    for r in kernels["rows"]:
        if "/openblas/" not in r["name"]:
            continue
        kind, _, shape = r["name"].split("/", 2)
        mine = by_name.get(f"{kind}/{kernels['isa']}/{shape}")
        int8 = [by_name.get(f"{name}/{kernels['isa']}/{shape}") if kind == "gemm_f32_nt" else None
                for name in ("gemm_i8w_nt", "gemm_i8i8_nt")]
        rows.append([kind, shape.replace("/", " "), fmt(mine["gflops"], 1) if mine else "—", fmt(r["gflops"], 1),
                     ratio(mine["gflops"] if mine else None, r["gflops"])] +
                    [fmt(x["gflops"], 1) if x else "—" for x in int8])
    return table(["kernel", "shape", f"Attend f32 ({kernels['isa']}) GFLOP/s", "OpenBLAS GFLOP/s",
                  "Attend / OpenBLAS", "Attend int8-weight GFLOP/s", "Attend int8 × int8 GOP/s"], rows)


# (engine, arithmetic, the micro-bench kernel its products run on)
CEILING_ENGINES = [("attend", "f32", "gemm_f32_nt"), ("attend-int8", "int8 weights", "gemm_i8w_nt")]
BEAM_BATCH_TARGET = 2.5  # the Speed issue's: beam 5 at batch 32 at least this × batch 1
INT8_AT_BATCH_TARGET = 1.3  # int8 weights at least this × f32 on batched rows


WASM_GEMM_KERNELS = [("f32", "f32"), ("i8w", "int8 weights"), ("i8i8", "int8 × int8")]
WASM_GEMM_MANY_ROWS = 32  # rows from which a batched decoder step's GEMMs run on the register tiles at full rate
NATIVE_FMA_LANES = {"avx512": 16, "avx2": 8}  # f32 lanes of one fused multiply-add


def wasm_gemm_ratios(w, kernel, rows_at_least, build=0):
    return [r["wasm"][build] / r["native"] for r in w["rows"] if r["kernel"] == kernel and r["m"] >= rows_at_least]


def wasm_gemm_markdown(w):
    """bench/wasm_gemm.py's measurement (wasm_gemm.measure) as a table: per shape, each kernel's native and wasm
    rates and their ratio."""
    header = ["m", "n × k"]
    for _, label in WASM_GEMM_KERNELS:
        header += [f"{label} native ({w['native_isa']})"] + [f"{label} {name}" for name in w["builds"]] + \
                  [f"{label} {name} / native" for name in w["builds"]]
    by_key = {(r["kernel"], r["m"], r["n"], r["k"]): r for r in w["rows"]}
    rows = []
    for r in w["rows"]:
        if r["kernel"] != WASM_GEMM_KERNELS[0][0]:
            continue
        row = [r["m"], f"{r['n']} × {r['k']}"]
        for kernel, _ in WASM_GEMM_KERNELS:
            cell = by_key[(kernel, r["m"], r["n"], r["k"])]
            row += [f"{cell['native']:.1f}"] + [f"{x:.1f}" for x in cell["wasm"]] + \
                   [f"**{x / cell['native']:.2f}×**" for x in cell["wasm"]]
        rows.append(row)
    summary = []
    for kernel, label in WASM_GEMM_KERNELS:
        for i, name in enumerate(w["builds"]):
            ratios = wasm_gemm_ratios(w, kernel, WASM_GEMM_MANY_ROWS, i)
            summary.append(f"{label} ({name}) {min(ratios):.2f}–{max(ratios):.2f}×")
    return (f"GFLOP/s (int8 × int8: GOP/s), best of {w['rounds']} alternating rounds, 1 thread, {w['cpu']}.\n\n" +
            table(header, rows) + f"\nwasm / native with {WASM_GEMM_MANY_ROWS} rows or more: " + "; ".join(summary) + ".\n")


def wasm_gemm_section(results):
    """The ceiling of the browser rows' wasm / native: the weight GEMMs alone, both builds, this CPU."""
    w = results["wasm_gemm"]
    batched = {kernel: wasm_gemm_ratios(w, kernel, 5) for kernel, _ in WASM_GEMM_KERNELS}
    highest = max(max(r) for r in batched.values())
    spans = ", ".join(f"{label} {min(batched[k]):.2f}–{max(batched[k]):.2f}×" for k, label in WASM_GEMM_KERNELS)
    one_row = [r["wasm"][0] / r["native"] for r in w["rows"] if r["kernel"] == "f32" and r["m"] == 1]
    lanes = NATIVE_FMA_LANES.get(w["native_isa"])
    verdict = ("so on this CPU **0.5× native at batch is beyond the arithmetic ceiling**: a batched row is mostly "
               "these products, and its wasm / native ratio lies between the GEMMs' and the rest of the step's, so it "
               "could reach 0.5× only if the rest ran well above 0.5× native"
               if highest < 0.5 else "so these products alone do not keep the browser rows under 0.5× native here")
    cause = (f"SIMD128 multiplies 4 lanes and has no fused multiply-add in its baseline (`f32x4.relaxed_madd` measured "
             f"slower, wasm/README.md), against {w['native_isa']}'s {lanes}-lane FMAs" if lanes else
             "SIMD128 multiplies 4 lanes and has no fused multiply-add in its baseline")
    return ("\n### wasm / native at batch: the GEMMs' ceiling\n\n"
            "The Speed issue asks the browser rows for at least 0.5× native. The weight GEMMs of a decoder step, as the "
            "model calls them (packed panels, the kernels each build picks: natively this CPU's best, SIMD128 in Node), "
            "at the model's shapes and 1, 5 (beam 5, batch 1), 32 and 448 rows (`bench/wasm_gemm.py`, "
            "`bench/gemm_rates.cpp` built both ways; this run's native build and `build/wasm-simd`).\n\n" +
            wasm_gemm_markdown(w) +
            f"\nWith 5 rows or more the WebAssembly GEMMs run at {spans} of native, {verdict}. The cause is the "
            f"instruction set, not the tiling: {cause}. With 1 row the f32 products are bound by reading the weights "
            f"and wasm reaches {min(one_row):.2f}–{max(one_row):.2f}×; the int8 paths are bound by widening int8 in "
            "SIMD128 (no VNNI, no 8-to-32-bit conversion in one instruction).\n")


def ceilings_section(results):
    """Beam 5 at batch 32 against batch 1, and int8 weights against f32 at batch 32, measured and at
    most (bench/ceilings.py), 1 thread."""
    config, kernels = results["model"].get("config"), results.get("kernels")
    if not config or not kernels:
        return ""
    source = results["engines"]["attend"]["input"]
    rows, at_most = [], {}
    for engine, arithmetic, kernel in CEILING_ENGINES:
        runs = runs_of(results, engine)
        b1, b32 = runs.get("beam5_batch1_threads1"), runs.get("beam5_batch32_threads1")
        if not (b1 and b32):
            continue
        for name in ("beam1_batch32_threads1", "beam5_batch32_threads1"):
            run = runs[name]
            at_most[(engine, name)] = ceilings.ceiling(kernels, kernel, config, run, 5 if name.startswith("beam5") else 1,
                                                       source["source_tokens"] * run["sentences"] / source["sentences"])
        top = at_most[(engine, "beam5_batch32_threads1")]
        measured = b32["target_tokens_per_second"] / b1["target_tokens_per_second"]
        rows.append([arithmetic, fmt(b1["target_tokens_per_second"], 0), fmt(b32["target_tokens_per_second"], 0),
                     f"{measured:.2f}×", fmt(top, 0), f"**{top / b1['target_tokens_per_second']:.2f}×**",
                     f"{BEAM_BATCH_TARGET}×"])
    if not rows:
        return ""
    int8_rows = []
    for name, label in (("beam1_batch32_threads1", "greedy, batch 32"), ("beam5_batch32_threads1", "beam 5, batch 32")):
        f32, i8 = runs_of(results, "attend").get(name), runs_of(results, "attend-int8").get(name)
        if f32 and i8 and ("attend", name) in at_most and ("attend-int8", name) in at_most:
            int8_rows.append([label, f"{i8['target_tokens_per_second'] / f32['target_tokens_per_second']:.2f}×",
                              f"**{at_most[('attend-int8', name)] / at_most[('attend', name)]:.2f}×**",
                              f"{INT8_AT_BATCH_TARGET}×"])
    return "".join([
        "\n## Targets against the ceiling of the arithmetic (1 thread)\n\n",
        "What a row could reach at most on this machine with the same arithmetic: the matrix products a target "
        "token needs (each hypothesis's decoder step: Q K V, attention outputs, cross-attention query, feed-forward, "
        "output layer; each source token's encoder layers and cross-attention K V; `bench/ceilings.py`), timed at "
        f"the rates the micro-bench below measured for the model's shapes at {ceilings.SHAPE_RATE_ROWS} rows, as if "
        "attention, log-softmax and top-k, the search's bookkeeping and the tokenizer took no time. "
        "Beam rows count 5 hypotheses per step, one step per target token and one more per sentence.\n\n",
        table(["arithmetic", "beam 5, batch 1", "beam 5, batch 32", "batch 32 / batch 1", "batch 32 at most",
               "at most / batch 1", "target"], rows),
        "\nBatch 1 already runs its 5 hypotheses' products together (m = 5; the micro-bench below does not time 5 "
        "rows), and attention, the vocabulary passes and the search's bookkeeping cost each hypothesis the same at "
        "any batch: the last column bounds what batching can win, below the target.\n",
        ("\n" + table(["int8 weights / f32", "measured", "both at their ceiling (products at each kernel's rates)",
                        "target"], int8_rows) +
         "\nint8 weights are widened to f32 in the kernel and multiplied with f32 FMAs, as f32 weights are: at many "
         "rows the products are bound by the FMAs, not by reading the weights, so int8 weights can only save the "
         "weight traffic (int8 × int8, `--int8-activations`, is the path that is faster at batch, with other "
         "arithmetic).\n") if int8_rows else "",
    ])


# Attend's engines in the speed bar: f32, int8 weights, int8 weights and activations.
ATTEND_VARIANTS = [("attend", "f32"), ("attend-int8", "int8 weights"),
                   ("attend-int8-activations", "int8 weights and activations (`--int8-activations`)")]


def speed_bar(results):
    lines = []
    for engine, label in ATTEND_VARIANTS:
        runs = runs_of(results, engine)
        b32 = runs.get("beam1_batch32_threads1")
        if b32:
            lines.append(f"- {label}, greedy, batch 32, 1 thread: **{b32['target_tokens_per_second']:,.0f}** target "
                         f"tokens/s; CTranslate2 ~{CT2_GREEDY_B32_TOKENS_PER_S:,} (Attend at "
                         f"{b32['target_tokens_per_second'] / CT2_GREEDY_B32_TOKENS_PER_S:.2f}× of it).")
        b1 = runs.get("beam1_batch1_threads1")
        if b1:
            per_token = b1["seconds"] * 1e3 / max(b1["target_tokens"], 1)
            lines.append(f"- {label}, greedy, batch 1, 1 thread: {per_token:.2f} ms per target token, so "
                         f"**{14 * per_token:.1f} ms** for a 14-token sentence; CTranslate2 ~{CT2_MS_PER_14_TOKEN_SENTENCE} "
                         f"ms (Attend at {CT2_MS_PER_14_TOKEN_SENTENCE / (14 * per_token):.2f}× of its speed); mean "
                         f"{b1['latency_ms']['mean']:.2f} ms per sentence over "
                         f"{b1['target_tokens'] / b1['sentences']:.1f} target tokens on average.")
    lines.append("- The CTranslate2 figures were measured earlier on this machine, not in this run, so they are "
                 "context, not a claim: the claim is the ratio to the peers above.")
    return "\n".join(lines) + "\n"


def shown_arguments(arguments):
    """run.py's arguments without the build folder that scripts/bench.sh passes."""
    shown, skip_next = [], False
    for a in arguments:
        if skip_next or a == "--build":
            skip_next = a == "--build"
            continue
        shown.append(a)
    return " ".join(shown)


DOCUMENT_TARGET = 0.05  # splitting and markup: under 5 % of the translation time ("Real text" issue)


def median(values):
    ordered = sorted(values)
    middle = len(ordered) // 2
    return ordered[middle] if len(ordered) % 2 else (ordered[middle - 1] + ordered[middle]) / 2


def document_overheads(run):
    """Document time / one-per-line time - 1: from the best pass of each path by wall time, and the median of the
    per-pass ratios (each pass's two timings taken next to each other) by wall time and by CPU time. In Chromium the
    document pass also waits for its setTimeout callbacks (idle: not in CPU time, in a quiet machine's wall time); the
    judged overhead adds the least of that waiting, as a share of the best one-per-line CPU time, to the CPU-time
    figure. The cut alone as a share of the best one-per-line pass, by CPU time."""
    def paired(clock):
        return median([d / l for d, l in zip(run[f"document_{clock}"], run[f"line_{clock}"])]) - 1
    line_cpu = min(run["line_cpu_seconds"])
    waiting = min(run["document_wait_seconds"]) if "document_wait_seconds" in run else None
    return {"best": min(run["document_seconds"]) / min(run["line_seconds"]) - 1, "paired": paired("seconds"),
            "paired_cpu": paired("cpu_seconds"), "waiting": waiting,
            "judged": paired("cpu_seconds") + (waiting or 0) / line_cpu, "cut_share": min(run["cut_cpu_seconds"]) / line_cpu}


def percent(x):
    return f"{x * 100:+.1f} %"


def arithmetic(weight_dtype, int8_activations):
    if weight_dtype != "int8":
        return f"{weight_dtype} weights and activations"
    return f"int8 weights × {'int8' if int8_activations else 'f32'} activations"


def documents_section(results):
    documents, m = results["documents"], results["machine"]
    shape = documents["document"]
    places = [("native (`translate_document`)", "native"), ("Chromium (`translateDocument`)", "chromium")]
    rows, misses = [], []
    for place, key in places:
        if key not in documents:
            continue
        plan = documents[key]["plan"]
        for run in documents[key]["runs"]:
            o = document_overheads(run)
            setting = f"{'greedy' if run['beam'] == 1 else 'beam ' + str(run['beam'])}, batch {run['batch']}"
            if o["judged"] >= DOCUMENT_TARGET:
                misses.append(f"{place.split(' (')[0]} {setting}")
            rows.append([place, setting, f"{plan['sentences']}{' (the lines)' if plan['equals_lines'] else ' (NOT the lines)'}",
                         f"{run['differing_sentences']}/{run['sentences']}", "yes" if run["document_text_equal"] else "**no**",
                         fmt(min(run["line_seconds"]), 2), fmt(min(run["document_seconds"]), 2), percent(o["best"]),
                         percent(o["paired"]), percent(o["paired_cpu"]),
                         "—" if o["waiting"] is None else fmt(o["waiting"] * 1e3, 0), f"**{percent(o['judged'])}**",
                         fmt(min(run["cut_seconds"]) * 1e3, 1), f"{o['cut_share'] * 100:.2f} %"])
    repeat = documents["repeat"]
    verdict = ("met on every row" if not misses else "**not met** on " + ", ".join(misses))
    weights = documents["native"]["model"]["weight_dtype"]
    kinds = [f"natively {arithmetic(weights, documents['native']['model']['int8_activations'])} (the CLI's default)"]
    if "chromium" in documents:
        kinds.append(f"in Chromium {arithmetic(weights, documents['chromium']['int8_activations'])} "
                     f"(`Translator.load`'s default `int8Activations: 'auto'`, as the page loads it)")
    return "".join([
        "\n## Documents (a document vs the same sentences one per line)\n\n",
        f"The first {shape['sentences']:,} sentences of the input above as one document: paragraphs of "
        f"{shape['paragraph_sentences']} sentences with a blank line between "
        f"({shape['paragraphs']} paragraphs, {shape['bytes']:,} bytes); the {shape['lists']} paragraphs holding a line "
        f"that does not read as a sentence (no capital first or no full stop) are lists of `- ` items. Translated as a "
        f"document (the cut, then the sentences in groups, then the text put back together) and as the same sentences "
        f"one per line (`translate_batch` natively, `translate(array)` in Chromium: one call, batches of 32, shortest "
        f"together), same model file ({documents['model']}), same search, 1 thread, on this page's machine "
        f"({m['cpu']}; load in Setup). Each of the two paths and the cut alone ran {repeat} times, interleaved, the order "
        f"alternating. The plan column checks the cut found exactly the lines as sentences (else the run stops); "
        f"*differing*: sentences whose output ids differ between the two paths; *same text*: the document's "
        f"translation equals the one-per-line translations put in the document's places.\n\n",
        table(["where", "search", "sentences in the plan", "differing", "same text", f"one per line s (best of {repeat})",
               f"document s (best of {repeat})", "overhead, wall (best / best)",
               f"overhead, wall (median of {repeat} paired ratios)", f"overhead, CPU time (median of {repeat} paired)",
               "waiting between groups ms (least)", "overhead: CPU time + waiting", "cut alone ms (best)",
               "cut / one per line"], rows),
        f"\n*overhead*: document time / one-per-line time − 1. Wall time on this shared machine moves with its load, so "
        f"the figure judged (in bold) is by CPU time, which other work descheduling the benchmark does not inflate: "
        f"the median of the passes' ratios (a pass's two timings are taken next to each other), natively of the "
        f"process's user + system time, in Chromium of the page thread's (DevTools `Performance.getMetrics` "
        f"ThreadTime); plus, in Chromium, the time the document pass waits for `setTimeout` callbacks (a way to "
        f"yield between groups of sentences that browsers hold back at least 4 ms once timers nest, ~130 ms over 32 "
        f"groups; idle, so not in CPU time, but in a quiet machine's wall time; the least of the passes, as a share "
        f"of the best one-per-line CPU time). "
        f"*cut / one per line*: the best cut over the best one-per-line pass, by CPU time. *cut alone*: "
        f"`sentence_breaks` + `plan_document` with the model's sentence check natively; `planDocument` in Chromium "
        f"(`Intl.Segmenter`, the core's plan, the segments back as strings). Arithmetic: {'; '.join(kinds)}. "
        f"Target (\"Real text\" issue): splitting and markup under {DOCUMENT_TARGET * 100:.0f} % of the translation "
        f"time: {verdict}.\n"])


SERVE_SPEEDUP_TARGET = 2.0  # issue 66: 16 clients at least this x one client's sentences/s
SERVE_CLI_SHARE_TARGET = 0.7  # ... and at least this share of the CLI's batch throughput
SERVE_TAIL_TARGET = 4.0  # p99 at 16 clients under this x p50
SERVE_JUDGED_CLIENTS = 16


SERVE_HEADING = "## Server: `attend serve` under load"


def serve_section(results):
    """`attend serve` under load on loopback (bench/serve_load.py): sentences/s and latency at each number of clients,
    against one client and against `attend bench` at the server's batch and threads; the issue's targets at 16."""
    serve = results["serve"]
    cli = serve["cli"]["sentences_per_second"]
    rows_by_clients = {r["clients"]: r for r in serve["rows"]}
    one = rows_by_clients.get(1)
    # Ratios: the medians of the rounds' own ratios (serve_load.py --rounds) where given, else of the figures.
    def vs_one(r):
        return r.get("vs_one_client", r["sentences_per_second"] / one["sentences_per_second"] if one else None)

    def vs_cli(r):
        return r.get("vs_cli", r["sentences_per_second"] / cli)

    def tail(r):
        return r.get("p99_over_p50", r["p99_ms"] / r["p50_ms"])

    rows = []
    for r in serve["rows"]:
        rows.append([r["clients"], fmt(r["sentences_per_second"]), fmt(r["p50_ms"], 1), fmt(r["p99_ms"], 1),
                     f"{tail(r):.1f}×", "—" if vs_one(r) is None else f"{vs_one(r):.2f}×", f"**{100 * vs_cli(r):.0f} %**",
                     fmt(r.get("mean_batch"), 1), fmt(r.get("server_cpu_ms_per_sentence"), 2),
                     fmt(r.get("server_cores"), 2), fmt(r.get("load_average"), 1)])
    judged = rows_by_clients.get(SERVE_JUDGED_CLIENTS)
    verdicts = []
    if judged and vs_one(judged) is not None:
        checks = [(f"{SERVE_JUDGED_CLIENTS} clients at least {SERVE_SPEEDUP_TARGET:g}× one client's sentences/s",
                   vs_one(judged), SERVE_SPEEDUP_TARGET, "×"),
                  (f"at least {100 * SERVE_CLI_SHARE_TARGET:.0f} % of the CLI's", vs_cli(judged), SERVE_CLI_SHARE_TARGET, "%"),
                  (f"p99 at {SERVE_JUDGED_CLIENTS} clients under {SERVE_TAIL_TARGET:g}× p50", tail(judged),
                   SERVE_TAIL_TARGET, "tail")]
        for label, value, target, kind in checks:
            met = value < target if kind == "tail" else value >= target
            shown = f"{100 * value:.0f} %" if kind == "%" else f"{value:.2f}×"
            verdicts.append(f"{label}: {shown}, {'met' if met else '**not met**'}")
    why = ""
    if judged and one and vs_one(judged) is not None and vs_one(judged) < SERVE_SPEEDUP_TARGET and \
            judged.get("server_cores") and one.get("server_cores"):
        top = max(r.get("server_cores") or 0 for r in serve["rows"])
        why = (f" Where {SERVE_JUDGED_CLIENTS} clients fall short of {SERVE_SPEEDUP_TARGET:g}× one client, look at the "
               f"CPU the server got: it kept {judged['server_cores']:.2f} cores busy at {SERVE_JUDGED_CLIENTS} clients and "
               f"at most {top:.2f} at any level, 64 clients' included, against {one['server_cores']:.2f} for one client "
               f"(the machine's other work took the rest), while per sentence it spent "
               f"{judged['server_cpu_ms_per_sentence']:.2f} ms at {SERVE_JUDGED_CLIENTS} clients (batches of "
               f"{judged['mean_batch']:.1f}) against {one['server_cpu_ms_per_sentence']:.2f} ms alone.")
    loads = " → ".join(" ".join(f"{x:.2f}" for x in serve[k]) for k in ("load_average_at_start", "load_average_at_end")
                       if k in serve)
    alone = serve.get("measured_alone")
    machine = alone["machine"] if alone else results["machine"]
    when = (f"Measured by `bench/run.py --only serve` on {serve['date']} (Attend built from commit {alone['commit']}), "
            f"apart from the rest of this page, on the same machine ({machine.get('cpu')}, {machine.get('logical_cpus')} "
            f"logical CPUs; load average {loads}, other engineers' work on it). " if alone else
            f"Measured in this run on {machine.get('cpu')} (load average {loads}). ")
    return "".join([
        f"\n{SERVE_HEADING} (loopback)\n\n", when,
        f"`bench/serve_load.py`: `attend serve` with {serve['model']}, `--batch {serve['batch']} --threads "
        f"{serve['threads']}`, greedy. "
        f"Each level sends the same {serve['lines']:,} lines of the input above, one line per `POST /translate`, "
        f"from N Python client threads, each on its own keep-alive connection (a socket writing requests encoded "
        f"beforehand and reading each answer by its length), on the same cores as the server. "
        f"Against `attend bench --beam 1 --batch {serve['batch']} --threads {serve['threads']}` on the same lines "
        f"in the same run: **{cli:,.0f} sentences/s**. "
        + (f"The CLI and the levels ran {serve['rows'][0]['rounds']} times, interleaved: each figure is the median "
           f"over those rounds, each ratio the median of the rounds' own ratios. " if serve["rows"][0].get("rounds", 1) > 1
           else "") + "Ratios only.\n\n",
        table(["clients", "sentences/s", "p50 ms", "p99 ms", "p99 / p50", "vs 1 client",
               "vs the CLI's batch throughput", "mean batch", "server CPU ms / sentence", "server cores busy",
               "load average"], rows),
        "\n*mean batch*: sentences per decoded batch (the server's `/metrics`); *server CPU*: the server process's "
        "user + system time per sentence (the CLI's: "
        + (f"{1000 * serve['cli']['cpu_seconds'] / serve['lines']:.2f} ms" if serve["cli"].get("cpu_seconds") else "—")
        + "); *server cores busy*: its CPU seconds per second of the level (of the machine's "
        f"{machine.get('logical_cpus') or os.cpu_count()}; the clients and any other work on the machine have the rest); "
        "*load average*: 1 minute, at the level's start (median). "
        "A batch waits for the company its kind's recent demand says can still come (docs/serve.md), so one client "
        "is never held. Targets (issue 66): " + ("; ".join(verdicts) if verdicts else "—") + "." + why + "\n"])


BUSY_BELOW_FREE_CORES = 1.8  # the probe finds 2.0 on a quiet 2-core machine


BERGAMOT_HEADING = "## Marian's files: Attend vs Bergamot"
BERGAMOT_SPEED_TARGET = 2.0  # issue 65: Attend's tokens/s at least this × Bergamot's on every row
BERGAMOT_PLACES = [("node", "Node"), ("chromium", "Chromium")]
MIB = 1024 * 1024
BERGAMOT_FIXTURE_LABEL = "fixture (d 128)"
BERGAMOT_TINY_LABEL = "tiny (d 256, Firefox's dimensions)"


def bergamot_models(section):
    """The measured Marian folders of the section, each (its label, the part holding its "node" and "chromium"): the
    committed fixture (the section itself), then the model of Firefox's `tiny` dimensions when it was measured."""
    tiny = section.get("tiny", {})
    return [(BERGAMOT_FIXTURE_LABEL, section)] + ([(BERGAMOT_TINY_LABEL, tiny)] if not tiny.get("missing") and
                                                  any(p in tiny for p, _ in BERGAMOT_PLACES) else [])


def bergamot_rows(section):
    """Every speed row of the section: (model label, place key, place label, row)."""
    return [(model, place, label, r) for model, part in bergamot_models(section) for place, label in BERGAMOT_PLACES
            for r in part.get(place, {}).get("rows", [])]


def mib(value, digits=1):
    return "—" if value is None else f"{value / MIB:,.{digits}f}"


def bergamot_speed_rows(section):
    rows, misses = [], []
    for model, _, label, r in bergamot_rows(section):
        speed = r["attend_tokens_per_second"] / r["bergamot_tokens_per_second"]
        if speed < BERGAMOT_SPEED_TARGET:
            misses.append(f"{model.split()[0]} {label} {r['dtype']} {r['way']} ({speed:.2f}×)")
        by_cpu = ((r["attend_tokens"] / r["attend_cpu_seconds"]) / (r["bergamot_tokens"] / r["bergamot_cpu_seconds"])
                  if r.get("attend_cpu_seconds") and r.get("bergamot_cpu_seconds") else None)
        rows.append([model, label, r["dtype"], r["way"], r["lines"], fmt(r["bergamot_tokens_per_second"]),
                     fmt(r["attend_tokens_per_second"]), f"**{speed:.2f}×**", "—" if by_cpu is None else f"{by_cpu:.2f}×",
                     f"{r['same_lines']}/{r['lines']}", f"{r['bergamot_seconds']:.2f}", f"{r['attend_seconds']:.2f}",
                     f"{r['bergamot_tokens']:,} / {r['attend_tokens']:,}"])
    return rows, misses


def bergamot_memory_rows(section):
    rows, over = [], []
    for model, part in bergamot_models(section):
        for place, label in BERGAMOT_PLACES:
            bergamot_memory_place(rows, over, model, place, label, part.get(place, {}).get("memory", {}))
    return rows, over


def bergamot_memory_place(rows, over, model, place, label, memory):
    for dtype, engines in memory.items():
        b, a = engines["bergamot"], engines["attend"]
        rss_key = "max_rss_kib" if place == "node" else "renderer_peak_rss_kib"
        b_rss, a_rss = (None if x.get(rss_key) is None else x[rss_key] * 1024 for x in (b, a))
        if a["wasm_bytes_peak"] > b["wasm_bytes_peak"]:
            over.append(f"{model.split()[0]} {label} {dtype}: wasm memory")
        if a_rss is not None and b_rss is not None and a_rss > b_rss:
            over.append(f"{model.split()[0]} {label} {dtype}: {'process' if place == 'node' else 'renderer'} peak RSS")
        rows.append([model, label, dtype, " → ".join(mib(x, 0) for x in [b["wasm_bytes_after_load"]] + b["wasm_bytes_after_each_way"]),
                     " → ".join(mib(x, 0) for x in [a["wasm_bytes_after_load"]] + a["wasm_bytes_after_each_way"]),
                     f"**{a['wasm_bytes_peak'] / b['wasm_bytes_peak']:.2f}×**", mib(b["js_heap_used_peak"]),
                     mib(a["js_heap_used_peak"]), mib(b_rss), mib(a_rss),
                     f"**{a_rss / b_rss:.2f}×**" if a_rss and b_rss else "—"])


def bergamot_native_rows(section):
    rows = []
    for model, place, _, r in bergamot_rows(section):
        if place != "node" or "native_tokens_per_second" not in r:
            continue
        native = r["native_tokens_per_second"]  # None where the lines took no longer than starting the CLI
        rows.append([model, r["dtype"], r["way"], r["lines"], fmt(native), fmt(r["attend_tokens_per_second"]),
                     ratio(r["attend_tokens_per_second"], native),
                     f"{r['native_same_lines']}/{r['lines']}", f"{r['native_seconds']:.2f}"])
    return rows


def bergamot_why(section, misses):
    """What the table says about the rows under the target: how much each engine gains from the whole file in one call,
    per place and file; and how much an engine's own timed runs of one row spread in this run."""
    gains = []
    spreads = [max(runs) / min(runs) for _, _, _, r in bergamot_rows(section)
               for runs in (r.get("bergamot_runs", [1]), r.get("attend_runs", [1]))]
    for model, part in bergamot_models(section):
        for place, label in BERGAMOT_PLACES:
            by = {(r["dtype"], r["way"]): r for r in part.get(place, {}).get("rows", [])}
            for dtype in ("f32", "int8"):
                one, whole = by.get((dtype, "greedy, one sentence per call")), by.get((dtype, "greedy, the whole file in one call"))
                if one and whole:
                    gains.append(f"{model.split()[0]} {label} {dtype}: Bergamot "
                                 f"{one['bergamot_seconds'] / whole['bergamot_seconds']:.1f}×, "
                                 f"Attend {one['attend_seconds'] / whole['attend_seconds']:.1f}×")
    native = {r["way"]: r for r in section.get("node", {}).get("rows", []) if r["dtype"] == "int8"}
    one, whole = (native.get(w, {}).get("native_tokens_per_second") for w in
                  ("greedy, one sentence per call", "greedy, the whole file in one call"))
    native_int8 = (f", natively as well (the last table: {one:,.0f} target tokens/s one sentence per call, {whole:,.0f} "
                   "the whole file in one run)" if one and whole else "")
    int8_missed = any(" int8 " in m for m in misses)
    out = ["\nWhy some rows are under the target: Attend's lead is largest one sentence per call, where Bergamot pays "
           "for each `service.translate` call (its sentence splitting, a batch and a response per line) and decodes one "
           "row at a time. Given the whole file in one call, Bergamot batches up to 1,024 words together and that cost "
           "spreads over the batch, while Attend's own per-call cost was already small, so Attend's lead shrinks to the "
           "arithmetic of the two WebAssembly builds, where it is smaller. The gain from one call for the whole file "
           "(one sentence per call's time / the whole file's, greedy): " + "; ".join(gains) + "."]
    if int8_missed:
        out.append(
            " Attend's int8 path "
            "for Marian's files gains least from batching" + native_int8 + ", where the f32 path gains. Profiled "
            "(Node's `--cpu-prof` on a build with function names, int8, the whole file in one call, with the output "
            "layer over the shortlist alone): the int8 product `gemm_u8s8_shifted_nt` (intgemm's shifted int8 product) "
            "takes 66% of Attend's time on the fixture and 85% on the tiny model, and costs a row the same at any batch, "
            "Marian's float parts around it most of the rest (on the fixture attention 10%, LayerNorm 3%; on the tiny "
            "model 4% and 2%). Without relaxed SIMD the product is bound by the CPU's vector units, not by reading the "
            "weights: SIMD128 has no `pmaddubsw`, and its saturating pairs of products take five SIMD128 instructions "
            "per 16 multiply-adds of every row (`kernels_wasm_u8s8.cpp`), three of them multiplies (two `i16x8.mul` and "
            "the `i32x4.extadd_pairwise_i16x8_s` that V8 compiles to `pmaddwd`); V8's machine code for its inner loop "
            "(`perf` with `node --perf-prof`) is 12 x86 instructions per 16 multiply-adds of a row, 6.5 of them the "
            "product's own and the rest spills and addressing. Measured and not faster (`attend_gemm_rates --u8s8` and "
            "the model): tiles of 2 × 3 or 2 × 2 (fewer spills, more splitting of the weights' bytes: 0.84-0.93× and "
            "0.86× in the model), the weights split once per two columns and kept for four rows at a time "
            "(0.76-0.95× at 64 rows), split once at load for greedy decoding's one-row steps (0.76× in the model: twice "
            "the bytes to read), taller tiles, and exact `i32x4.dot_i16x8_s` sums with the pairs that can saturate "
            "corrected one by one (5-19% of the tiny model's encoder byte pairs can). Where the engine runs "
            "WebAssembly's relaxed SIMD the int8 product is `pmaddubsw` itself (which rows ran it: the section's "
            "opening). The int8 file's float parts (LayerNorm, attention, softmax, the SSRU gate) are computed as "
            "Marian's WebAssembly build computes them, so that its lines are Bergamot's (`model/marian_float.h`: in "
            "Marian's order of sums, four outputs at a time in SIMD lanes), not by Attend's own kernels as the f32 "
            "file's are; that is the price of the int8 rows' identical lines.")
    out.append(" Both engines compute the output layer over the batch's shortlisted pieces alone (Attend since 2fd710a; "
               "over all of them before, which on the tiny model's 20,000 pieces left its f32 rows at 0.3-1.2× "
               "Bergamot's).")
    if any("beam" in m for m in misses):
        out.append(" Beam 4 runs 4 hypotheses a step as rows of one product, so it too is closer to the arithmetic.")
    out.append(f" On this shared 2-core machine an engine's own "
               f"{max(len(r.get('attend_runs', [])) for _, _, _, r in bergamot_rows(section))} timed runs of one row "
               f"differ by up to {max(spreads):.1f}× (slowest / fastest; each run is in the JSON), so a row near 2× can "
               "fall on either side from run to run; the least of each engine's runs is what the table compares.\n")
    return "".join(out)


def bergamot_relaxed_text(section):
    """Where Attend's int8 product ran on relaxed SIMD in this run (each row's attend_relaxed_simd, info().relaxedSimd)."""
    used = {}
    for _, place, _, r in bergamot_rows(section):
        if r["dtype"] == "int8" and "attend_relaxed_simd" in r:
            used[place] = used.get(place, True) and r["attend_relaxed_simd"]
    if not used:
        return "this run did not record where it did"
    labels = dict(BERGAMOT_PLACES)
    text = "; ".join(f"{labels[place]}: {'used' if on else 'not used'}" for place, on in used.items())
    if used.get("node") is False:
        text += (f" ({section['node'].get('node')} runs relaxed SIMD only behind `--experimental-wasm-relaxed-simd`; Node "
                 "22 and later run it by default: `bench/node_lts.sh` fetches the LTS for `--node`)")
    return "in this run's int8 rows, `info().relaxedSimd`: " + text


def bergamot_tiny_text(tiny):
    """The section's sentence on the model of Firefox's `tiny` dimensions: what it is and how it is made, or (its folder
    missing, or a run before it) how to make it."""
    folder = tiny.get("folder", "bench/models/ssru-tiny-ende")
    script = tiny.get("script", "training/make_marian_bench_model.sh")
    vocab = f"{tiny['vocab_size']:,}" if tiny.get("vocab_size") else "20,000"
    made = (f"`{script}` trains it (under an hour on 2 cores) into `{folder}`, not committed (too big)")
    if tiny.get("missing") or not any(p in tiny for p, _ in BERGAMOT_PLACES):
        return (f"*{BERGAMOT_TINY_LABEL}*, a student of Firefox Translations' `tiny` dimensions, was not measured: "
                f"its folder `{folder}` was missing; {made}.")
    return (f"*{BERGAMOT_TINY_LABEL}* is `{folder}`, a student of Firefox Translations' `tiny` dimensions (d_model 256, "
            f"8 heads, FFN 1536, 6 encoder layers and 2 SSRU decoder layers, tied embeddings) with {vocab} pieces "
            "(Firefox's have 32,000; SentencePiece makes no more than about 21,000 from Multi30k en+de): "
            f"{made}.")


def bergamot_section(results):
    """Attend's WebAssembly against Bergamot's on the same Marian files, in Node and Chromium (bench/bergamot_node.mjs,
    bench/bergamot_browser.mjs), speed and memory; native Attend on the same files beside its wasm."""
    section = results["bergamot"]
    if "rows" in section:  # an older run's shape: Node only, seconds only
        return ""
    alone = section.get("measured_alone")
    machine = alone["machine"] if alone else results["machine"]
    load = (f"load average {' '.join(f'{x:.2f}' for x in section['load_average_at_start'])} → "
            f"{' '.join(f'{x:.2f}' for x in section['load_average_at_end'])}")
    when = (f"Measured by `bench/run.py --only bergamot` on {section['date']} (Attend built from commit {alone['commit']}), "
            "apart from the "
            f"rest of this page, on the same machine ({machine['cpu']}, {machine['logical_cpus']} logical CPUs; {load}, "
            f"other engineers compiling on it)" if alone else
            f"Measured in this run on {section['date']} ({load})")
    speed_rows, misses = bergamot_speed_rows(section)
    memory_rows, over = bergamot_memory_rows(section)
    native_rows = bergamot_native_rows(section)
    node = section.get("node", {})
    chromium = section.get("chromium")
    repeats = max((len(r.get("attend_runs", [0])) for _, _, _, r in bergamot_rows(section)), default=1)
    node_rows = [r for _, place, _, r in bergamot_rows(section) if place == "node"]
    out = [f"\n{BERGAMOT_HEADING} (WebAssembly in Node and Chromium, 1 thread)\n\n",
           f"{when}. Two students as Marian writes them, float32 and intgemm8 with activation scales (alphas), each with "
           "its lexical shortlist (lex.50.50) and one shared SentencePiece vocabulary, both trained briefly on Multi30k en-de: "
           f"*{BERGAMOT_FIXTURE_LABEL}* is `{section['fixture']}` (training/make_marian_fixtures.sh, committed): Firefox's "
           "SSRU architecture shrunk to d_model 128, FFN 512, 3 encoder layers and 2 SSRU decoder layers, 2,000 pieces; "
           + bergamot_tiny_text(section.get("tiny", {})) + " Bergamot is npm `@browsermt/bergamot-translator` 0.4.9 (Marian "
           "in WebAssembly, driven as its `worker/translator-worker.js` drives it: the model bytes in an `AlignedMemory` of "
           "alignment 256, its `wasm_gemm` imports bound to the module's own `int8*Fallback` exports, `float32` or "
           "`int8shiftAlphaAll`); Attend is the same files through `attend import` in `"
           f"{section['attend_js']}` (SIMD build). Both translate the first {node.get('lines', '?')} lines of the input "
           "above, texts in and out, in three ways: greedy one sentence per call, greedy the whole file in one call, "
           "and beam 4 one sentence per call, each after a warm-up of 8 lines. In Node both run in one process "
           f"({node.get('node')}); in Chromium ({chromium['browser'] if chromium else '—'}) "
           "each in the main thread of its own page in its own browser context (its own renderer process). Attend's "
           "int8 product runs on WebAssembly's relaxed SIMD where the engine has it (`wasm/relaxed/`: "
           "`i16x8.relaxed_dot_i8x16_i7x16_s`, which V8 computes on x86 as intgemm's own `pmaddubsw`), else on SIMD128; "
           + bergamot_relaxed_text(section) + ".\n\n",
           "### Speed (target tokens/s, higher is better)\n\n",
           table(["model", "where", "file", "search", "sentences", "Bergamot tok/s", "Attend tok/s", "Attend / Bergamot",
                  "same, by CPU time", "lines the same", "Bergamot s", "Attend s", "target tokens (Bergamot / Attend)"],
                 speed_rows),
           f"\nEach engine's time is the least of {repeats} timed runs, the engines alternating (and natively below, the "
           "least of as many). *same, by CPU time*: the ratio of tokens per CPU second (in Node the process's user + "
           "system time, in Chromium the page's main thread's, DevTools ThreadTime), which other work descheduling the "
           "engines does not inflate. *target tokens*: the SentencePiece pieces of each engine's output (spm_encode with the model's vocabulary, "
           "no end of sentence), counted alike for both engines, over its wall time; where lines are the same the ratio is "
           "the ratio of times. *lines the same*: output lines equal as text. Given the whole file in one call, "
           "both engines group the sentences into the same batches (Bergamot's: a batch's shortlist is the union of its "
           "sentences'), but Bergamot orders the sentences of one length by the address of their request, which after "
           "earlier calls is not their order, and pads each sentence to its batch's longest (one int8 line of the fixture "
           "differs for that alone); where lines differ it is not quite the same work. "
           f"Target (issue 65): Attend at least {BERGAMOT_SPEED_TARGET:.0f}× Bergamot's tokens/s on every row, "
           + ("**met on every row**" if not misses else "**not met** on " + "; ".join(misses)) + ".\n",
           bergamot_why(section, misses) if misses else ""]
    out += ["\n### Memory (MiB; peak where it says so)\n\n",
            table(["model", "where", "file", "Bergamot wasm memory: start → after each way", "Attend wasm memory: after load → after each way",
                   "wasm peak: Attend / Bergamot", "Bergamot V8 heap peak", "Attend V8 heap peak",
                   "Bergamot peak RSS", "Attend peak RSS", "peak RSS: Attend / Bergamot"], memory_rows),
            "\n*wasm memory*: the byte length of the engine's `WebAssembly.Memory` (wasm memory only grows, so the last "
            "figure is its peak), after loading and after each of the three ways. Bergamot's starts at its instance's "
            "16 MiB: its model is loaded per way (the beam size is in its config; translator-worker.js makes a model per "
            "config), so the first way's figure includes loading; its configuration's `workspace: 128` (MiB, Marian's "
            "tensor arena) is allocated up front. Attend's is after `Translator.load` of the imported file. *V8 heap "
            "peak*: the most JS heap used, sampled after loading and after each way (Node `process.memoryUsage()."
            "heapUsed`, Chromium DevTools `Runtime.getHeapUsage`; neither counts wasm memory). *peak RSS*: in Node the "
            "process's maxrss, each engine alone in its own child process doing the three ways (so they do not share a "
            "peak; node itself: "
            + (", ".join(f"{m['bergamot']['node_max_rss_kib_before'] / 1024:.0f} MiB" for m in list(node.get("memory", {}).values())[:1]))
            + " before loading an engine); in Chromium the peak RSS (VmHWM) of the renderer process of the engine's page "
            "(the largest of the renderers its opening started), the pages of the speed rows above, after all their "
            "runs (in Node the children make one pass of each way). Target (issue 65): Attend's peak memory no more than "
            "Bergamot's: " + ("**met on every row**" if not over else "**not met**: " + "; ".join(over)) + ".\n"]
    if native_rows:
        out += ["\n### Natively: the same files, native Attend against its own WebAssembly (Node, 1 thread)\n\n",
                table(["model", "file", "search", "sentences", "native Attend tok/s", "Attend wasm (Node) tok/s", "wasm / native",
                       "native lines as its wasm", "native s"], native_rows),
                "\nNative: `attend translate --threads 1` of the imported file on the same lines (`--batch 1` for one "
                "sentence per call, `--batch 32` for the whole file), built for this CPU (its best kernels); its time "
                "is the process's wall time less that of the same command on no lines (starting and loading the model: "
                + f"{min(r['native_start_seconds'] for r in node_rows if 'native_start_seconds' in r) * 1e3:.0f}–"
                  f"{max(r['native_start_seconds'] for r in node_rows if 'native_start_seconds' in r) * 1e3:.0f} ms). The wasm column is the Node rows above; *wasm / native* is the ratio of their tokens/s.\n"]
    return "".join(out)


def replace_section(page, heading, text):
    """The page with the `## ` section whose heading starts with `heading` replaced by `text` (up to the next `## `),
    or `text` added before the Speed bar's section where the page has none."""
    lines = page.split("\n")
    starts = [i for i, line in enumerate(lines) if line.startswith(heading)]
    if starts:
        first = starts[0]
        end = next((i for i in range(first + 1, len(lines)) if lines[i].startswith("## ")), len(lines))
    else:
        first = end = next((i for i, line in enumerate(lines) if line.startswith("## Speed bar")), len(lines))
    return "\n".join(lines[:first]).rstrip("\n") + "\n" + text + "\n" + "\n".join(lines[end:])


def busy_note(machine):
    """A warning when the free-cores probe found the machine busy with other work at the start or the end."""
    probe = machine.get("free_cores_probe", [])
    if not probe or min(probe) >= BUSY_BELOW_FREE_CORES:
        return ""
    return (f"\n**The machine was busy with other work during this run** (free-cores probe "
            f"{' → '.join(f'{x:.2f}' for x in probe)} of {machine['logical_cpus']}; load average in Setup): absolute "
            f"figures are low and noisy and the 2-thread rows mean little; the same-run ratios are the claim.\n")


def markdown(results):
    m, attend = results["machine"], results["engines"]["attend"]
    uncommitted = results.get("uncommitted_files")
    changes = f"; at the start the checkout differed from it in {', '.join(f'`{f}`' for f in uncommitted)}" if uncommitted else ""
    versions = [("Attend", f"{attend.get('version')} (commit {results.get('commit')}{changes}), {m.get('compiler')}")]
    for engine in ("pytorch", "onnxruntime-node"):
        if engine in results["engines"]:
            versions.append((engine, results["engines"][engine].get("version")))
    if "browser" in results:
        versions.append(("browser", results["browser"]["browser"]))
        ort_web = results["engines"].get(BROWSER[1], {})
        versions.append(("onnxruntime-web", ort_web.get("version")))
    versions.append(("node", m.get("node")))
    out = [f"# Benchmarks\n\n",
           f"Generated by `scripts/bench.sh` on {results['date']} in {results['bench_seconds'] / 60:.1f} minutes "
           f"(raw figures: `bench/latest.json`). Every engine runs the same weights on the same sentences with the same "
           f"search settings, in this one run; **speed is claimed only as the ratio Attend / peer** (absolute figures "
           f"move with the machine's load).\n",
           busy_note(m),
           "\n## Setup\n\n",
           table(["", ""], [
               ["CPU", f"{m['cpu']}, {m['logical_cpus']} logical CPUs"],
               ["SIMD flags", " ".join(m["simd_flags"])],
               ["OpenBLAS kernels (PyTorch peer, GEMM bench)", m.get("openblas_core") or "OpenBLAS's own detection"],
               ["load average (start → end)", f"{' '.join(f'{x:.2f}' for x in m['load_average_at_start'])} → "
                                              f"{' '.join(f'{x:.2f}' for x in m['load_average_at_end'])}"],
               ["cores free for this run (probe: 2 busy processes, CPU s / wall s; start, end)",
                " → ".join(f"{x:.2f}" for x in m.get("free_cores_probe", []))],
               ["model", f"{results['model']['source']}; {attend['model']['parameters'] / 1e6:.2f}M parameters; "
                         f"the f32 file for every engine (int8 rows: Attend only)"],
               ["input", f"{results['input']['path']}: first {results['input']['sentences']} sentences "
                         f"(beam search: first {results['input']['beam_sentences']})"],
               ["search", f"alpha {results['options']['length_penalty']}, max length {results['options']['max_length']}, "
                          f"max length ratio {results['options']['max_length_ratio']}"],
           ] + [[name, value] for name, value in versions]),
           "\n## Attend vs peers, native (target tokens/s, higher is better)\n\n",
           peers_table(results),
           "\n*same, by CPU time*: the ratio of target tokens per CPU second (user + system, all threads), which a "
           "process descheduled by other work on the machine does not inflate; at 1 thread it should match the wall-time "
           "ratio when the machine is quiet. "
           "*differing*: sentences whose output ids differ from Attend's (same setting, same sentences). "
           "Threads: the 2-thread rows mean something only when the probe above found about 2 free cores. "
           "Attend splits the sentences over 2 translators; PyTorch and ONNX Runtime use 2 intra-op threads "
           "whose idle threads sleep (OMP_WAIT_POLICY=PASSIVE, allow_spinning 0: on this shared machine spinning made 2 "
           "threads up to 12× slower than 1). "
           "Attend's times include tokenizing and detokenizing; the peers start from Attend's source ids. "
           "PyTorch: training/attend_ref with search.py's KV cache (greedy batched with finished rows dropped; beam "
           "per sentence, candidates by topk). ONNX Runtime: encoder + decoder-step graphs from "
           "bench/export_onnx.py (KV cache as inputs/outputs), decoding loops in JS (bench/search.mjs).\n",
           "\n## Latency per sentence at batch 1, 1 thread\n\n",
           latency_table(results)]
    if "browser" in results:
        out += ["\n## In the browser (Chromium, WebAssembly SIMD; 1 thread unless the row says 2)\n\n", browser_table(results),
                f"\nAttend: `wasm/attend.mjs` (SIMD build), texts in, its own tokenizer; batch = sentences per "
                f"`translate()` call. onnxruntime-web: the same ONNX graphs on its WebAssembly backend (SIMD, 1 "
                f"thread, .wasm served locally). Both in the page's main thread. The int8 columns: Attend on the "
                f"shipped int8 file, with `int8Activations: false` (int8 weights times f32 activations) and `true` (as "
                f"the page and the element load it); not the f32 engines' arithmetic, so no peer ratio. *wasm / "
                f"native*: against native Attend with the same arithmetic in this run (f32: the grid above, on the "
                f"same sentences; int8: the native int8 grids below, whose beam rows ran on all "
                f"{results['input']['sentences']} sentences, not the beam subset). Beam 5 at batch 32: Attend only "
                f"(onnxruntime-web's beam loop takes one sentence at a time). *2 threads*: `wasm/pool.mjs`, a `TranslatorPool` "
                f"of 2 Workers, each with its own Translator (no SharedArrayBuffer: the page needs no cross-origin "
                f"isolation), given all the sentences in one call, which it hands to its workers in groups of 32 (each "
                f"worker decodes batches of 32, as each of the native CLI's 2 translators does); beside native "
                f"Attend's 2-thread rows (f32).\n"]
    if "documents" in results:
        out.append(documents_section(results))
    if "bergamot" in results:
        out.append(bergamot_section(results))
    out += ["\n## Speed bar (CTranslate2 as context)\n\n", speed_bar(results),
            "\n## Attend alone: `attend bench` over every setting (f32)\n\n", grid_table(attend)]
    if "attend-int8" in results["engines"]:
        out += ["\n### int8 weights (same grid, 1 thread)\n\n", grid_table(results["engines"]["attend-int8"])]
    if "attend-int8-activations" in results["engines"]:
        out += ["\n### int8 weights and activations (`--int8-activations`, same grid, 1 thread)\n\n",
                grid_table(results["engines"]["attend-int8-activations"])]
    out += ["\n## Model load time and memory\n\n", load_table(results),
            "\nAttend's peak RSS here is the process's maxrss over the whole grid (threads 2 and batch 32 beam "
            "included); the grids above give each setting's own (the high-water mark reset before it).\n"]
    out.append(ceilings_section(results))
    if "wasm_gemm" in results:
        out.append(wasm_gemm_section(results))
    if "kernels" in results:
        out += ["\n## The machine's GEMM limit: Attend's kernels vs OpenBLAS (1 thread, model shapes)\n\n",
                kernels_table(results["kernels"]),
                "\nFrom `attend_kernel_bench` (shapes m × n × k: m rows of activations, n outputs, k inputs; nt = "
                "weights stored [n, k]).\n"]
    out += ["\n## How to run it\n\n",
            "`scripts/bench.sh` (or `npm run bench`) builds `attend` and `attend_kernel_bench` in `build/bench`, the "
            "WebAssembly module (`scripts/build_wasm.sh`), installs the npm peers if missing, then runs "
            "`bench/run.py`, which writes this page and `bench/latest.json`. Options go to `bench/run.py` "
            "(`--model FILE`, `--lines N`, `--beam-lines N`, `--skip torch,ort-node,browser,kernels,wasm-gemm,int8,documents,bergamot`, `--repeat N`, `--only bergamot`: the Bergamot section alone, put into the last run's page; `--node PATH`: the Node.js "
            "of the Node rows, `--node \"$(bench/node_lts.sh)\"` for Node's LTS). "
            "`attend bench --help` describes the native tool alone. "
            f"This run: `{' '.join(['scripts/bench.sh', shown_arguments(results.get('arguments', []))]).strip()}`.\n"]
    return "".join(out)


if __name__ == "__main__":
    with open(sys.argv[1]) as f:
        sys.stdout.write(markdown(json.load(f)))
