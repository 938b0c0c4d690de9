#!/usr/bin/python3
"""`attend serve` under load on loopback: N clients at once (1, 4, 16, 64 by default), each with
its own keep-alive connection sending one line per POST /translate, for the same lines at every
level; sentences/s and p50/p99 latency per level, against `attend bench` (the CLI's
translate_batch) on the same lines at the server's batch and threads. Prints JSON.

    serve_load.py --cli build/release/native/cli/attend --model FILE --lines FILE [--limit N]
"""
import argparse
import concurrent.futures
import gzip
import http.client
import json
import os
import re
import signal
import subprocess
import threading
import time


def read_lines(path, limit):
    opener = gzip.open if path.endswith(".gz") else open
    with opener(path, "rt", encoding="utf-8") as f:
        lines = [line.rstrip("\n") for line in f if line.strip()]
    return lines[:limit]


def start_server(cli, model, batch, threads):
    process = subprocess.Popen([cli, "serve", "--model", model, "--port", "0", "--batch", str(batch), "--threads",
                                str(threads), "--http-threads", "128"], stderr=subprocess.PIPE, text=True)
    found = re.search(r"http://127\.0\.0\.1:(\d+)", process.stderr.readline())
    if not found:
        process.kill()
        raise SystemExit("attend serve did not start: " + process.stderr.read())
    return process, int(found.group(1))


def load(port, lines, clients, source, target):
    """Every line sent once, by `clients` threads each on its own connection; latencies in seconds."""
    latencies = [None] * len(lines)
    next_line = iter(range(len(lines)))
    lock = threading.Lock()

    def client():
        connection = http.client.HTTPConnection("127.0.0.1", port, timeout=300)
        while True:
            with lock:
                i = next(next_line, None)
            if i is None:
                break
            body = json.dumps({"q": lines[i], "source": source, "target": target}).encode()  # one send()
            start = time.perf_counter()
            connection.request("POST", "/translate", body, {"Content-Type": "application/json"})
            answer = connection.getresponse()
            data = answer.read()
            latencies[i] = time.perf_counter() - start
            if answer.status != 200:
                raise RuntimeError(f"{answer.status}: {data[:200]}")
        connection.close()

    start = time.perf_counter()
    with concurrent.futures.ThreadPoolExecutor(clients) as pool:
        for done in [pool.submit(client) for _ in range(clients)]:
            done.result()
    return time.perf_counter() - start, latencies


def percentile(values, p):
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(p / 100 * (len(ordered) - 1))))]


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--cli", required=True)
    parser.add_argument("--model", required=True)
    parser.add_argument("--lines", required=True)
    parser.add_argument("--limit", type=int, default=300)
    parser.add_argument("--clients", default="1,4,16,64")
    parser.add_argument("--batch", type=int, default=32)
    parser.add_argument("--threads", type=int, default=os.cpu_count())
    parser.add_argument("--pair", default="en-de")
    args = parser.parse_args()
    lines = read_lines(args.lines, args.limit)
    source, target = args.pair.split("-")
    bench = json.loads(subprocess.run(
        [args.cli, "bench", "--model", args.model, "--src", args.lines, "--lines", str(len(lines)), "--beam", "1",
         "--batch", str(args.batch), "--threads", str(args.threads), "--json"],
        capture_output=True, text=True, check=True).stdout)["runs"][0]
    process, port = start_server(args.cli, args.model, args.batch, args.threads)
    rows = []
    try:
        load(port, lines[:8], 1, source, target)  # warm-up: each worker's translator made, pages touched
        for clients in (int(c) for c in args.clients.split(",")):
            seconds, latencies = load(port, lines, clients, source, target)
            rows.append({"clients": clients, "requests": len(lines), "seconds": seconds,
                         "sentences_per_second": len(lines) / seconds,
                         "p50_ms": 1000 * percentile(latencies, 50), "p99_ms": 1000 * percentile(latencies, 99)})
    finally:
        process.send_signal(signal.SIGTERM)
        process.wait(timeout=60)
    print(json.dumps({"model": os.path.basename(args.model), "lines": len(lines), "batch": args.batch,
                      "threads": args.threads, "cli": {"sentences_per_second": bench["sentences_per_second"],
                                                       "seconds": bench["seconds"]},
                      "rows": rows}, indent=2))


if __name__ == "__main__":
    main()
