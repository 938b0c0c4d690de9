"""PyTorch peer: the reference model (training/attend_ref, fp32, weights from the same model file) decoding
incrementally with search.py's KV cache, on the same source ids as `attend bench` (its --ids-out file).

Greedy runs batched (batch 1 and batch 32, finished rows dropped from the batch as the engine does, so no
padding work is timed); beam search runs one sentence at a time (search.py's rules, candidates by topk).
Prints one JSON object: the runs (same fields as `attend bench --json`) and the output ids per run.
"""
import argparse
import json
import os
import sys
import time

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(REPO, "training"))
# Idle OpenMP threads sleep instead of spinning (read when torch loads libgomp): on a machine shared
# with other work, spinning threads fight for the cores and 2 threads ran ~12x slower than 1.
os.environ.setdefault("OMP_WAIT_POLICY", "PASSIVE")
from attend_ref import openblas  # noqa: E402  (imports no torch)

openblas.choose_core()  # before torch loads OpenBLAS: see attend_ref/openblas.py
import torch  # noqa: E402
from attend_ref import search  # noqa: E402
from attend_ref.export import load_model  # noqa: E402


@torch.no_grad()
def greedy_batch(model, src_ids, max_length, max_length_ratio):
    """search.greedy's rules, with finished sentences removed from the batch (their rows of the caches too)."""
    cfg = model.cfg
    limits = [search.decode_limit(cfg, len(s), max_length, max_length_ratio) for s in src_ids]
    dec = search.IncrementalDecoder(model, search.pad_batch(src_ids, cfg.pad_id))
    live = list(range(len(src_ids)))  # sentence of each row
    tokens = torch.full((len(src_ids),), cfg.bos_id, dtype=torch.long)
    outputs = [[] for _ in src_ids]
    for step in range(max(limits)):
        best = torch.argmax(dec.next_log_probs(tokens), dim=-1).tolist()
        keep = []
        for row, sentence in enumerate(live):
            token = best[row]
            if token == cfg.eos_id:
                continue
            outputs[sentence].append(token)
            if step + 1 < limits[sentence]:
                keep.append(row)
        if not keep:
            break
        if len(keep) < len(live):
            dec.reorder(torch.tensor(keep))
            live = [live[row] for row in keep]
        tokens = torch.tensor([best[row] for row in keep])
    return outputs


def topk_candidates(total, count):
    """The `count` best flat indices by topk instead of a full stable sort (as fairseq does; scores tied to the
    last bit may then come out in another order)."""
    scores, flat = torch.topk(total, min(count, total.numel()))
    return flat.tolist(), scores.tolist()


def quantile(values, q):
    values = sorted(values)
    position = q * (len(values) - 1)
    below = int(position)
    above = min(below + 1, len(values) - 1)
    return values[below] + (values[above] - values[below]) * (position - below)


def run_setting(model, sources, beam, batch, threads, options):
    torch.set_num_threads(threads)
    openblas.set_threads(threads)
    outputs, latencies = [], []
    start, cpu_start = time.perf_counter(), time.process_time()
    for first in range(0, len(sources), batch):
        chunk = sources[first: first + batch]
        t0 = time.perf_counter()
        if beam == 1:
            outputs += greedy_batch(model, chunk, options["max_length"], options["max_length_ratio"])
        else:
            for src in chunk:
                (best, _), = search.beam_search(model, src, beam, options["length_penalty"], options["max_length"],
                                                options["max_length_ratio"], select=topk_candidates)
                outputs.append(best)
        latencies.append((time.perf_counter() - t0) * 1e3)
    seconds, cpu_seconds = time.perf_counter() - start, time.process_time() - cpu_start
    tokens = sum(len(o) for o in outputs)
    run = {"name": f"beam{beam}_batch{batch}_threads{threads}", "beam": beam, "batch": batch, "threads": threads,
           "seconds": seconds, "cpu_seconds": cpu_seconds, "sentences": len(sources), "target_tokens": tokens,
           "sentences_per_second": len(sources) / seconds, "target_tokens_per_second": tokens / seconds}
    if batch == 1:
        run["latency_ms"] = {"p50": quantile(latencies, 0.5), "p90": quantile(latencies, 0.9),
                             "mean": seconds * 1e3 / len(sources)}
    return run, outputs


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--model", required=True)
    parser.add_argument("--ids", required=True, help="attend bench --ids-out file (source ids)")
    parser.add_argument("--settings", default="1:1,1:32,5:1", help="beam:batch pairs")
    parser.add_argument("--threads", default="1,2")
    parser.add_argument("--options", required=True, help="JSON: length_penalty, max_length, max_length_ratio")
    parser.add_argument("--warmup", type=int, default=8)
    args = parser.parse_args()
    options = json.loads(args.options)

    start = time.perf_counter()
    model, _ = load_model(args.model)
    model.eval()
    load_ms = (time.perf_counter() - start) * 1e3
    with open(args.ids) as f:
        sources = json.load(f)["sources"]

    runs, ids = [], {}
    for setting in args.settings.split(","):
        beam, batch = (int(v) for v in setting.split(":"))
        run_setting(model, sources[: args.warmup], beam, batch, 1, options)
        for threads in (int(t) for t in args.threads.split(",")):
            run, outputs = run_setting(model, sources, beam, batch, threads, options)
            print(f"torch: {run['name']} {run['seconds']:.2f} s", file=sys.stderr, flush=True)
            runs.append(run)
            ids[run["name"]] = outputs
    json.dump({"engine": "pytorch", "version": torch.__version__, "load_ms": load_ms, "options": options,
               "runs": runs, "ids": ids}, sys.stdout)


if __name__ == "__main__":
    main()
