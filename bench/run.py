"""The benchmark driver: Attend and its peers on the same weights, the same sentences and the same search
settings, in one run, so every speed is a ratio against a peer measured under the same machine load.

  1. `attend bench` (native, f32 and int8) on the first --lines sentences of --src: the full grid
     (beam 1, 5 x batch 1, 32 x threads 1, 2); its source ids are every peer's input.
  2. PyTorch (the reference model, fp32, KV cache): bench/torch_peer.py.
  3. ONNX Runtime for Node on bench/export_onnx.py's graphs: bench/ort_node.mjs.
  4. In Chromium: Attend's WebAssembly build vs onnxruntime-web: bench/browser.mjs.
  5. The kernels' micro-bench against OpenBLAS (the machine's GEMM limit): attend_kernel_bench; and the weight
     GEMMs natively against the WebAssembly build's in Node (the ceiling of wasm / native): bench/wasm_gemm.py.
  6. Documents: the sentences joined into paragraphs and lists, translated as a document (natively
     `attend bench --document`, in Chromium translateDocument) against the same sentences one per line.
  7. The server: `attend serve` under 1, 4, 16 and 64 concurrent clients on loopback against `attend bench` on the
     same lines (bench/serve_load.py), with a model that names its languages. `--only serve` runs this section alone
     and puts it into the existing --json-out and --md-out.
  7. Marian's files (tests/marian/fixtures/ssru-ende, and bench/models/ssru-tiny-ende when
     training/make_marian_bench_model.sh has made it: Firefox's `tiny` dimensions): Attend's WebAssembly against
     Bergamot's, in Node (bench/bergamot_node.mjs, with native Attend on the same files and each engine's memory in a
     child process of its own) and in Chromium (bench/bergamot_browser.mjs), on the first --beam-lines sentences.
     `--only bergamot` runs this section alone and puts it into the existing --json-out and --md-out.
Every peer's output ids are compared with Attend's for the same setting (count of differing sentences).
Beam search runs on the first --beam-lines sentences for every engine (PyTorch's beam is slow).
Writes the JSON and the markdown report (bench/report.py). Usually run through scripts/bench.sh.
"""
import argparse
import gzip
import json
import os
import platform
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(HERE)
MARIAN_FIXTURE = os.path.join(REPO, "tests", "marian", "fixtures", "ssru-ende")  # training/make_marian_fixtures.sh
# Firefox's `tiny` student's dimensions, trained by training/make_marian_bench_model.sh; not committed (too big): measured
# when the folder exists
MARIAN_BENCH_MODEL = os.path.join(REPO, "bench", "models", "ssru-tiny-ende")
MARIAN_BENCH_MODEL_SCRIPT = "training/make_marian_bench_model.sh"
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(REPO, "training"))

import model_file  # noqa: E402
import report  # noqa: E402
import wasm_gemm  # noqa: E402
from attend_ref import openblas  # noqa: E402

# Every OpenBLAS user this driver starts (the PyTorch peer, the GEMM bench) gets the kernels this
# CPU can run at full speed, not Debian's OpenBLAS's SSE3 fallback for CPUs it does not know.
OPENBLAS_CORE = openblas.choose_core()

GREEDY_SETTINGS = "1:1,1:32"  # beam:batch
BEAM_SETTINGS = "5:1"
BROWSER_BEAM_SETTINGS = "5:1"
# Beam 5 at batch 32 in Chromium: Attend's engines only (the ONNX peer's beam loop takes one sentence at a time,
# so its batch-32 row would repeat its batch-1 row); and batch 32 on 2 threads (beam:batch:threads: wasm/pool.mjs,
# 2 workers each with its own Translator, as the native CLI's 2 translators).
BROWSER_BATCHED_BEAM_SETTINGS = "5:32,5:32:2"
BROWSER_THREADED_GREEDY_SETTINGS = "1:32:2"
WASM_SIMD_BUILD = os.path.join(REPO, "build", "wasm-simd")  # scripts/build_wasm.sh's SIMD build
DOCUMENT_BEAMS, DOCUMENT_BATCH = "1,5", 32
DOCUMENT_REPEAT = 9  # interleaved passes of each path; the report takes the best and the median paired ratio
PARAGRAPH_SENTENCES = 5
BERGAMOT_REPEAT = 5  # timed runs of each engine on each way, alternating; the least is kept (a shared, loaded machine)


def log(message):
    print(f"[bench {time.strftime('%H:%M:%S')}] {message}", file=sys.stderr, flush=True)


def run_json(command, **kwargs):
    """Runs a command that prints one JSON object; its stderr goes to ours."""
    log(" ".join(os.path.relpath(c, REPO) if c.startswith(REPO) else c for c in command))
    out = subprocess.run(command, check=True, stdout=subprocess.PIPE, cwd=REPO, **kwargs).stdout
    return json.loads(out)


def read_lines(path, count):
    opener = gzip.open if path.endswith(".gz") else open
    with opener(path, "rt", encoding="utf-8") as f:
        lines = [line.rstrip("\r\n") for _, line in zip(range(count), f)]
    return lines


def command_output(command):
    try:
        return subprocess.run(command, check=True, capture_output=True, text=True).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return None


def machine_info(build_dir, node):
    cpu = {}
    with open("/proc/cpuinfo") as f:
        for line in f:
            key, _, value = line.partition(":")
            key = key.strip()
            if key in ("model name", "flags") and key not in cpu:
                cpu[key] = value.strip()
    flags = cpu.get("flags", "").split()
    simd = [f for f in flags if f.startswith(("sse4", "avx", "fma", "f16c", "amx"))]
    compiler = None
    cache = os.path.join(build_dir, "CMakeCache.txt")
    if os.path.exists(cache):
        with open(cache) as f:
            for line in f:
                if line.startswith("CMAKE_CXX_COMPILER:"):
                    compiler = command_output([line.split("=", 1)[1].strip(), "--version"])
    return {
        "cpu": cpu.get("model name"), "simd_flags": simd, "logical_cpus": os.cpu_count(),
        "kernel": platform.release(),
        "compiler": compiler.splitlines()[0] if compiler else None,
        "node": command_output([node, "--version"]),
        "chromium": command_output(["/usr/bin/chromium", "--version"]),
        "openblas_core": OPENBLAS_CORE,
    }


def free_cores_probe(python):
    """How many cores this run can get now: two processes each burn 0.5 s of CPU; CPU time / wall time.
    On a machine shared with other work this is below the CPU count, and 2-thread figures mean less."""
    burn = "import time\nt = time.process_time()\nwhile time.process_time() - t < 0.5: pass\n"
    import resource
    before, start = resource.getrusage(resource.RUSAGE_CHILDREN), time.time()
    for p in [subprocess.Popen([python, "-c", burn]) for _ in range(2)]:
        p.wait()
    after, wall = resource.getrusage(resource.RUSAGE_CHILDREN), time.time() - start
    return round((after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime) / wall, 2)


def compare(reference_runs, engine_result, sentences):
    """Adds `differing_sentences` to each run of a peer: sentences whose ids differ from Attend's."""
    for run in engine_result["runs"]:
        ref = reference_runs.get(run["name"])
        if ref is None:  # e.g. a batch-32 beam Attend did not run
            run["differing_sentences"] = None
            continue
        mine = engine_result["ids"][run["name"]]
        run["differing_sentences"] = sum(a != b for a, b in zip(ref[:sentences], mine)) + abs(len(mine) - sentences)


def kernel_bench(path):
    listing = subprocess.run([path, "--benchmark_list_tests"], check=True, capture_output=True, text=True).stdout
    isa = next((i for i in ("avx512", "avx2", "scalar") if f"/{i}/" in listing), "scalar")
    data = run_json([path, f"--benchmark_filter=gemm_(f32|i8w|i8i8)_n[nt]/({isa}|openblas)/", "--benchmark_min_time=0.05",
                     "--benchmark_format=json"], stderr=subprocess.DEVNULL)
    rows = [{"name": b["name"], "gflops": b.get("FLOP/s", 0) / 1e9, "weight_gbytes_per_s": b.get("weight_B/s", 0) / 1e9,
             "ns": b["real_time"]} for b in data["benchmarks"]]
    return {"isa": isa, "rows": rows, "context": data["context"]}


def reads_as_sentence(line):
    """A capital first and . ! ? last: what ICU ends a sentence at and plan_document starts one at, so that such
    lines joined by spaces come back as themselves (tests/text/document_plan_test.cpp checks it on Multi30k)."""
    return line[:1].isupper() and line[-1:] in (".", "!", "?")


def write_document(texts, path):
    """The sentences in order, PARAGRAPH_SENTENCES to a paragraph and a blank line between paragraphs. A paragraph
    with a line that does not read as a sentence ("2 blond girls ...", no full stop) is a list instead: one "- "
    item per line, cut by line. Returns the document's shape."""
    paragraphs, lists = [], 0
    for first in range(0, len(texts), PARAGRAPH_SENTENCES):
        lines = texts[first:first + PARAGRAPH_SENTENCES]
        if all(reads_as_sentence(line) for line in lines):
            paragraphs.append(" ".join(lines))
        else:
            paragraphs.append("\n".join("- " + line for line in lines))
            lists += 1
    document = "\n\n".join(paragraphs) + "\n"
    with open(path, "w", encoding="utf-8") as f:
        f.write(document)
    return {"sentences": len(texts), "paragraph_sentences": PARAGRAPH_SENTENCES, "paragraphs": len(paragraphs), "lists": lists,
            "bytes": len(document.encode("utf-8"))}


def count_tokens(texts, vocab):
    """Target tokens of output texts, counted alike for every engine: the SentencePiece pieces of each line
    (spm_encode with the model's vocabulary), no end-of-sentence token."""
    out = subprocess.run(["spm_encode", f"--model={vocab}", "--output_format=id"], input="".join(t + "\n" for t in texts),
                         check=True, capture_output=True, text=True).stdout.split("\n")[:len(texts)]
    return sum(len(line.split()) for line in out)


def bergamot_places(attend, folder, src, lines, attend_js, browser, node):
    """One Marian folder's rows in Node (and natively) and, with `browser`, in Chromium: {"node": ..., "chromium": ...}.
    Each engine's texts become its target tokens (count_tokens) and are dropped."""
    vocab = next(os.path.join(folder, n) for n in sorted(os.listdir(folder)) if n.startswith("vocab.") and n.endswith(".spm"))
    common = ["--cli", attend, "--folder", folder, "--lines", src, "--limit", str(lines), "--attend-js", attend_js,
              "--repeat", str(BERGAMOT_REPEAT)]
    places = [("node", "bergamot_node.mjs")] + ([("chromium", "bergamot_browser.mjs")] if browser else [])
    out = {}
    for place, script in places:
        log(f"bergamot: {os.path.relpath(folder, REPO)} in {place}")
        result = run_json([node, os.path.join(HERE, script), *common])
        for row in result["rows"]:
            for engine in ("bergamot", "attend", "native"):
                texts = row.pop(f"{engine}_texts", None)
                if texts is not None:
                    row[f"{engine}_tokens"] = count_tokens(texts, vocab)
                    # natively, the time on the lines less the start-up's: on a few lines, within the noise (≤ 0)
                    seconds = row[f"{engine}_seconds"]
                    row[f"{engine}_tokens_per_second"] = row[f"{engine}_tokens"] / seconds if seconds > 0 else None
        out[place] = result
    return out


def bergamot_measure(attend, src, lines, attend_js, browser, node, bench_model=MARIAN_BENCH_MODEL):
    """Section 7: Attend vs Bergamot on Marian's files, in Node (and natively) and, with `browser`, in Chromium: the
    committed fixture (section["node"], section["chromium"]) and, when its folder exists, the model of Firefox's `tiny`
    dimensions (section["tiny"], the same keys; else section["tiny"]["missing"] and how to make it)."""
    started = time.time()
    section = {"load_average_at_start": os.getloadavg(), "attend_js": os.path.relpath(os.path.abspath(attend_js), REPO),
               "fixture": os.path.relpath(MARIAN_FIXTURE, REPO)}
    section.update(bergamot_places(attend, MARIAN_FIXTURE, src, lines, attend_js, browser, node))
    tiny = {"folder": os.path.relpath(bench_model, REPO), "script": MARIAN_BENCH_MODEL_SCRIPT}
    if os.path.isdir(bench_model):
        vocab = next(os.path.join(bench_model, n) for n in sorted(os.listdir(bench_model))
                     if n.startswith("vocab.") and n.endswith(".spm"))
        tiny["vocab_size"] = len(subprocess.run(["spm_export_vocab", f"--model={vocab}"], check=True, capture_output=True,
                                                text=True).stdout.splitlines())
        tiny.update(bergamot_places(attend, bench_model, src, lines, attend_js, browser, node))
    else:
        tiny["missing"] = True
        log(f"bergamot: no {tiny['folder']} (Firefox's tiny dimensions): {MARIAN_BENCH_MODEL_SCRIPT} makes it; measured "
            "the fixture alone")
    section["tiny"] = tiny
    section["load_average_at_end"] = os.getloadavg()
    section["date"] = time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime())
    section["seconds"] = time.time() - started
    return section


def check_document_plan(result, where):
    """The comparison is fair only if the document's sentences are the lines: assert it."""
    plan = result["plan"]
    if not plan["equals_lines"]:
        raise SystemExit(f"{where}: the document's plan has {plan['sentences']} sentences, not the lines "
                         f"(first difference at sentence {plan['first_difference']})")


SERVE_CLIENTS, SERVE_BATCH, SERVE_ROUNDS = "1,4,16,64", 32, 3


def serve_languages(attend, model):
    """The model file's language pair ("en-de"), or None when it names none."""
    info = run_json([attend, "inspect", "--json", model])
    if info.get("source_language") and info.get("target_language"):
        return f"{info['source_language']}-{info['target_language']}"
    return None


def serve_rows(attend, model, pair, src, lines):
    """bench/serve_load.py: `attend serve` under SERVE_CLIENTS concurrent clients on loopback, against `attend bench` at the
    server's batch and threads (one per core, the server's default) on the same lines; SERVE_ROUNDS interleaved rounds."""
    return run_json([sys.executable, os.path.join(HERE, "serve_load.py"), "--cli", attend, "--model", model, "--lines", src,
                     "--limit", str(lines), "--clients", SERVE_CLIENTS, "--batch", str(SERVE_BATCH),
                     "--threads", str(os.cpu_count()), "--pair", pair, "--rounds", str(SERVE_ROUNDS)])


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--build", default=os.path.join(REPO, "build", "bench"), help="native build folder")
    parser.add_argument("--model", help="f32 model file (default: models/<pair>, its int8 file dequantized when no f32 ships; "
                        "for a pair not shipped, runs/<pair>)")
    parser.add_argument("--model-int8", help="int8 model file for Attend's int8 rows (default: beside --model)")
    parser.add_argument("--pair", default="en-de")
    parser.add_argument("--src", default=os.path.join(REPO, "..", "shared", "data", "multi30k", "test_2016_flickr.en.gz"))
    parser.add_argument("--lines", type=int, default=1000, help="sentences for greedy search (all engines)")
    parser.add_argument("--beam-lines", type=int, default=300, help="sentences for beam search (all engines)")
    parser.add_argument("--repeat", type=int, default=1, help="attend bench --repeat")
    parser.add_argument("--skip", default="",
                        help="comma-separated: torch, ort-node, browser, kernels, wasm-gemm, int8, documents, bergamot, serve")
    parser.add_argument("--only", choices=["bergamot", "serve"],
                        help="run this section alone and put it into the existing --json-out and --md-out (the page's other "
                             "sections as they were)")
    parser.add_argument("--attend-js", default=os.path.join(REPO, "wasm", "attend.mjs"),
                        help="Attend's JS API for the Bergamot section (its dist/ beside it; default: wasm/attend.mjs)")
    parser.add_argument("--node", default="node",
                        help="the Node.js of the engines' Node rows (Bergamot, ONNX Runtime) and of the Chromium driver "
                             "(default: node on the PATH; bench/node_lts.sh fetches the current LTS)")
    parser.add_argument("--scratch", help="scratch folder (default: a temporary one)")
    parser.add_argument("--json-out", default=os.path.join(REPO, "bench", "latest.json"))
    parser.add_argument("--md-out", default=os.path.join(REPO, "docs", "benchmarks.md"))
    args = parser.parse_args()
    skip = set(filter(None, args.skip.split(",")))
    attend = os.path.join(args.build, "native", "cli", "attend")
    if args.only == "bergamot":
        only_bergamot(args, attend, skip)
        return
    if args.only == "serve":
        only_serve(args, attend)
        return
    started, load_at_start = time.time(), os.getloadavg()
    cores_at_start = free_cores_probe(sys.executable)
    scratch = args.scratch or tempfile.mkdtemp(prefix="attend_bench_")
    os.makedirs(scratch, exist_ok=True)
    python = sys.executable

    if args.model:
        models = {"f32": os.path.abspath(args.model)}
        int8 = args.model_int8 or args.model.replace(".f32.", ".int8.")
        if os.path.exists(int8) and int8 != args.model:
            models["int8"] = os.path.abspath(int8)
        model_source = os.path.relpath(models["f32"], REPO) if models["f32"].startswith(REPO + os.sep) else models["f32"]
    else:
        models, model_source = model_file.find_models(args.pair, os.path.join(scratch, "model"))
    log(f"model: {model_source}")

    texts = read_lines(args.src, args.lines)
    beam_lines = min(args.beam_lines, len(texts))
    texts_path = os.path.join(scratch, "texts.txt")
    with open(texts_path, "w", encoding="utf-8") as f:
        f.write("".join(t + "\n" for t in texts))
    # Every engine decodes with these (the peers get them as --options): attend translate's defaults.
    options = {"length_penalty": 1.0, "max_length": 256, "max_length_ratio": 3.0}
    search_flags = ["--alpha", str(options["length_penalty"]), "--max-len", str(options["max_length"]),
                    "--max-len-ratio", str(options["max_length_ratio"])]

    results = {"engines": {}}
    # The checkout is shared: what is measured may hold others' edits not yet committed (this run's outputs aside);
    # the commit and those files are read together, before the measurements.
    results["commit"] = command_output(["git", "-C", REPO, "rev-parse", "--short", "HEAD"])
    changed = command_output(["git", "-C", REPO, "diff", "--name-only", "HEAD"]) or ""
    outputs = {os.path.relpath(os.path.abspath(p), REPO) for p in (args.json_out, args.md_out)}
    results["uncommitted_files"] = [path for path in changed.splitlines() if path not in outputs]
    ids_path = os.path.join(scratch, "attend_ids.json")
    results["engines"]["attend"] = run_json(
        [attend, "bench", "--model", models["f32"], "--src", texts_path, "--lines", str(len(texts)), "--json",
         "--ids-out", ids_path, "--repeat", str(args.repeat), *search_flags])
    with open(ids_path) as f:
        attend_ids = json.load(f)["runs"]
    beam_ids_path = ids_path
    if beam_lines < len(texts):  # Attend's beam rows on the beam subset, for the comparisons
        beam_ids_path = os.path.join(scratch, "attend_beam_ids.json")
        results["engines"]["attend-beam-subset"] = run_json(
            [attend, "bench", "--model", models["f32"], "--src", texts_path, "--lines", str(beam_lines), "--beam", "5",
             "--json", "--ids-out", beam_ids_path, "--repeat", str(args.repeat), *search_flags])
    with open(beam_ids_path) as f:
        attend_beam_ids = json.load(f)["runs"]
    beam_texts_path = os.path.join(scratch, "texts_beam.txt")
    with open(beam_texts_path, "w", encoding="utf-8") as f:
        f.write("".join(t + "\n" for t in texts[:beam_lines]))
    if "int8" in models and "int8" not in skip:
        int8_grid = [attend, "bench", "--model", models["int8"], "--src", texts_path, "--lines", str(len(texts)),
                     "--json", "--threads", "1", "--repeat", str(args.repeat), *search_flags]
        results["engines"]["attend-int8"] = run_json(int8_grid)
        results["engines"]["attend-int8-activations"] = run_json(int8_grid + ["--int8-activations"])

    def run_peer(name, make_command):
        """Greedy settings on all sentences, beam settings on the beam subset; merged into one result."""
        greedy = run_json(make_command(ids_path, GREEDY_SETTINGS))
        compare(attend_ids, greedy, len(texts))
        beam = run_json(make_command(beam_ids_path, BEAM_SETTINGS))
        compare(attend_beam_ids, beam, beam_lines)
        greedy["runs"] += beam["runs"]
        for result in (greedy, beam):
            result.pop("ids")
        results["engines"][name] = greedy

    options_json = json.dumps(options)
    if "torch" not in skip:
        run_peer("pytorch", lambda ids, settings: [python, os.path.join(HERE, "torch_peer.py"), "--model", models["f32"],
                                                   "--ids", ids, "--settings", settings, "--options", options_json])
    onnx_dir = os.path.join(scratch, "onnx")
    if not {"ort-node", "browser"} <= skip:
        run_json([python, os.path.join(HERE, "export_onnx.py"), "--model", models["f32"], "--out", onnx_dir],
                 stderr=subprocess.DEVNULL)
    if "ort-node" not in skip:
        run_peer("onnxruntime-node", lambda ids, settings: [args.node, os.path.join(HERE, "ort_node.mjs"), "--onnx", onnx_dir,
                                                            "--ids", ids, "--settings", settings, "--options", options_json])
    if "browser" not in skip:
        browser_command = lambda ids, texts_file, settings: [
            args.node, os.path.join(HERE, "browser.mjs"), "--scratch", scratch, "--model", models["f32"], "--onnx", onnx_dir,
            "--ids", ids, "--texts", texts_file, "--settings", settings, "--options", options_json,
            *(["--model-int8", models["int8"]] if "int8" in models and "int8" not in skip else [])]
        greedy = run_json(browser_command(ids_path, texts_path, GREEDY_SETTINGS))
        beam = run_json(browser_command(beam_ids_path, beam_texts_path, BROWSER_BEAM_SETTINGS))
        threaded_greedy = run_json(browser_command(ids_path, texts_path, BROWSER_THREADED_GREEDY_SETTINGS)
                                   + ["--engines", "attend-wasm"])
        batched_beam = run_json(browser_command(beam_ids_path, beam_texts_path, BROWSER_BATCHED_BEAM_SETTINGS)
                                + ["--engines", "attend-wasm"])
        for name in greedy["engines"]:
            compare(attend_ids, greedy["engines"][name], len(texts))
            for more, reference, sentences in ((threaded_greedy, attend_ids, len(texts)),
                                               (beam, attend_beam_ids, beam_lines),
                                               (batched_beam, attend_beam_ids, beam_lines)):
                if name in more["engines"]:
                    compare(reference, more["engines"][name], sentences)
                    greedy["engines"][name]["runs"] += more["engines"][name]["runs"]
            greedy["engines"][name].pop("ids")
            results["engines"][f"{name} (Chromium)"] = greedy["engines"][name]
        results["browser"] = {"browser": greedy["browser"], "userAgent": greedy["userAgent"]}
    if "documents" not in skip:
        document_path = os.path.join(scratch, "document.txt")
        documents = {"document": write_document(texts, document_path), "repeat": DOCUMENT_REPEAT,
                     "model": os.path.basename(models.get("int8", models["f32"]))}
        documents["native"] = run_json(
            [attend, "bench", "--model", models.get("int8", models["f32"]), "--src", texts_path, "--lines",
             str(len(texts)), "--document", document_path, "--beam", DOCUMENT_BEAMS, "--batch", str(DOCUMENT_BATCH),
             "--repeat", str(DOCUMENT_REPEAT), "--json", *search_flags])
        check_document_plan(documents["native"], "attend bench --document")
        if "browser" not in skip:
            documents["chromium"] = run_json(
                [args.node, os.path.join(HERE, "browser.mjs"), "--scratch", scratch,
                 "--model", models.get("int8", models["f32"]), "--texts", texts_path, "--options", options_json,
                 "--document", document_path, "--beams", DOCUMENT_BEAMS, "--repeat", str(DOCUMENT_REPEAT)])
            check_document_plan(documents["chromium"], "Chromium planDocument")
        results["documents"] = documents
    # Marian's files: Attend's WebAssembly (built for the browser rows) against Bergamot's, in Node and Chromium
    if "bergamot" not in skip and "browser" not in skip:
        results["bergamot"] = bergamot_measure(attend, args.src, beam_lines, args.attend_js, browser=True, node=args.node)
    if "serve" not in skip:
        serve_model = models.get("int8", models["f32"])
        pair = serve_languages(attend, serve_model)
        if pair:
            results["serve"] = serve_rows(attend, serve_model, pair, args.src, len(texts))
        else:
            log(f"server rows skipped: {os.path.basename(serve_model)} names no languages (attend serve needs them)")
    if "kernels" not in skip:
        results["kernels"] = kernel_bench(os.path.join(args.build, "native", "bench", "attend_kernel_bench"))
    if "wasm-gemm" not in skip and "browser" not in skip:
        results["wasm_gemm"] = wasm_gemm.measure(args.build, [WASM_SIMD_BUILD])

    results["machine"] = machine_info(args.build, args.node)
    results["machine"]["load_average_at_start"] = load_at_start
    results["machine"]["load_average_at_end"] = os.getloadavg()
    results["machine"]["free_cores_probe"] = [cores_at_start, free_cores_probe(sys.executable)]
    results["input"] = {"path": os.path.relpath(os.path.abspath(args.src), REPO), "sentences": len(texts),
                        "beam_sentences": beam_lines}
    results["model"] = {"source": model_source, "files": {k: os.path.basename(v) for k, v in models.items()},
                        "config": run_json([attend, "inspect", "--json", models["f32"]])["config"]}
    results["options"] = options
    results["date"] = time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime())
    results["bench_seconds"] = time.time() - started
    results["arguments"] = sys.argv[1:]

    with open(args.json_out, "w") as f:
        json.dump(results, f, indent=1)
    with open(args.md_out, "w") as f:
        f.write(report.markdown(results))
    log(f"wrote {args.md_out} and {args.json_out} "
        f"in {results['bench_seconds']:.0f} s")


def build_commit(build_dir):
    """The commit of the source tree a native build was configured from (a worktree of its own, say), with a "+" where
    that tree differs from it; this checkout's HEAD where the build does not say."""
    source = REPO
    cache = os.path.join(build_dir, "CMakeCache.txt")
    if os.path.exists(cache):
        with open(cache) as f:
            source = next((line.split("=", 1)[1].strip() for line in f if line.startswith("CMAKE_HOME_DIRECTORY:")), REPO)
    commit = command_output(["git", "-C", source, "rev-parse", "--short", "HEAD"])
    changed = command_output(["git", "-C", source, "status", "--porcelain", "--untracked-files=no"])
    return f"{commit}{'+' if changed else ''}"


def put_section_alone(args, results, key, section, heading, render):
    """A section measured alone (--only) put into the last full run's JSON under `key`, and in its markdown only the
    text under `heading` replaced by render(results)."""
    section["measured_alone"] = {"commit": build_commit(args.build), "machine": machine_info(args.build, args.node),
                                 "arguments": sys.argv[1:]}
    results[key] = section
    with open(args.json_out, "w") as f:
        json.dump(results, f, indent=1)
    with open(args.md_out) as f:
        page = f.read()
    with open(args.md_out, "w") as f:
        f.write(report.replace_section(page, heading, render(results)))
    log(f"put the {key} section into {args.md_out} and {args.json_out}")


def only_bergamot(args, attend, skip):
    """--only bergamot: the section measured now, put into the page of the last full run (its JSON, and in the
    markdown only this section's text replaced, so that what the page holds beside the JSON stays)."""
    with open(args.json_out) as f:
        results = json.load(f)
    lines = len(read_lines(args.src, min(args.beam_lines, args.lines)))
    section = bergamot_measure(attend, args.src, lines, args.attend_js, browser="browser" not in skip, node=args.node)
    put_section_alone(args, results, "bergamot", section, report.BERGAMOT_HEADING, report.bergamot_section)


def only_serve(args, attend):
    """--only serve: the server section measured now (the --model-int8 or --model file, else the pair's shipped int8 file),
    put into the page of the last full run as only_bergamot puts its own."""
    model = args.model_int8 or args.model or os.path.join(REPO, "models", args.pair, "model.int8.safetensors")
    pair = serve_languages(attend, model)
    if not pair:
        raise SystemExit(f"{model} names no languages: attend serve cannot serve it")
    with open(args.json_out) as f:
        results = json.load(f)
    section = serve_rows(attend, model, pair, args.src, len(read_lines(args.src, args.lines)))
    section["date"] = time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime())
    put_section_alone(args, results, "serve", section, report.SERVE_HEADING, report.serve_section)


if __name__ == "__main__":
    main()
