#!/usr/bin/python3
"""`attend serve` under load on loopback: N clients at once (1, 4, 16, 64 by default), each with
its own keep-alive connection (a socket writing requests encoded beforehand) sending one line per
POST /translate, for the same lines at every level; sentences/s and p50/p99 latency per level, against `attend bench` (the CLI's
translate_batch) on the same lines at the server's batch and threads. Per level also the mean
batch (the server's /metrics), the server's CPU time per sentence and per second (the cores it
kept busy) and the 1-minute load average at its start. With --rounds N the CLI and every level
run N times, interleaved (a shared machine's load moves between them): each figure is the median
over the rounds, each ratio the median of the rounds' ratios. Prints JSON; bench/run.py runs it for docs/benchmarks.md (bench/report.py).

    serve_load.py --cli build/release/native/cli/attend --model FILE --lines FILE [--limit N] [--rounds N]
"""
import argparse
import concurrent.futures
import gzip
import http.client
import json
import os
import re
import signal
import socket
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


def encoded_requests(lines, source, target):
    """Each line's POST /translate as the bytes sent, made before the clock starts."""
    requests = []
    for line in lines:
        body = json.dumps({"q": line, "source": source, "target": target}).encode()
        requests.append(b"POST /translate HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
                        b"Content-Length: " + str(len(body)).encode() + b"\r\n\r\n" + body)
    return requests


def read_answer(reader):
    """(status, body, closes) of one HTTP/1.1 answer with a Content-Length."""
    status = int(reader.readline().split()[1])
    length, closes = 0, False
    while True:
        line = reader.readline()
        if line in (b"\r\n", b"\n", b""):
            break
        name, _, value = line.partition(b":")
        name = name.strip().lower()
        if name == b"content-length":
            length = int(value)
        elif name == b"connection" and value.strip().lower() == b"close":
            closes = True
    return status, reader.read(length), closes


def load(port, lines, clients, source, target):
    """Every line sent once, by `clients` threads each on its own keep-alive connection; latencies in seconds.
    A client is a socket writing each request's bytes (encoded beforehand) and reading the answer by its
    Content-Length: the load generator shares the server's cores, so it is kept lean (http.client took ~0.2 ms of
    CPU a request with 16 threads)."""
    requests = encoded_requests(lines, source, target)
    latencies = [None] * len(lines)
    next_line = iter(range(len(lines)))
    lock = threading.Lock()

    def connect():
        sock = socket.create_connection(("127.0.0.1", port), timeout=300)
        sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        return sock, sock.makefile("rb")

    def client():
        sock, reader = connect()
        while True:
            with lock:
                i = next(next_line, None)
            if i is None:
                break
            start = time.perf_counter()
            sock.sendall(requests[i])
            status, data, closes = read_answer(reader)
            latencies[i] = time.perf_counter() - start
            if status != 200:
                raise RuntimeError(f"{status}: {data[:200]}")
            if closes:  # the server's keep-alive count reached
                reader.close()
                sock.close()
                sock, reader = connect()
        reader.close()
        sock.close()

    start = time.perf_counter()
    with concurrent.futures.ThreadPoolExecutor(clients) as pool:
        for done in [pool.submit(client) for _ in range(clients)]:
            done.result()
    return time.perf_counter() - start, latencies


def batches(port):
    """(batches, sentences in them) so far, from the server's /metrics."""
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
    connection.request("GET", "/metrics")
    text = connection.getresponse().read().decode()
    connection.close()
    count = re.search(r"^attend_batch_sentences_count (\S+)$", text, re.M)
    total = re.search(r"^attend_batch_sentences_sum (\S+)$", text, re.M)
    return float(count.group(1)), float(total.group(1))


def cpu_seconds(pid):
    """User + system CPU seconds of a process so far (Linux /proc), None elsewhere."""
    try:
        with open(f"/proc/{pid}/stat") as f:
            fields = f.read().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    except (OSError, ValueError, IndexError):
        return None


def cpu_name():
    try:
        with open("/proc/cpuinfo") as f:
            return next((line.split(":", 1)[1].strip() for line in f if line.startswith("model name")), None)
    except OSError:
        return None


def percentile(values, p):
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(p / 100 * (len(ordered) - 1))))]


def median(values):
    ordered = sorted(values)
    middle = len(ordered) // 2
    return ordered[middle] if len(ordered) % 2 else (ordered[middle - 1] + ordered[middle]) / 2


def cli_bench(args, lines):
    """`attend bench` at the server's batch and threads on the same lines: its greedy run."""
    return json.loads(subprocess.run(
        [args.cli, "bench", "--model", args.model, "--src", args.lines, "--lines", str(len(lines)), "--beam", "1",
         "--batch", str(args.batch), "--threads", str(args.threads), "--json"],
        capture_output=True, text=True, check=True).stdout)["runs"][0]


def level(process, port, lines, clients, source, target):
    """One level: every line sent once by `clients` clients."""
    load_average, batches_before, cpu_before = os.getloadavg()[0], batches(port), cpu_seconds(process.pid)
    seconds, latencies = load(port, lines, clients, source, target)
    batches_after, cpu_after = batches(port), cpu_seconds(process.pid)
    return {"clients": clients, "requests": len(lines), "seconds": seconds, "sentences_per_second": len(lines) / seconds,
            "p50_ms": 1000 * percentile(latencies, 50), "p99_ms": 1000 * percentile(latencies, 99),
            "mean_batch": (batches_after[1] - batches_before[1]) / (batches_after[0] - batches_before[0]),
            "server_cpu_ms_per_sentence": None if cpu_before is None or cpu_after is None
            else 1000 * (cpu_after - cpu_before) / len(lines),
            "server_cores": None if cpu_before is None or cpu_after is None else (cpu_after - cpu_before) / seconds,
            "load_average": load_average}


def summary(rounds):
    """Per level: the median of each figure over the rounds, and the medians of the rounds' ratios to one client
    (when 1 is a level) and to the CLI."""
    rows = []
    for i, first in enumerate(rounds[0]["rows"]):
        runs = [r["rows"][i] for r in rounds]
        row = {"clients": first["clients"], "requests": first["requests"], "rounds": len(rounds)}
        for key in ("seconds", "sentences_per_second", "p50_ms", "p99_ms", "mean_batch", "server_cpu_ms_per_sentence",
                    "server_cores", "load_average"):
            values = [run[key] for run in runs if run.get(key) is not None]
            row[key] = median(values) if values else None
        row["p99_over_p50"] = median([run["p99_ms"] / run["p50_ms"] for run in runs])
        row["vs_cli"] = median([run["sentences_per_second"] / r["cli"]["sentences_per_second"]
                                for run, r in zip(runs, rounds)])
        ones = [next((x for x in r["rows"] if x["clients"] == 1), None) for r in rounds]
        if all(ones):
            row["vs_one_client"] = median([run["sentences_per_second"] / one["sentences_per_second"]
                                           for run, one in zip(runs, ones)])
        rows.append(row)
    return rows


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
    parser.add_argument("--rounds", type=int, default=1, help="runs of the CLI and of every level, interleaved (medians)")
    args = parser.parse_args()
    lines = read_lines(args.lines, args.limit)
    source, target = args.pair.split("-")
    process, port = start_server(args.cli, args.model, args.batch, args.threads)
    rounds, load_at_start = [], os.getloadavg()
    try:
        load(port, lines[:8], 1, source, target)  # warm-up: each worker's translator made, pages touched
        for _ in range(args.rounds):
            bench = cli_bench(args, lines)
            rounds.append({"cli": {"sentences_per_second": bench["sentences_per_second"], "seconds": bench["seconds"],
                                   "cpu_seconds": bench.get("cpu_seconds")},
                           "rows": [level(process, port, lines, int(c), source, target) for c in args.clients.split(",")]})
    finally:
        process.send_signal(signal.SIGTERM)
        process.wait(timeout=60)
    cli = {key: median([r["cli"][key] for r in rounds]) if all(r["cli"][key] is not None for r in rounds) else None
           for key in ("sentences_per_second", "seconds", "cpu_seconds")}
    print(json.dumps({"model": os.path.basename(args.model), "lines": len(lines), "batch": args.batch,
                      "threads": args.threads, "cpu": cpu_name(), "load_average_at_start": load_at_start,
                      "load_average_at_end": os.getloadavg(), "cli": cli, "rows": summary(rounds), "rounds": rounds},
                     indent=2))


if __name__ == "__main__":
    main()
