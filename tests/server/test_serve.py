#!/usr/bin/python3
"""End-to-end tests of `attend serve` over real sockets: limits the HTTP library enforces, SIGTERM
answering what is in flight, two servers behind HAProxy with one killed mid-way, nothing lost, and
a multilingual OPUS-MT model's languages chosen by `target`.
Environment: ATTEND_BIN (the binary), ATTEND_MODELS (models/), HAPROXY (the haproxy binary),
OPUS_FIXTURE (tests/marian/fixtures/opus-ende, for Multilingual).
Run one class:

  ATTEND_BIN=... ATTEND_MODELS=... python3 -B -m unittest test_serve.Haproxy
"""
import concurrent.futures
import json
import os
import re
import shutil
import signal
import socket
import subprocess
import tempfile
import time
import unittest
import urllib.error
import urllib.parse
import urllib.request

BIN = os.environ.get("ATTEND_BIN", "attend")
MODELS = os.environ.get("ATTEND_MODELS", "models")
HAPROXY = os.environ.get("HAPROXY", "haproxy")
REPO = os.environ.get("ATTEND_REPO", os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
EN_DE = os.path.join(MODELS, "en-de", "model.int8.safetensors")
SENTENCES = ["A man is sitting on a bench.", "Two dogs play in the snow.", "A girl jumps into the water.",
             "Several people are walking down a busy street at night.", "A child in a red coat runs."]


class Server:
    """`attend serve --model EN_DE --port 0 ARGS`, its URL read from the line it prints."""

    def __init__(self, *args, model=EN_DE):
        self.process = subprocess.Popen([BIN, "serve", "--model", model, "--port", "0", *args],
                                        stderr=subprocess.PIPE, text=True)
        line = self.process.stderr.readline()
        found = re.search(r"on (http://[\d.]+):(\d+)", line)
        if not found:
            self.process.kill()
            raise AssertionError(f"attend serve did not start: {line}{self.process.stderr.read()}")
        self.host, self.port = found.group(1), int(found.group(2))
        self.url = f"{self.host}:{self.port}"

    def stop(self, sig=signal.SIGTERM):
        self.process.send_signal(sig)
        return self.process.wait(timeout=60)


def post(url, body, timeout=60):
    """(status, decoded JSON answer, headers) of a JSON POST."""
    data = body if isinstance(body, bytes) else json.dumps(body).encode()
    request = urllib.request.Request(url, data=data, headers={"Content-Type": "application/json"})
    try:
        with urllib.request.urlopen(request, timeout=timeout) as answer:
            return answer.status, json.loads(answer.read()), answer.headers
    except urllib.error.HTTPError as error:
        text = error.read()
        try:
            return error.code, json.loads(text), error.headers
        except ValueError:  # not the server's answer (HAProxy's own page)
            return error.code, text.decode("utf-8", "replace"), error.headers


def cli_translation(text):
    done = subprocess.run([BIN, "translate", "--model", EN_DE], input=text + "\n", capture_output=True, text=True,
                          check=True, timeout=120)
    return done.stdout[:-1]


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class HttpLimits(unittest.TestCase):
    def setUp(self):
        self.server = Server("--max-body", "2000")

    def tearDown(self):
        self.assertEqual(self.server.stop(), 0)
        self.server.process.stderr.close()

    def test_binds_loopback_by_default(self):
        self.assertEqual(self.server.host, "http://127.0.0.1")

    def test_a_body_over_the_limit_is_413_with_a_message(self):
        status, answer, _ = post(self.server.url + "/translate", {"q": "x" * 3000, "source": "en", "target": "de"})
        self.assertEqual(status, 413)
        self.assertEqual(answer, {"error": "the request body is larger than 2000 bytes"})

    def test_bad_json_is_400_and_the_server_goes_on(self):
        status, answer, _ = post(self.server.url + "/translate", b'{"q": [')
        self.assertEqual(status, 400)
        self.assertIn("error", answer)
        status, answer, _ = post(self.server.url + "/translate", {"q": SENTENCES[0], "source": "en", "target": "de"})
        self.assertEqual((status, answer), (200, {"translatedText": cli_translation(SENTENCES[0])}))

    def test_form_encoded_requests_are_taken(self):
        data = urllib.parse.urlencode({"q": SENTENCES[1], "source": "en", "target": "de"}).encode()
        with urllib.request.urlopen(urllib.request.Request(self.server.url + "/translate", data=data)) as answer:
            self.assertEqual(json.loads(answer.read()), {"translatedText": cli_translation(SENTENCES[1])})


class Sigterm(unittest.TestCase):
    def test_requests_in_flight_are_answered_then_it_exits(self):
        # Each batch waits up to 2 s for company, so the requests are still queued at SIGTERM.
        server = Server("--max-wait-ms", "2000", "--threads", "1")
        with concurrent.futures.ThreadPoolExecutor(8) as pool:
            futures = [pool.submit(post, server.url + "/translate", {"q": s, "source": "en", "target": "de"})
                       for s in SENTENCES]
            time.sleep(0.5)
            code = server.stop(signal.SIGTERM)
            answers = [f.result() for f in futures]
        server.process.stderr.close()
        self.assertEqual(code, 0)
        for sentence, (status, answer, _) in zip(SENTENCES, answers):
            self.assertEqual((status, answer), (200, {"translatedText": cli_translation(sentence)}))
        with self.assertRaises(urllib.error.URLError):
            post(server.url + "/translate", {"q": "A dog.", "source": "en", "target": "de"}, timeout=5)


def haproxy_config(port, a, b):
    """docs/serve.md's HAProxy configuration, listening on `port` in front of servers on `a` and `b`."""
    with open(os.path.join(REPO, "docs", "serve.md"), encoding="utf-8") as f:
        config = re.search(r"```haproxy\n(.*?)```", f.read(), re.S).group(1)
    for written, actual in (("127.0.0.1:8080", port), ("127.0.0.1:5001", a), ("127.0.0.1:5002", b)):
        assert written in config, f"docs/serve.md's HAProxy configuration no longer has {written}"
        config = config.replace(written, f"127.0.0.1:{actual}")
    return config


class Haproxy(unittest.TestCase):
    """docs/serve.md's HAProxy configuration on loopback in front of two servers; one is killed
    (SIGKILL) while requests flow."""

    def test_every_request_is_answered_when_a_server_dies(self):
        servers = [Server(), Server()]
        port = free_port()
        with tempfile.TemporaryDirectory() as tmp:
            config = os.path.join(tmp, "haproxy.cfg")
            with open(config, "w") as f:
                f.write(haproxy_config(port, servers[0].port, servers[1].port))
            haproxy = subprocess.Popen([HAPROXY, "-db", "-f", config], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            try:
                url = f"http://127.0.0.1:{port}/translate"
                deadline = time.time() + 10
                while not answered(url) and time.time() < deadline:  # both servers' health checks passed
                    time.sleep(0.1)
                expected = {s: cli_translation(s) for s in SENTENCES}
                requests = [SENTENCES[i % len(SENTENCES)] for i in range(300)]
                with concurrent.futures.ThreadPoolExecutor(8) as pool:
                    futures = [pool.submit(post, url, {"q": s, "source": "en", "target": "de"}) for s in requests]
                    while sum(f.done() for f in futures) < 100:
                        time.sleep(0.01)
                    servers[0].process.kill()  # mid-way: no draining, connections cut
                    answers = [f.result() for f in futures]
                wrong = [(s, a) for s, a in zip(requests, answers) if a[:2] != (200, {"translatedText": expected[s]})]
                self.assertEqual(wrong, [], f"{len(wrong)} of {len(requests)} requests not answered right")
                self.assertEqual(servers[1].stop(), 0)
            finally:
                haproxy.terminate()
                haproxy.wait(timeout=30)
                for server in servers:
                    if server.process.poll() is None:
                        server.process.kill()
                    server.process.wait()
                    server.process.stderr.close()


class Multilingual(unittest.TestCase):
    """The OPUS-MT fixture with its two rarest pieces renamed >>fra<< and >>deu<< (as
    tests/marian/opus_cli.py makes it), imported and served: /languages lists fr and de, concurrent
    requests for each get `attend translate --target-token`'s output, another target is a 400."""

    TEXT = "A man is sitting on a bench. Two dogs play in the snow.\nA girl in a red coat runs."

    def setUp(self):
        self.work = tempfile.mkdtemp(prefix="serve_multilingual_")
        folder = os.path.join(self.work, "opus")
        shutil.copytree(os.environ["OPUS_FIXTURE"], folder)
        vocab = os.path.join(folder, "opus.spm2k-spm2k.vocab.yml")
        with open(vocab, encoding="utf-8") as f:
            lines = f.read().splitlines()
        self.assertEqual(lines[-2:], ["è: 1998", "„: 1999"])
        with open(vocab, "w", encoding="utf-8") as f:
            f.write("\n".join(lines[:-2] + ['">>fra<<": 1998', '">>deu<<": 1999']) + "\n")
        self.model = os.path.join(self.work, "en-mul.safetensors")
        subprocess.run([BIN, "import", folder, "-o", self.model, "--languages", "en-mul"], check=True,
                       capture_output=True, timeout=300)
        self.server = Server("--threads", "2", model=self.model)

    def tearDown(self):
        self.assertEqual(self.server.stop(), 0)
        self.server.process.stderr.close()
        shutil.rmtree(self.work)

    def cli(self, token):
        done = subprocess.run([BIN, "translate", "--model", self.model, "--target-token", token], input=self.TEXT + "\n",
                              capture_output=True, text=True, check=True, timeout=300)
        return done.stdout[:-1]

    def test_targets_chosen_per_request(self):
        with urllib.request.urlopen(self.server.url + "/languages", timeout=60) as answer:
            self.assertEqual(json.loads(answer.read()), [{"code": "en", "name": "English", "targets": ["fr", "de"]}])
        expected = {"fr": self.cli(">>fra<<"), "de": self.cli(">>deu<<")}
        self.assertNotEqual(expected["fr"], expected["de"])
        targets = ["fr", "de"] * 8
        with concurrent.futures.ThreadPoolExecutor(16) as pool:
            answers = list(pool.map(lambda t: post(self.server.url + "/translate",
                                                   {"q": self.TEXT, "source": "en", "target": t}), targets))
        for target, (status, answer, _) in zip(targets, answers):
            self.assertEqual((status, answer), (200, {"translatedText": expected[target]}), target)
        status, answer, _ = post(self.server.url + "/translate", {"q": "A dog.", "source": "en", "target": "it"})
        self.assertEqual((status, answer), (400, {"error": "en-it is not served: en is translated into fr, de"}))


def answered(url):
    """Whether a request through `url` gets a 200."""
    try:
        return post(url, {"q": "A dog.", "source": "en", "target": "de"}, timeout=5)[0] == 200
    except (urllib.error.URLError, ConnectionError):
        return False


if __name__ == "__main__":
    unittest.main()
