"""Smoke tests of `attend bench` and of bench/run.py on a tiny model: they run and their JSON is valid; and bench/report.py's
rendering of the documents step and of the section on Marian's files (Attend vs Bergamot) from given figures.
Environment (set by CMakeLists.txt): ATTEND_BIN, ATTEND_TINY (the tiny_model fixture's folder), ATTEND_BUILD."""
import json
import os
import subprocess
import sys
import tempfile
import unittest

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
BIN = os.environ.get("ATTEND_BIN", os.path.join(REPO, "build", "bench", "native", "cli", "attend"))
TINY = os.environ.get("ATTEND_TINY", os.path.join(REPO, "build", "bench", "tests", "fixtures", "tiny"))
BUILD = os.environ.get("ATTEND_BUILD", os.path.join(REPO, "build", "bench"))
MODEL, SRC = os.path.join(TINY, "tiny.f32.safetensors"), os.path.join(TINY, "src.txt")
RUN_FIELDS = ("name", "beam", "batch", "threads", "seconds", "sentences", "target_tokens", "sentences_per_second",
              "target_tokens_per_second")


class AttendBench(unittest.TestCase):
    def run_bench(self, *extra):
        done = subprocess.run([BIN, "bench", "--model", MODEL, "--src", SRC, *extra], capture_output=True, text=True)
        self.assertEqual(done.returncode, 0, done.stderr)
        return done.stdout

    def test_json_report_covers_the_grid(self):
        with tempfile.TemporaryDirectory() as tmp:
            ids_path = os.path.join(tmp, "ids.json")
            report = json.loads(self.run_bench("--lines", "4", "--json", "--ids-out", ids_path))
            with open(ids_path) as f:
                ids = json.load(f)
        self.assertEqual(report["input"]["sentences"], 4)
        self.assertGreater(report["model"]["load_ms"], 0)
        self.assertGreater(report["peak_rss_mib"], 0)
        names = [r["name"] for r in report["runs"]]
        self.assertEqual(len(names), 8)  # beam 1, 5 x batch 1, 32 x threads 1, 2
        for run in report["runs"]:
            for field in RUN_FIELDS:
                self.assertIn(field, run)
            self.assertEqual(run["sentences"], 4)
            self.assertGreater(run["seconds"], 0)
            # The setting's own peak, within the process's (Linux resets the high-water mark per setting).
            self.assertGreater(run["peak_rss_mib"], 0)
            self.assertLessEqual(run["peak_rss_mib"], report["peak_rss_mib"] + 0.1)
            self.assertEqual(run["target_tokens"], sum(len(o) for o in ids["runs"][run["name"]]))
            self.assertEqual("latency_ms" in run, run["batch"] == 1 and run["threads"] == 1, run["name"])
        self.assertEqual(len(ids["sources"]), 4)
        self.assertTrue(all(s and s[-1] == 3 for s in ids["sources"]))  # eos-terminated source ids

    def test_table_and_lists(self):
        out = self.run_bench("--lines", "2", "--beam", "1", "--batch", "2", "--threads", "1")
        self.assertIn("tgt tok/s", out)
        self.assertIn("peak memory", out)
        self.assertIn("peak MiB", out)

    def test_bad_list_is_a_usage_error(self):
        for option, value in (("--beam", "1,x"), ("--beam", "1,2,"), ("--batch", " 4"), ("--batch", "+4"),
                              ("--threads", ",1"), ("--threads", "")):
            done = subprocess.run([BIN, "bench", "--model", MODEL, "--src", SRC, option, value], capture_output=True,
                                  text=True)
            self.assertEqual(done.returncode, 2, f"{option} {value!r}: {done.stderr}")
            self.assertIn(option, done.stderr)

    def test_blank_lines_are_skipped_and_a_rejected_line_is_named_before_measuring(self):
        with open(SRC) as f:
            lines = f.read().splitlines()[:3]
        with tempfile.TemporaryDirectory() as tmp:
            with_blanks = os.path.join(tmp, "blanks.txt")
            with open(with_blanks, "w", encoding="utf-8") as f:
                f.write(f"{lines[0]}\n\n  \n{lines[1]}\n\u200b\u00a0\n{lines[2]}\n")  # invisible characters too
            done = subprocess.run([BIN, "bench", "--model", MODEL, "--src", with_blanks, "--beam", "1", "--batch", "1",
                                   "--threads", "1", "--json"], capture_output=True, text=True)
            self.assertEqual(done.returncode, 0, done.stderr)
            self.assertEqual(json.loads(done.stdout)["input"]["sentences"], 3)
            rejected = os.path.join(tmp, "rejected.txt")
            with open(rejected, "wb") as f:
                f.write(f"{lines[0]}\n\n".encode() + b"broken \xff line\n" + f"{lines[1]}\n".encode())
            done = subprocess.run([BIN, "bench", "--model", MODEL, "--src", rejected, "--beam", "1", "--batch", "1",
                                   "--threads", "1"], capture_output=True, text=True, errors="backslashreplace")
        self.assertEqual(done.returncode, 1)
        self.assertEqual(done.stdout, "")
        self.assertRegex(done.stderr, r"^attend: error: '[^']*rejected.txt' line 3: [^\n]*UTF-8[^\n]*\n$")


@unittest.skipIf(os.path.exists(os.path.join(REPO, "models", "en-de", "model.f32.safetensors")),
                 "an f32 en-de file ships: the benchmark runs it as is")
class ShippedModel(unittest.TestCase):
    """Without --model the benchmark runs the shipped model; only its int8 file ships, so the f32 engines get
    that file's weights dequantized."""

    def test_int8_alone_is_dequantized_for_the_f32_engines(self):
        sys.path[:0] = [os.path.join(REPO, "bench"), os.path.join(REPO, "training")]
        import model_file
        from attend_ref.export import read_safetensors
        with tempfile.TemporaryDirectory() as tmp:
            models, source = model_file.find_models("en-de", tmp)
            self.assertEqual(models["int8"], os.path.join(REPO, "models", "en-de", "model.int8.safetensors"))
            self.assertIn("dequantized", source)
            q, q_meta = read_safetensors(models["int8"])
            f, f_meta = read_safetensors(models["f32"])
            inspected = [subprocess.run([BIN, "inspect", models[d]], capture_output=True, text=True)
                         for d in ("int8", "f32")]
        self.assertEqual(f_meta["attend.config"], q_meta["attend.config"])
        self.assertEqual(f_meta["attend.dtype"], "f32")
        self.assertEqual(set(f), {name for name in q if not name.endswith("_scale")})
        int8_weights = [name for name in q if q[name].dtype.name == "int8"]
        self.assertGreater(len(int8_weights), 0)
        for name, array in f.items():
            if name in int8_weights:
                rows = [q[name][r].astype("float32") * q[name + "_scale"][r] for r in range(q[name].shape[0])]
                self.assertEqual([list(row) for row in rows], [list(row) for row in array], name)
            else:
                self.assertEqual(array.dtype, q[name].dtype, name)
                self.assertEqual(array.tobytes(), q[name].tobytes(), name)
        for done in inspected:
            self.assertEqual(done.returncode, 0, done.stderr)
        fields = [dict(line.split(None, 1) for line in done.stdout.splitlines()[:8]) for done in inspected]
        self.assertEqual((fields[0]["weights"], fields[1]["weights"]), ("int8", "f32"))
        self.assertEqual(fields[0]["parameters"], fields[1]["parameters"])


class Driver(unittest.TestCase):
    def test_run_py_writes_json_and_markdown(self):
        skip = ["browser", "kernels"]
        if not os.path.isdir(os.path.join(REPO, "node_modules", "onnxruntime-node")):
            skip.append("ort-node")
        with tempfile.TemporaryDirectory() as tmp:
            json_out, md_out = os.path.join(tmp, "bench.json"), os.path.join(tmp, "bench.md")
            done = subprocess.run(
                [sys.executable, os.path.join(REPO, "bench", "run.py"), "--build", BUILD, "--model", MODEL, "--src", SRC,
                 "--lines", "4", "--beam-lines", "2", "--skip", ",".join(skip), "--scratch", os.path.join(tmp, "s"),
                 "--json-out", json_out, "--md-out", md_out], capture_output=True, text=True)
            self.assertEqual(done.returncode, 0, done.stderr[-3000:])
            with open(json_out) as f:
                results = json.load(f)
            with open(md_out) as f:
                markdown = f.read()
        self.assertIn("# Benchmarks", markdown)
        self.assertNotIn(os.path.relpath(json_out, REPO), results["uncommitted_files"])  # a list of paths, outputs aside
        self.assertIn("pytorch", results["engines"])
        self.assertIn("attend-int8", results["engines"])  # tiny.int8.safetensors, beside --model
        # int8 activations (every CPU's kernels have them) and their rows
        self.assertIn("attend-int8-activations", results["engines"])
        self.assertIn("int8 weights and activations", markdown)
        documents = results["documents"]  # the 4 lines as a document (a list: not every line ends a sentence)
        self.assertEqual((documents["document"]["sentences"], documents["document"]["lists"]), (4, 1))
        self.assertTrue(documents["native"]["plan"]["equals_lines"])
        self.assertEqual([r["name"] for r in documents["native"]["runs"]],
                         ["beam1_batch32_threads1", "beam5_batch32_threads1"])
        for run in documents["native"]["runs"]:
            times = [f"{path}_{clock}" for path in ("line", "document", "cut") for clock in ("seconds", "cpu_seconds")]
            self.assertEqual([len(run[k]) for k in times], [documents["repeat"]] * 6)
            self.assertEqual(run["differing_sentences"], 0)
            self.assertTrue(run["document_text_equal"])
        self.assertIn("## Documents", markdown)
        for name, engine in results["engines"].items():
            for run in engine["runs"]:
                for field in RUN_FIELDS:
                    self.assertIn(field, run, name)
                if name not in ("attend", "attend-beam-subset", "attend-int8", "attend-int8-activations"):
                    self.assertIsInstance(run["differing_sentences"], int, f"{name} {run['name']}")
                    self.assertLessEqual(run["differing_sentences"], run["sentences"])


def run_only(test, arguments):
    """bench/run.py `arguments` (an --only section) against a last run's JSON holding only its date and a page holding
    only a later section; the test fails unless it exits 0. Returns (the JSON it left, the page it left)."""
    with tempfile.TemporaryDirectory() as tmp:
        json_out, md_out = os.path.join(tmp, "bench.json"), os.path.join(tmp, "bench.md")
        with open(json_out, "w") as f:
            json.dump({"date": "earlier"}, f)
        with open(md_out, "w") as f:
            f.write("# Benchmarks\n\n## Speed bar (CTranslate2 as context)\n\nx\n")
        done = subprocess.run([sys.executable, os.path.join(REPO, "bench", "run.py"), *arguments, "--build", BUILD,
                               "--json-out", json_out, "--md-out", md_out], capture_output=True, text=True)
        test.assertEqual(done.returncode, 0, done.stderr[-3000:])
        with open(json_out) as f:
            results = json.load(f)
        with open(md_out) as f:
            return results, f.read()


class BergamotDriver(unittest.TestCase):
    """bench/run.py --only bergamot, in Node alone (--skip browser), on 3 lines: the section goes into the given JSON and
    page, every row with its tokens/s (its texts dropped), each engine's memory, native Attend beside its wasm."""

    def test_only_bergamot_in_node(self):
        if not os.path.isdir(os.path.join(REPO, "node_modules", "@browsermt", "bergamot-translator")):
            self.skipTest("npm @browsermt/bergamot-translator is not installed")
        if not os.path.exists(os.path.join(REPO, "wasm", "dist", "attend-simd.wasm")):
            self.skipTest("wasm/dist holds no SIMD build (scripts/build_wasm.sh)")
        src = os.path.join(REPO, "..", "shared", "data", "multi30k", "test_2016_flickr.en.gz")
        if not os.path.exists(src):
            self.skipTest(f"no {src}")
        results, markdown = run_only(self, ["--only", "bergamot", "--skip", "browser", "--src", src, "--beam-lines", "3"])
        self.assertEqual(results["date"], "earlier")
        node = results["bergamot"]["node"]
        self.assertEqual(len(node["rows"]), 6)
        for row in node["rows"]:
            self.assertNotIn("attend_texts", row)
            self.assertGreater(row["attend_tokens_per_second"], 0)
            self.assertGreater(row["bergamot_tokens_per_second"], 0)
            self.assertGreater(row["native_tokens"], 0)  # its tokens/s: None where 3 lines take less than the noise
            self.assertLessEqual(row["same_lines"], 3)
        for dtype in ("f32", "int8"):
            for engine in ("bergamot", "attend"):
                memory = node["memory"][dtype][engine]
                self.assertGreaterEqual(memory["wasm_bytes_peak"], memory["wasm_bytes_after_load"])
                self.assertGreater(memory["max_rss_kib"], 0)
        self.assertNotIn("chromium", results["bergamot"])
        tiny = results["bergamot"]["tiny"]  # the model of Firefox's tiny dimensions: measured when its folder exists
        if tiny.get("missing"):
            self.assertIn("`training/make_marian_bench_model.sh` trains it", markdown)
        else:
            self.assertEqual(len(tiny["node"]["rows"]), 6)
            self.assertIn("| tiny (d 256, Firefox's dimensions) | Node |", markdown)
        self.assertIn("## Marian's files: Attend vs Bergamot", markdown)
        self.assertLess(markdown.index("Attend vs Bergamot"), markdown.index("## Speed bar"))


class BrowserReport(unittest.TestCase):
    """bench/report.py's browser table from given figures: a row per Chromium setting, beam 5 at batch 32 and 2 threads
    included, and wasm / native beside each engine with the same arithmetic (f32 against the f32 beam subset on beam
    rows, 2 threads against native 2 threads)."""

    def test_rows_and_wasm_over_native(self):
        def run(name, tokens_per_second, sentences=1000):
            return {"name": name, "sentences": sentences, "target_tokens_per_second": tokens_per_second,
                    "differing_sentences": 0}

        def engine(greedy, beam, beam_sentences=300):
            return {"runs": [run("beam1_batch1_threads1", greedy), run("beam1_batch32_threads1", 2 * greedy),
                             run("beam5_batch1_threads1", beam, beam_sentences),
                             run("beam5_batch32_threads1", 2 * beam, beam_sentences)]}

        results = {"input": {"sentences": 1000}, "engines": {
            "attend": engine(1000, 999), "attend-beam-subset": engine(0, 400), "attend-int8": engine(2000, 800),
            "attend-int8-activations": engine(4000, 1600),
            "attend-wasm (Chromium)": engine(500, 100), "attend-wasm-int8-weights (Chromium)": engine(500, 200),
            "attend-wasm-int8-activations (Chromium)": engine(1000, 400),
            "onnxruntime-web (Chromium)": {"runs": engine(250, 50)["runs"][:3]}}}
        # 2 threads: the wasm pool beside native Attend's 2 translators (f32 only; the int8 grids run 1 thread)
        results["engines"]["attend"]["runs"].append(run("beam1_batch32_threads2", 4000))
        results["engines"]["attend-wasm (Chromium)"]["runs"].append(run("beam1_batch32_threads2", 1000))
        sys.path.insert(0, os.path.join(REPO, "bench"))
        import report
        lines = [line for line in report.browser_table(results).splitlines() if line.startswith("| ")]
        header = [c.strip() for c in lines[0].split("|")[1:-1]]
        rows = {r[0]: dict(zip(header, r)) for r in ([c.strip() for c in line.split("|")[1:-1]] for line in lines[2:])}
        self.assertEqual(list(rows), ["greedy, batch 1", "greedy, batch 32", "beam 5, batch 1", "beam 5, batch 32",
                                      "greedy, batch 32, 2 threads"])
        self.assertEqual(rows["greedy, batch 32, 2 threads"]["wasm / native"], "**0.25×**")
        self.assertEqual(rows["greedy, batch 32, 2 threads"]["int8 activations: wasm / native"], "—")
        self.assertEqual(rows["greedy, batch 32"]["wasm / native"], "**0.50×**")
        self.assertEqual(rows["beam 5, batch 1"]["wasm / native"], "**0.25×**")  # 100 / the subset's 400, not 999
        self.assertEqual(rows["beam 5, batch 32"]["wasm / native"], "**0.25×**")
        self.assertEqual(rows["beam 5, batch 32"]["Attend / onnxruntime-web"], "—")  # no peer row there
        self.assertEqual(rows["greedy, batch 1"]["int8 weights: wasm / native"], "**0.25×**")
        self.assertEqual(rows["beam 5, batch 32"]["int8 activations: wasm / native"], "**0.25×**")


class Ceilings(unittest.TestCase):
    """bench/ceilings.py: a target token's matrix products timed at the micro-bench's many-rows rates, and
    bench/report.py's section of the targets against them."""
    CONFIG = {"d_model": 128, "d_ff": 512, "encoder_layers": 4, "decoder_layers": 4, "tgt_vocab_size": 8000}

    def kernels(self, rate_at_448):
        shapes = [(8000, 128), (512, 128), (128, 512), (384, 128)]  # as attend_kernel_bench's
        rows = [{"name": f"gemm_f32_nt/avx2/m:448/n:{n}/k:{k}", "gflops": rate_at_448} for n, k in shapes]
        rows += [{"name": f"gemm_f32_nt/avx2/m:4/n:{n}/k:{k}", "gflops": 1.0} for n, k in shapes]  # not read
        return {"isa": "avx2", "rows": rows}

    def test_a_token_costs_its_rows_decoder_steps_and_its_share_of_the_source(self):
        sys.path.insert(0, os.path.join(REPO, "bench"))
        import ceilings
        d, ff, v = 128, 512, 8000
        step = 2 * (4 * 3 * d * d + 12 * d * d + 4 * ff * d + 4 * d * ff + v * d)  # FLOPs of one row's decoder step
        source = 2 * (4 * 3 * d * d + 4 * d * d + 4 * ff * d + 4 * d * ff + 4 * 2 * d * d)  # of one source token
        run = {"target_tokens": 100, "sentences": 10}  # beam 5: 5 x 110 row-steps, over 100 tokens
        got = ceilings.ceiling(self.kernels(50.0), "gemm_f32_nt", self.CONFIG, run, beam=5, source_tokens=80)
        self.assertAlmostEqual(got, 1 / ((5 * 1.1 * step + 0.8 * source) / 50e9), delta=1e-6 * got)
        self.assertIsNone(ceilings.ceiling(self.kernels(50.0), "gemm_i8w_nt", self.CONFIG, run, 5, 80))

    def test_the_report_sets_each_target_beside_its_ceiling(self):
        sys.path.insert(0, os.path.join(REPO, "bench"))
        import report
        runs = [{"name": name, "beam": beam, "sentences": 100, "target_tokens": 1300, "target_tokens_per_second": tps}
                for name, beam, tps in (("beam5_batch1_threads1", 5, 1000.0), ("beam5_batch32_threads1", 5, 1200.0),
                                        ("beam1_batch32_threads1", 1, 4000.0))]
        results = {"model": {"config": self.CONFIG}, "kernels": self.kernels(50.0),
                   "engines": {"attend": {"input": {"sentences": 100, "source_tokens": 1500}, "runs": runs}}}
        section = report.ceilings_section(results)
        self.assertIn("| f32 | 1,000 | 1,200 | 1.20× |", section)
        self.assertIn("| 2.5× |", section)
        self.assertEqual(report.ceilings_section({"model": {}, "engines": {}}), "", "no config: no section")


class WasmGemmReport(unittest.TestCase):
    """bench/report.py's wasm / native GEMM section from given rates: the ratios, their spans, and the verdict on the
    0.5× target that follows from them."""

    @staticmethod
    def results(wasm_f32_at_32):
        rows = [{"kernel": kernel, "m": m, "n": 512, "k": 128, "native": 200.0,
                 "wasm": [{1: 120.0, 5: 40.0, 32: wasm_f32_at_32}[m] * (1.0 if kernel == "f32" else 0.5)]}
                for kernel in ("f32", "i8w", "i8i8") for m in (1, 5, 32)]
        return {"wasm_gemm": {"cpu": "Test CPU 9000", "native_isa": "avx512", "builds": ["wasm"], "rounds": 3,
                              "rows": rows}}

    def section(self, wasm_f32_at_32):
        sys.path.insert(0, os.path.join(REPO, "bench"))
        import report
        return report.wasm_gemm_section(self.results(wasm_f32_at_32))

    def test_ratios_spans_and_the_verdict(self):
        section = self.section(50.0)
        self.assertIn("| 32 | 512 × 128 | 200.0 | 50.0 | **0.25×** | 200.0 | 25.0 | **0.12×** |", section)
        self.assertIn("f32 0.20–0.25×, int8 weights 0.10–0.12×", section)  # rows 5 and 32
        self.assertIn("**0.5× native at batch is beyond the arithmetic ceiling**", section)
        self.assertIn("wasm reaches 0.60–0.60×", section)  # 1 row, f32
        self.assertIn("avx512's 16-lane FMAs", section)
        fast = self.section(150.0)  # f32 at 0.75× with 32 rows: the products do not bound the target
        self.assertNotIn("beyond the arithmetic ceiling", fast)
        self.assertIn("do not keep the browser rows under 0.5× native", fast)


class DocumentsReport(unittest.TestCase):
    """bench/report.py's Documents section from given figures: the overheads, the cut's share, the checks, the verdict;
    and the note on a busy machine."""

    @staticmethod
    def results(document_seconds, document_cpu_seconds, differing=0, waits=(0.012, 0.009, 0.02)):
        run = {"beam": 1, "batch": 32, "sentences": 1000, "line_seconds": [1.0, 1.2, 1.1],
               "document_seconds": document_seconds, "cut_seconds": [0.004, 0.003, 0.005],
               "line_cpu_seconds": [0.9, 0.9, 0.9], "document_cpu_seconds": document_cpu_seconds,
               "cut_cpu_seconds": [0.003, 0.002, 0.004], "differing_sentences": differing,
               "document_text_equal": differing == 0}
        plan = {"sentences": 1000, "equals_lines": True, "first_difference": None}
        return {"machine": {"cpu": "Test CPU 9000"}, "documents": {
            "document": {"sentences": 1000, "paragraph_sentences": 5, "paragraphs": 200, "lists": 47, "bytes": 70000},
            "repeat": 3, "model": "model.int8.safetensors",
            "native": {"model": {"weight_dtype": "int8", "int8_activations": False}, "plan": plan,
                       "runs": [run, dict(run, beam=5)]},
            "chromium": {"int8_activations": True, "plan": plan,
                         "runs": [dict(run, document_cpu_seconds=[0.9] * 3, document_wait_seconds=list(waits))]}}}

    def rows(self, results):
        sys.path.insert(0, os.path.join(REPO, "bench"))
        import report
        section = report.documents_section(results)
        rows = [[c.strip() for c in line.split("|")[1:-1]] for line in section.splitlines()
                if line.startswith(("| native", "| Chromium"))]
        return section, rows

    def test_overheads_cut_share_and_checks(self):
        # wall: best 1.02 / 1.0 - 1 = +2.0 %; paired 1.02, 1.25, 1.0: median +2.0 %.
        # CPU: paired 0.92, 0.91, 0.93 over 0.9: median +2.2 %; cut 0.002 / 0.9 = 0.22 %.
        # Chromium: CPU +0.0 %, plus the least waiting 0.009 s / 0.9 s = +1.0 %
        section, rows = self.rows(self.results([1.02, 1.5, 1.1], [0.92, 0.91, 0.93]))
        self.assertIn("Test CPU 9000", section)
        self.assertEqual(len(rows), 3)
        self.assertEqual(rows[0], ["native (`translate_document`)", "greedy, batch 32", "1000 (the lines)", "0/1000", "yes",
                                   "1.00", "1.02", "+2.0 %", "+2.0 %", "+2.2 %", "—", "**+2.2 %**", "3.0", "0.22 %"])
        self.assertEqual(rows[1][1], "beam 5, batch 32")
        self.assertEqual(rows[2][7:], ["+2.0 %", "+2.0 %", "+0.0 %", "9", "**+1.0 %**", "3.0", "0.22 %"])
        self.assertIn("natively int8 weights × f32 activations", section)
        self.assertIn("in Chromium int8 weights × int8 activations", section)
        self.assertIn("met on every row", section)

    def test_cpu_time_and_waiting_decide_the_verdict(self):
        # wall: best +1.0 %, paired median 1.32 / 1.2 = 1.1 -> +10.0 %; judged: CPU +2.2 % natively, +1.0 % in Chromium
        section, rows = self.rows(self.results([1.01, 1.32, 1.21], [0.92, 0.91, 0.93], differing=2))
        self.assertEqual([row[8:12] for row in rows], [["+10.0 %", "+2.2 %", "—", "**+2.2 %**"]] * 2 +
                         [["+10.0 %", "+0.0 %", "9", "**+1.0 %**"]])
        self.assertIn("met on every row", section)
        self.assertEqual(rows[0][3:5], ["2/1000", "**no**"])
        section, rows = self.rows(self.results([1.0, 1.2, 1.1], [0.99, 0.99, 0.99]))  # CPU +10.0 % natively
        self.assertIn("**not met** on native greedy, batch 32, native beam 5, batch 32.", section)
        section, rows = self.rows(self.results([1.0, 1.2, 1.1], [0.9] * 3, waits=[0.05] * 3))  # waiting 0.05 / 0.9
        self.assertEqual(rows[2][10:12], ["50", "**+5.6 %**"])
        self.assertIn("**not met** on Chromium greedy, batch 32.", section)

    def test_a_busy_machine_is_said_so(self):
        sys.path.insert(0, os.path.join(REPO, "bench"))
        import report
        self.assertEqual(report.busy_note({"free_cores_probe": [1.95, 1.9], "logical_cpus": 2}), "")
        self.assertIn("busy with other work", report.busy_note({"free_cores_probe": [0.65, 1.95], "logical_cpus": 2}))


class BergamotReport(unittest.TestCase):
    """bench/report.py's section on Marian's files from given figures: tokens/s and their ratio, the lines the same, the
    speed and memory verdicts, native beside wasm; and --only bergamot's replacement of that section in a page."""

    @staticmethod
    def results(attend_seconds=0.5, attend_wasm_peak=40 * 2**20):
        def row(dtype, seconds):
            return {"dtype": dtype, "way": "greedy, one sentence per call", "beam": 1, "per_line": True, "lines": 300,
                    "bergamot_seconds": 2.0, "attend_seconds": seconds, "speedup": 2.0 / seconds, "same_lines": 299,
                    "bergamot_cpu_seconds": 1.8, "attend_cpu_seconds": seconds / 2, "attend_runs": [seconds] * 3,
                    "bergamot_tokens": 4000, "attend_tokens": 4000, "bergamot_tokens_per_second": 2000.0,
                    "attend_tokens_per_second": 4000 / seconds}
        def memory(kib):
            return {"bergamot": {"wasm_bytes_after_load": 16 * 2**20, "wasm_bytes_after_each_way": [200 * 2**20],
                                 "wasm_bytes_peak": 200 * 2**20, "js_heap_used_peak": 5 * 2**20, "node_max_rss_kib_before": 66560,
                                 "max_rss_kib": 180 * 1024, "renderer_peak_rss_kib": 250 * 1024},
                    "attend": {"wasm_bytes_after_load": 30 * 2**20, "wasm_bytes_after_each_way": [attend_wasm_peak],
                               "wasm_bytes_peak": attend_wasm_peak, "js_heap_used_peak": 6 * 2**20,
                               "node_max_rss_kib_before": 66560, "max_rss_kib": kib, "renderer_peak_rss_kib": 190 * 1024}}
        node_row = dict(row("f32", attend_seconds), native_seconds=0.25, native_start_seconds=0.02, native_same_lines=300,
                        native_tokens=4000, native_tokens_per_second=16000.0)
        return {"machine": {"cpu": "Test CPU 9000", "logical_cpus": 2}, "bergamot": {
            "date": "2026-12-05 04:00 UTC", "load_average_at_start": [1, 1, 1], "load_average_at_end": [2, 2, 2],
            "attend_js": "wasm/attend.mjs", "fixture": "tests/marian/fixtures/ssru-ende",
            "node": {"node": "v20", "lines": 300, "rows": [node_row], "memory": {"f32": memory(100 * 1024)}},
            "chromium": {"browser": "Chromium 1", "lines": 300, "rows": [row("int8", 1.25)],
                         "memory": {"int8": memory(None)}}}}

    def section(self, results):
        sys.path.insert(0, os.path.join(REPO, "bench"))
        import report
        section = report.bergamot_section(results)
        rows = [[c.strip() for c in line.split("|")[1:-1]] for line in section.splitlines()
                if line.startswith(("| fixture", "| tiny"))]
        return section, rows

    def test_speed_memory_native_and_verdicts(self):
        section, rows = self.section(self.results())
        self.assertEqual(rows[0], ["fixture (d 128)", "Node", "f32", "greedy, one sentence per call", "300", "2,000", "8,000", "**4.00×**",
                                   "7.20×", "299/300", "2.00", "0.50", "4,000 / 4,000"])  # by CPU: 1.8 / 0.25
        self.assertIn("the least of 3 timed runs", section)
        self.assertEqual(rows[1][7], "**1.60×**")  # Chromium int8: 3,200 tok/s
        self.assertIn("**not met** on fixture Chromium int8 greedy, one sentence per call (1.60×)", section)
        self.assertEqual(rows[2], ["fixture (d 128)", "Node", "f32", "16 → 200", "30 → 40", "**0.20×**", "5.0", "6.0", "180.0", "100.0",
                                   "**0.56×**"])
        self.assertEqual(rows[3][8:], ["250.0", "190.0", "**0.76×**"])  # Chromium: the renderers' peaks
        self.assertIn("no more than Bergamot's: **met on every row**", section)
        self.assertEqual(rows[4], ["fixture (d 128)", "f32", "greedy, one sentence per call", "300", "16,000", "8,000", "**0.50×**", "300/300",
                                   "0.25"])
        self.assertIn("Measured in this run", section)
        section, _ = self.section(self.results(attend_seconds=0.4, attend_wasm_peak=300 * 2**20))
        self.assertIn("**not met**: fixture Node f32: wasm memory; fixture Chromium int8: wasm memory", section)

    def test_tiny_model_rows_and_its_absence(self):
        """The model of Firefox's tiny dimensions: its rows after the fixture's in each table, labelled, under the same
        verdicts; when its folder was missing, one sentence saying how to make it and no rows."""
        results = self.results()
        missing = dict(results, bergamot=dict(results["bergamot"], tiny={
            "folder": "bench/models/ssru-tiny-ende", "script": "training/make_marian_bench_model.sh", "missing": True}))
        section, rows = self.section(missing)
        self.assertEqual([r[0] for r in rows], ["fixture (d 128)"] * 5)
        self.assertIn("was not measured: its folder `bench/models/ssru-tiny-ende` was missing; "
                      "`training/make_marian_bench_model.sh` trains it", section)
        tiny = self.results(attend_seconds=4.0, attend_wasm_peak=300 * 2**20)["bergamot"]  # 1,000 tok/s: 0.5×
        results["bergamot"]["tiny"] = {"folder": "bench/models/ssru-tiny-ende", "script": "training/make_marian_bench_model.sh",
                                       "vocab_size": 20000, "node": tiny["node"], "chromium": tiny["chromium"]}
        section, rows = self.section(results)
        label = "tiny (d 256, Firefox's dimensions)"
        self.assertEqual([r[0] for r in rows], ["fixture (d 128)", "fixture (d 128)", label, label,
                                                "fixture (d 128)", "fixture (d 128)", label, label, "fixture (d 128)", label])
        self.assertEqual(rows[2][:8], [label, "Node", "f32", "greedy, one sentence per call", "300", "2,000", "1,000",
                                       "**0.50×**"])
        self.assertIn("**not met** on fixture Chromium int8 greedy, one sentence per call (1.60×); tiny Node f32 greedy, "
                      "one sentence per call (0.50×); tiny Chromium int8 greedy, one sentence per call (1.60×)", section)
        self.assertIn("**not met**: tiny Node f32: wasm memory; tiny Chromium int8: wasm memory", section)
        self.assertIn("with 20,000 pieces", section)
        self.assertIn("`training/make_marian_bench_model.sh` trains it", section)
        self.assertNotIn("was not measured", section)

    def test_where_relaxed_simd_ran(self):
        """The section says in which places Attend's int8 rows ran the relaxed-SIMD product (each row's
        attend_relaxed_simd), and how to run it in a Node that has it behind a flag; a run that did not record it, so."""
        results = self.results()
        self.assertIn("this run did not record where it did", self.section(results)[0])
        bergamot = results["bergamot"]
        bergamot["node"]["rows"].append(dict(bergamot["node"]["rows"][0], dtype="int8", attend_relaxed_simd=False))
        bergamot["chromium"]["rows"][0]["attend_relaxed_simd"] = True
        section, _ = self.section(results)
        self.assertIn("in this run's int8 rows, `info().relaxedSimd`: Node: not used; Chromium: used (v20 runs relaxed "
                      "SIMD only behind `--experimental-wasm-relaxed-simd`", section)
        self.assertIn("`bench/node_lts.sh` fetches the LTS for `--node`", section)
        bergamot["node"]["rows"][1]["attend_relaxed_simd"] = True
        section, _ = self.section(results)
        self.assertIn("`info().relaxedSimd`: Node: used; Chromium: used.", section)
        self.assertNotIn("node_lts.sh", section)

    def test_only_bergamot_replaces_its_section(self):
        sys.path.insert(0, os.path.join(REPO, "bench"))
        import report
        page = "# B\n\n## Documents\n\nd\n\n## Marian's files: Attend vs Bergamot (old)\n\nold\n\n## Server\n\ns\n"
        new = report.replace_section(page, report.BERGAMOT_HEADING, "\n## Marian's files: Attend vs Bergamot (new)\n\nnew\n")
        self.assertEqual(new, "# B\n\n## Documents\n\nd\n\n## Marian's files: Attend vs Bergamot (new)\n\nnew\n\n"
                              "## Server\n\ns\n")
        page = "# B\n\n## Documents\n\nd\n\n## Speed bar (x)\n\nb\n"
        self.assertIn("d\n\n## Marian's files: Attend vs Bergamot (new)\n\nnew\n\n## Speed bar",
                      report.replace_section(page, report.BERGAMOT_HEADING, "\n## Marian's files: Attend vs Bergamot (new)\n\nnew\n"))


class ServeReport(unittest.TestCase):
    """bench/report.py's server section from given figures: ratios to one client and to the CLI (the rounds' own medians
    when serve_load.py gives them), p99 / p50, and the verdicts on issue 66's targets at 16 clients."""

    @staticmethod
    def results(rates, p50=(2.0, 6.0, 20.0, 60.0), p99=(5.0, 15.0, 60.0, 150.0), ratios=None):
        rows = [{"clients": c, "requests": 1000, "sentences_per_second": rate, "p50_ms": a, "p99_ms": b, "mean_batch": c / 2,
                 "server_cpu_ms_per_sentence": 1.5, "server_cores": rate * 1.5e-3, "load_average": 1.0} for c, rate, a, b in zip((1, 4, 16, 64), rates, p50, p99)]
        if ratios:
            for row, (one, cli) in zip(rows, ratios):
                row.update(rounds=3, vs_one_client=one, vs_cli=cli, p99_over_p50=row["p99_ms"] / row["p50_ms"])
        return {"machine": {"cpu": "Test CPU 9000", "logical_cpus": 2}, "serve": {
            "model": "model.int8.safetensors", "lines": 1000, "batch": 32, "threads": 2, "cpu": "Test CPU 9000",
            "load_average_at_start": [1.0, 1.0, 1.0], "load_average_at_end": [1.5, 1.0, 1.0],
            "cli": {"sentences_per_second": 1000.0, "seconds": 1.0, "cpu_seconds": 1.2}, "rows": rows}}

    def rows(self, results):
        sys.path.insert(0, os.path.join(REPO, "bench"))
        import report
        section = report.serve_section(results)
        rows = [[c.strip() for c in line.split("|")[1:-1]] for line in section.splitlines() if line[:3] in ("| 1", "| 4", "| 6")]
        return section, rows

    def test_ratios_and_the_targets_met(self):
        section, rows = self.rows(self.results((400.0, 600.0, 900.0, 1100.0)))
        self.assertIn("Test CPU 9000", section)
        self.assertIn("**1,000 sentences/s**", section)
        self.assertEqual(rows[0], ["1", "400", "2.0", "5.0", "2.5×", "1.00×", "**40 %**", "0.5", "1.50", "0.60", "1.0"])
        self.assertEqual(rows[2][4:7], ["3.0×", "2.25×", "**90 %**"])  # 16 clients: 900 / 400, 900 / 1000
        self.assertIn("at least 2× one client's sentences/s: 2.25×, met", section)
        self.assertIn("at least 70 % of the CLI's: 90 %, met", section)
        self.assertIn("under 4× p50: 3.00×, met", section)
        self.assertIn("(the CLI's: 1.20 ms)", section)
        self.assertNotIn("look at the CPU", section)  # said only where 16 clients fall short of 2×

    def test_targets_not_met_and_the_rounds_own_ratios(self):
        section, rows = self.rows(self.results((500.0, 600.0, 650.0, 900.0), p99=(5.0, 15.0, 90.0, 150.0)))
        self.assertIn("1.30×, **not met**", section)
        self.assertIn("65 %, **not met**", section)
        self.assertIn("4.50×, **not met**", section)
        self.assertIn("look at the CPU the server got: it kept 0.97 cores busy at 16 clients and at most 1.35 at any level", section)
        # With rounds, the ratios are the medians of the rounds' ratios, not the ratios of the medians
        ratios = [(1.0, 0.5), (1.2, 0.6), (2.1, 0.72), (2.5, 0.95)]
        section, rows = self.rows(self.results((500.0, 600.0, 650.0, 900.0), ratios=ratios))
        self.assertEqual(rows[2][5:7], ["2.10×", "**72 %**"])
        self.assertIn("ran 3 times, interleaved", section)
        self.assertIn("2.10×, met", section)
        self.assertIn("72 %, met", section)

    def test_measured_alone_and_put_into_the_page(self):
        sys.path.insert(0, os.path.join(REPO, "bench"))
        import report
        results = self.results((400.0, 600.0, 900.0, 1100.0))
        results["serve"].update(date="2026-12-05 04:00 UTC", measured_alone={
            "commit": "abc1234+", "machine": {"cpu": "Other CPU", "logical_cpus": 2}, "arguments": []})
        section = report.serve_section(results)
        self.assertIn("Measured by `bench/run.py --only serve` on 2026-12-05 04:00 UTC (Attend built from commit abc1234+)", section)
        self.assertIn("Other CPU", section)
        page = "# B\n\n## Documents\n\nd\n\n## Server: `attend serve` under load (loopback)\n\nold\n\n## Speed bar (x)\n\ns\n"
        replaced = report.replace_section(page, report.SERVE_HEADING, section)
        self.assertNotIn("old", replaced)
        self.assertEqual(replaced.count("## Server:"), 1)
        self.assertLess(replaced.index("## Documents"), replaced.index("## Server:"))
        self.assertLess(replaced.index("## Server:"), replaced.index("## Speed bar"))


class ServeDriver(unittest.TestCase):
    """bench/run.py --only serve on 6 lines with the shipped en-de model: the section goes into the given JSON and page,
    every level with its figures (no timing asserted)."""

    def test_only_serve(self):
        model = os.path.join(REPO, "models", "en-de", "model.int8.safetensors")
        src = os.path.join(REPO, "..", "shared", "data", "multi30k", "test_2016_flickr.en.gz")
        if not os.path.exists(model) or not os.path.exists(src):
            self.skipTest("no shipped en-de model or no Multi30k")
        results, markdown = run_only(self, ["--only", "serve", "--src", src, "--lines", "6"])
        self.assertEqual(results["date"], "earlier")
        serve = results["serve"]
        self.assertEqual([r["clients"] for r in serve["rows"]], [1, 4, 16, 64])
        for row in serve["rows"]:
            self.assertEqual((row["requests"], row["rounds"]), (6, 3))
            for key in ("sentences_per_second", "p50_ms", "p99_ms", "mean_batch", "vs_cli", "vs_one_client"):
                self.assertGreater(row[key], 0, key)
        self.assertEqual(serve["rows"][0]["mean_batch"], 1.0)  # one client: every batch its one request
        self.assertIn("## Server: `attend serve` under load", markdown)
        self.assertIn("Targets (issue 66)", markdown)
        self.assertLess(markdown.index("## Server:"), markdown.index("## Speed bar"))


if __name__ == "__main__":
    unittest.main()
