#!/usr/bin/python3
"""End-to-end tests of the `attend` binary on the tiny random model (2 heads of 8) that
tests/fixtures/make_tiny_model.py builds. Environment: ATTEND_BIN (the binary), ATTEND_TINY
(the fixture's output directory), ATTEND_REPO (the repository, for training/attend_ref).
Run one class:

  ATTEND_BIN=... ATTEND_TINY=... ATTEND_REPO=... python3 -B -m unittest test_cli.Translate
"""
import gzip
import json
import math
import os
import re
import subprocess
import sys
import tempfile
import threading
import unittest
import zlib

BIN = os.environ.get("ATTEND_BIN", "attend")
TINY = os.environ.get("ATTEND_TINY", ".")
REPO = os.environ.get("ATTEND_REPO", ".")
F32 = os.path.join(TINY, "tiny.f32.safetensors")
INT8 = os.path.join(TINY, "tiny.int8.safetensors")
SENTENCES = ["A man is sitting on a bench.", "Two dogs play in the snow.", "A girl.",
             "Several people are walking down a busy street at night."]


def read_file(path, binary=False):
    with open(path, "rb") as f:
        data = f.read()
    return data if binary else data.decode("utf-8")


def write_file(path, data):
    with open(path, "wb") as f:
        f.write(data if isinstance(data, bytes) else data.encode("utf-8"))


def run(*args, stdin=None):
    """Runs attend; returns (exit status, stdout, stderr) as text (undecodable bytes escaped)."""
    done = subprocess.run([BIN, *args], input=stdin.encode() if isinstance(stdin, str) else stdin,
                          capture_output=True, timeout=120)
    decode = lambda b: b.decode("utf-8", "backslashreplace")
    return done.returncode, decode(done.stdout), decode(done.stderr)


class ErrorLines(unittest.TestCase):
    def assert_one_error(self, status, args, stdin=None, mentions=()):
        code, out, err = run(*args, stdin=stdin)
        self.assertEqual(code, status, f"{args}: {err}")
        self.assertEqual(out, "", args)
        self.assertRegex(err, r"^attend: error: [^\n]+\n$", args)
        for text in mentions:
            self.assertIn(text, err, args)
        return err


class UsageErrors(ErrorLines):
    def test_commands(self):
        self.assert_one_error(2, [], mentions=["no command"])
        self.assert_one_error(2, ["translat"], mentions=["unknown command 'translat'"])

    def test_translate_options(self):
        m = ["translate", "--model", F32]
        cases = [
            (["translate", "hello"], "missing required option --model"),
            (m + ["--bem", "2"], "unknown option '--bem'"),
            (m + ["--beam"], "--beam needs a value"),
            (m + ["--beam", "0"], "--beam must be at least 1, got 0"),
            (m + ["--beam", "two"], "--beam expects an integer, got 'two'"),
            (m + ["--alpha", "1e99"], "--alpha expects a number, got '1e99'"),
            (m + ["--alpha", "-1"], "--alpha must be at least 0"),
            (m + ["--max-len", "0"], "--max-len must be at least 1"),
            (m + ["--max-len-ratio", "-0.5"], "--max-len-ratio must be at least 0"),
            (m + ["--threads", "0"], "--threads must be at least 1"),
            (m + ["--batch", "0"], "--batch must be at least 1"),
            (m + ["--beam", "2", "--nbest", "3"], "--nbest 3 exceeds --beam 2"),
            (m + ["--beam", "257"], "--beam must be at most 256, got 257"),  # the core's limit, a usage error
            (m + ["--mask-head", "cross:0"], "--mask-head expects kind:layer:head"),
            (m + ["--mask-head", "cross:2:0"], "the model has 2 decoder layers of 2 heads"),
            (m + ["--mask-head", "encoder:0:2"], "the model has 2 encoder layers of 2 heads"),
        ]
        for args, message in cases:
            self.assert_one_error(2, args, mentions=[message])

    def test_inspect_and_eval_options(self):
        ref = os.path.join(TINY, "ref.txt")
        self.assert_one_error(2, ["inspect"], mentions=["missing MODEL"])
        self.assert_one_error(2, ["inspect", F32, INT8], mentions=["unexpected argument"])
        self.assert_one_error(2, ["eval", "--hyp", ref], mentions=["missing required option --ref"])
        self.assert_one_error(2, ["eval", "--ref", ref], mentions=["either --hyp"])
        self.assert_one_error(2, ["eval", "--ref", ref, "--hyp", ref, "--model", F32], mentions=["either --hyp"])
        self.assert_one_error(2, ["eval", "--ref", ref, "--model", F32], mentions=["--model needs --src"])
        self.assert_one_error(2, ["eval", "--ref", ref, "--hyp", ref, "--beam", "4"],
                              mentions=["--beam goes with --model"])
        self.assert_one_error(2, ["eval", "--ref", ref, "--hyp", ref, "--int8-activations"],
                              mentions=["--int8-activations goes with --model"])

    def test_help_and_version(self):
        for args in (["--help"], ["translate", "--help"], ["inspect", "--help"], ["eval", "--help"], ["mbr", "--help"],
                     ["score", "--help"]):
            code, out, err = run(*args)
            self.assertEqual((code, err), (0, ""), args)
            self.assertIn("usage: attend", out)
        code, out, _ = run("--version")
        self.assertEqual(code, 0)
        self.assertRegex(out, r"^attend \d+\.\d+\.\d+\n$")


class ModelErrors(ErrorLines):
    def damaged_files(self, directory):
        whole = read_file(F32, binary=True)
        (header_len,) = __import__("struct").unpack("<Q", whole[:8])
        variants = {
            "empty.safetensors": b"",
            "short.safetensors": whole[:5],
            "truncated.safetensors": whole[: len(whole) // 2],
            "garbage.safetensors": bytes(range(256)) * 40,
            "huge-header.safetensors": (2 ** 62).to_bytes(8, "little") + whole[8:],
            "bad-json.safetensors": whole[:8] + b"{" * header_len + whole[8 + header_len:],
        }
        paths = []
        for name, data in variants.items():
            path = os.path.join(directory, name)
            write_file(path, data)
            paths.append(path)
        return paths

    def test_missing_model(self):
        missing = os.path.join(TINY, "no-such-model.safetensors")
        self.assert_one_error(1, ["translate", "--model", missing, "hello"], mentions=[missing])
        self.assert_one_error(1, ["inspect", missing], mentions=[missing])

    def test_damaged_models(self):
        with tempfile.TemporaryDirectory() as directory:
            for path in self.damaged_files(directory):
                self.assert_one_error(1, ["translate", "--model", path, "hello"], mentions=[path])
                self.assert_one_error(1, ["inspect", path], mentions=[path])

    def test_directory_as_model(self):
        self.assert_one_error(1, ["inspect", TINY], mentions=[TINY])

    def test_a_short_model_name_is_still_named(self):
        """The name must be in the message even when it happens to be a word of the message ('m')."""
        with tempfile.TemporaryDirectory() as directory:
            write_file(os.path.join(directory, "m"), read_file(F32, binary=True)[:3000])
            done = subprocess.run([BIN, "inspect", "m"], cwd=directory, capture_output=True, text=True, timeout=60)
            self.assertEqual(done.returncode, 1)
            self.assertIn("model 'm': invalid model file", done.stderr)

    def test_a_nesting_bomb_in_the_config_is_an_error(self):
        """attend.config (a JSON string inside the header) 100,000 arrays deep: an error, not a crash
        in the message that shows the bad value."""
        whole = read_file(F32, binary=True)
        (header_len,) = __import__("struct").unpack("<Q", whole[:8])
        header = json.loads(whole[8:8 + header_len])
        header["__metadata__"]["attend.config"] = '{"d_model": ' + "[" * 100000 + "]" * 100000 + "}"
        text = json.dumps(header).encode()
        with tempfile.TemporaryDirectory() as directory:
            path = os.path.join(directory, "bomb.safetensors")
            write_file(path, len(text).to_bytes(8, "little") + text + whole[8 + header_len:])
            self.assert_one_error(1, ["inspect", path], mentions=[path, "attend.config nests deeper than"])


class Translate(unittest.TestCase):
    def translate(self, *args, stdin=None, status=0, model=F32):
        code, out, err = run("translate", "--model", model, *args, stdin=stdin)
        self.assertEqual(code, status, err)
        return out, err

    def test_arguments_and_stdin_agree(self):
        from_args, err = self.translate(*SENTENCES)
        self.assertEqual(err, "")
        lines = from_args.split("\n")
        self.assertEqual(len(lines), len(SENTENCES) + 1)
        self.assertEqual(lines[-1], "")
        self.assertTrue(all(lines[:-1]), "a random model still says something")
        from_stdin, _ = self.translate(stdin="".join(s + "\n" for s in SENTENCES))
        self.assertEqual(from_stdin, from_args)

    def test_chunks_and_threads_keep_order(self):
        many = SENTENCES * 5
        reference, _ = self.translate(stdin="\n".join(many))
        for args in (["--batch", "1"], ["--batch", "3"], ["--batch", "2", "--threads", "2"],
                     ["--threads", "3"]):
            out, _ = self.translate(*args, stdin="\n".join(many))
            self.assertEqual(out, reference, args)

    def test_confidence_and_its_flag_before_each_line(self):
        text = f"{SENTENCES[0]}\n\n{SENTENCES[1]} {SENTENCES[2]}\n"
        plain, _ = self.translate(stdin=text)
        out, err = self.translate("--confidence", stdin=text)
        self.assertEqual(err, "")
        rows = [line.split("\t", 2) for line in out.split("\n")[:-1]]
        self.assertEqual([row[2] for row in rows], plain.split("\n")[:-1])
        self.assertEqual(rows[1][:2], ["-", "-"], "a blank line has no confidence")
        help_text, _ = self.translate("--help")
        low = float(re.search(r"`low` below (-[0-9.]+)", help_text).group(1))
        for row in (rows[0], rows[2]):
            self.assertLess(float(row[0]), 0)
            self.assertEqual(row[1], "low" if float(row[0]) < low else "ok")
        # The second line holds two sentences: its figure is the lower of theirs.
        alone = [float(self.translate("--confidence", s)[0].split("\t")[0]) for s in SENTENCES[1:3]]
        self.assertAlmostEqual(float(rows[2][0]), min(alone), places=3)
        code, _, err = run("translate", "--model", F32, "--confidence", "--nbest", "1", SENTENCES[0])
        self.assertEqual(code, 2, err)
        self.assertIn("--nbest", err)

    def test_max_repeats_is_checked(self):
        code, _, err = run("translate", "--model", F32, "--max-repeats", "-1", SENTENCES[0])
        self.assertEqual(code, 2, err)
        self.assertIn("--max-repeats", err)
        self.translate("--max-repeats", "0", SENTENCES[0])

    def test_caption_rules_is_checked_and_turns_the_rules_on_and_off(self):
        code, _, err = run("translate", "--model", F32, "--caption-rules", "maybe", SENTENCES[0])
        self.assertEqual(code, 2, err)
        self.assertIn("--caption-rules wants auto, on or off", err)
        # The fixture asks for the rules (make_tiny_model.py): auto is on, which reads capitals
        # in sentence case; off gives the model the capitals as written.
        shouted = [sentence.upper() for sentence in SENTENCES]
        auto, _ = self.translate(*shouted)
        self.assertEqual(auto, self.translate("--caption-rules", "on", *shouted)[0])
        self.assertEqual(auto, self.translate(*SENTENCES)[0])
        off, _ = self.translate("--caption-rules", "off", *shouted)
        self.assertNotEqual(off, auto)

    def test_pass_through_is_checked_and_turns_the_spans_on_and_off(self):
        code, _, err = run("translate", "--model", F32, "--pass-through", "sometimes", SENTENCES[0])
        self.assertEqual(code, 2, err)
        self.assertIn("--pass-through wants auto, on or off", err)
        # A number passes through by default (the model reads the sentence without it, the number
        # is written as the source writes it); off, the model reads it, and its ids are the translation.
        sentence = "A man holds 4711 balloons."

        def source_tokens(*flags):
            with tempfile.TemporaryDirectory() as tmp:
                path = os.path.join(tmp, "attention.jsonl")
                translation, _ = self.translate(*flags, "--attention", path, sentence)
                with open(path, encoding="utf-8") as f:
                    return translation, "".join(json.loads(f.readline())["source_tokens"])

        auto, read = source_tokens()  # the tiny vocabulary has no digits: the model reads "4711" as <unk>
        self.assertIn("4711", auto)
        self.assertEqual(read, "▁A▁man▁holds▁balloons.</s>")
        _, read_whole = source_tokens("--pass-through", "off")
        self.assertEqual(read_whole, "▁A▁man▁holds▁<unk>▁balloons.</s>")
        self.assertEqual(self.translate("--pass-through", "on", sentence)[0], auto)

    def test_empty_lines_stay_empty(self):
        single, _ = self.translate(SENTENCES[0])
        out, err = self.translate(stdin=f"\n{SENTENCES[0]}\n\n   \n")
        self.assertEqual(err, "")
        self.assertEqual(out, "\n" + single + "\n\n")
        out, _ = self.translate("")
        self.assertEqual(out, "\n")
        out, _ = self.translate(stdin="")
        self.assertEqual(out, "")

    def test_lines_of_invisible_characters_are_blank(self):
        """No-break, zero-width and ideographic spaces only: nothing to translate, so no error; cut into
        sentences, the line is text without letters and is copied; taken whole, it is an empty line, as
        for ASCII blanks."""
        single, _ = self.translate(SENTENCES[0])
        for args in ([], ["--batch", "2", "--threads", "2"]):
            stdin = f"\u00a0\n{SENTENCES[0]}\n\u200b\n\u3000 \n"
            out, err = self.translate(*args, stdin=stdin)
            self.assertEqual((out, err), (stdin.replace(SENTENCES[0], single.rstrip("\n")), ""))
            out, err = self.translate("--no-split", *args, stdin=stdin)
            self.assertEqual((out, err), ("\n" + single + "\n\n", ""))

    def test_stdin_streams_line_by_line(self):
        """A program that writes a line and waits for its translation gets it while stdin is still open,
        at the default --batch (a chunk does not wait for lines not written yet)."""
        single, _ = self.translate(SENTENCES[0])
        process = subprocess.Popen([BIN, "translate", "--model", F32], stdin=subprocess.PIPE,
                                   stdout=subprocess.PIPE, text=True)
        give_up = threading.Timer(30, process.kill)  # an attend waiting for more input never answers
        give_up.start()
        try:
            process.stdin.write(SENTENCES[0] + "\n")
            process.stdin.flush()
            answer = process.stdout.readline()
            process.stdin.close()
            process.wait(timeout=60)
        finally:
            give_up.cancel()
        self.assertEqual(answer, single, "no translation while stdin was open")
        self.assertEqual(process.returncode, 0)

    def test_a_finished_line_is_not_held_back_by_a_partial_one(self):
        """The next line has partly arrived (no newline yet): the finished one is answered first."""
        single, _ = self.translate(SENTENCES[0])
        process = subprocess.Popen([BIN, "translate", "--model", F32], stdin=subprocess.PIPE,
                                   stdout=subprocess.PIPE, text=True)
        give_up = threading.Timer(30, process.kill)
        give_up.start()
        try:
            process.stdin.write(SENTENCES[0] + "\n" + SENTENCES[1][:5])  # one write: a line and a half
            process.stdin.flush()
            answer = process.stdout.readline()
            process.stdin.write(SENTENCES[1][5:] + "\n")
            process.stdin.close()
            rest = process.stdout.read()
            process.wait(timeout=60)
        finally:
            give_up.cancel()
        self.assertEqual(answer, single, "no translation while the next line was partial")
        self.assertEqual(rest, self.translate(SENTENCES[1])[0])

    def test_a_failed_write_stops_at_once(self):
        """stdout is a full disk: the first line that cannot be written ends the run, while stdin is still open."""
        with open("/dev/full", "w") as full:
            process = subprocess.Popen([BIN, "translate", "--model", F32], stdin=subprocess.PIPE, stdout=full,
                                       stderr=subprocess.PIPE, text=True)
            process.stdin.write(SENTENCES[0] + "\n")
            process.stdin.flush()
            try:
                status = process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                process.kill()
                status = "still running with stdin open"
            err = process.stderr.read()
        self.assertEqual(status, 1, err)
        self.assertEqual(err, "attend: error: cannot write to stdout\n")

    def test_lines_before_a_read_error_are_translated(self):
        """A gzip stream cut in the middle: every whole line before the cut is answered, then the error."""
        text = "".join(f"{SENTENCES[i % 4]}\n" for i in range(400)).encode()
        cut = gzip.compress(text)[:-40]
        decoder = zlib.decompressobj(16 + zlib.MAX_WBITS)
        whole_lines = decoder.decompress(cut).count(b"\n")
        self.assertTrue(0 < whole_lines < 400, whole_lines)
        expected = "".join(self.translate(SENTENCES[i % 4])[0] for i in range(whole_lines))
        for args in ([], ["--batch", "32", "--threads", "2"]):
            out, err = self.translate(*args, stdin=cut, status=1)
            self.assertEqual(out, expected, args)
            self.assertRegex(err, r"^attend: error: cannot read 'stdin': [^\n]*truncated[^\n]*\n$")

    def test_gzip_stdin_whole_in_members_and_truncated(self):
        plain, _ = self.translate(stdin="\n".join(SENTENCES) + "\n")
        text = ("\n".join(SENTENCES) + "\n").encode()
        out, _ = self.translate(stdin=gzip.compress(text))
        self.assertEqual(out, plain)
        members = gzip.compress(text[:30]) + gzip.compress(text[30:])  # a line split across two members
        out, _ = self.translate(stdin=members)
        self.assertEqual(out, plain)
        out, _ = self.translate(stdin=members + b"trailing bytes, not gzip")  # ignored, as gzip -d does
        self.assertEqual(out, plain)
        damaged = bytearray(gzip.compress(text[30:]))
        damaged[-8] ^= 0xFF  # the second member's CRC
        out, err = self.translate(stdin=gzip.compress(text[:30]) + bytes(damaged), status=1)
        self.assertRegex(err, r"^attend: error: cannot read 'stdin': [^\n]*check[^\n]*\n$")
        out, err = self.translate(stdin=gzip.compress(text)[:-12], status=1)
        self.assertRegex(err, r"^attend: error: cannot read 'stdin': [^\n]*truncated[^\n]*\n$")

    def test_invalid_utf8_line_is_reported_and_others_translated(self):
        good, _ = self.translate(stdin="\n".join(SENTENCES) + "\n")
        lines = [s.encode() for s in SENTENCES]
        lines.insert(2, b"broken \xff\xfe line")
        for args in ([], ["--batch", "2", "--threads", "2"]):
            out, err = self.translate(*args, stdin=b"\n".join(lines) + b"\n", status=1)
            self.assertRegex(err, r"^attend: error: line 3: [^\n]*UTF-8[^\n]*\n$")
            out_lines = out.split("\n")
            self.assertEqual(out_lines[2], "")
            del out_lines[2]
            self.assertEqual("\n".join(out_lines), good)

    def test_too_long_line_is_reported_and_others_translated(self):
        good, _ = self.translate(SENTENCES[0])
        out, err = self.translate("--no-split", stdin="word " * 500 + "\n" + SENTENCES[0] + "\n", status=1)
        self.assertRegex(err, r"^attend: error: line 1: [^\n]+\n$")
        self.assertEqual(out, "\n" + good)

    def test_too_long_line_is_cut_into_parts_that_fit(self):
        good, _ = self.translate(SENTENCES[0])
        out, err = self.translate(stdin="word " * 500 + "\n" + SENTENCES[0] + "\n")
        self.assertEqual(err, "")
        first, second = out.split("\n", 1)
        self.assertNotEqual(first, "")
        self.assertEqual(second, good)

    def test_a_line_too_large_to_decode_is_reported_and_others_translated(self):
        """A sentence the model's positions allow but whose encoder scores ([S, S]) outgrow 2^31 floats
        fails the chunk it is in; each line of the chunk is then translated on its own."""
        model = os.path.join(TINY, "tiny-long.f32.safetensors")
        good, _ = self.translate(stdin="\n".join(SENTENCES[:2]) + "\n", model=model)
        out, err = self.translate(stdin=f"{SENTENCES[0]}\n{'a ' * 46341}\n{SENTENCES[1]}\n", status=1, model=model)
        self.assertEqual(err, "attend: error: line 2: the sentence (46342 tokens) needs more than 2^31 floats of "
                              "workspace with this model and beam 1; use a smaller beam or a shorter sentence\n")
        self.assertEqual(out.split("\n"), [*good.split("\n")[:1], "", *good.split("\n")[1:]])

    def test_nbest_format(self):
        out, _ = self.translate("--beam", "4", "--nbest", "3", *SENTENCES[:2])
        entries = [re.fullmatch(r"(\d+) \|\|\| (.*) \|\|\| (-?\d+\.\d+)", line) for line in out.splitlines()]
        self.assertTrue(all(entries), out)
        for index in range(2):
            scores = [float(e.group(3)) for e in entries if int(e.group(1)) == index]
            self.assertTrue(1 <= len(scores) <= 3)
            self.assertEqual(scores, sorted(scores, reverse=True))
        out, _ = self.translate("--beam", "2", "--nbest", "2", stdin="\n" + SENTENCES[0] + "\n")
        self.assertTrue(out.startswith("0 |||  ||| 0\n1 ||| "), out)
        out, _ = self.translate("--beam", "2", "--nbest", "1", SENTENCES[0])  # the input `attend mbr` reads
        self.assertRegex(out, r"^0 \|\|\| [^\n]+ \|\|\| -?\d+\.\d+\n$")
        best, _ = self.translate("--beam", "4", *SENTENCES[:2])
        firsts = {}
        for e in entries:
            firsts.setdefault(int(e.group(1)), e.group(2))
        self.assertEqual([firsts[0], firsts[1]], best.splitlines())

    def test_int8_model_translates(self):
        out, err = self.translate("--beam", "2", *SENTENCES, model=INT8)
        self.assertEqual(err, "")
        self.assertEqual(len(out.splitlines()), len(SENTENCES))

    def test_a_number_below_the_smallest_float_is_tiny_not_zero(self):
        """--alpha 1e-50 acts as 0; --max-len-ratio 1e-50 is a limit of one token (its 0 means no limit)."""
        self.assertEqual(self.translate("--beam", "3", "--alpha", "1e-50", *SENTENCES),
                         self.translate("--beam", "3", "--alpha", "0", *SENTENCES))
        self.assertEqual(self.translate("--max-len-ratio", "1e-50", *SENTENCES),
                         self.translate("--max-len", "1", *SENTENCES))

    def test_int8_activations(self):
        """Only int8 files take them; any CPU runs them, and a sentence's translation does not depend on its batch."""
        code, out, err = run("translate", "--model", F32, "--int8-activations", "hello")
        self.assertEqual((code, out), (1, ""), err)
        self.assertIn("int8 activations need an int8 model file", err)
        code, out, err = run("translate", "--model", INT8, "--int8-activations", "--batch", "3", *SENTENCES)
        self.assertEqual(code, 0, err)
        self.assertEqual(len(out.splitlines()), len(SENTENCES))
        one_at_a_time, _ = self.translate("--int8-activations", "--batch", "1", *SENTENCES, model=INT8)
        self.assertEqual(out, one_at_a_time)
        code, bench, err = run("bench", "--model", INT8, "--int8-activations", "--src", self.sentences_file(),
                               "--beam", "1", "--batch", "2", "--threads", "1", "--json")
        self.assertEqual(code, 0, err)
        self.assertTrue(json.loads(bench)["model"]["int8_activations"])

    def sentences_file(self):
        directory = tempfile.TemporaryDirectory()
        self.addCleanup(directory.cleanup)
        path = os.path.join(directory.name, "sentences.txt")
        write_file(path, "\n".join(SENTENCES) + "\n")
        return path

    def test_masking_a_head_runs(self):
        out, _ = self.translate("--mask-head", "cross:0:1", "--mask-head", "encoder:1:0", *SENTENCES)
        self.assertEqual(len(out.splitlines()), len(SENTENCES))


class Documents(unittest.TestCase):
    """Lines holding several sentences, on the shipped en-de model: each sentence translated on
    its own, the line put back together (tests/text has the same paragraph natively)."""
    MODEL = os.path.join(REPO, "models", "en-de", "model.int8.safetensors")
    TWELVE = ["A dog runs through the snow.", "Two children are playing football on the beach.",
              "A woman is reading a book.", "A man in a blue shirt is riding a bike.",
              "Mr. Smith is cooking in the kitchen.", "Three girls are dancing on a stage.",
              "An old man sits on a bench.", "A black cat sleeps on the sofa.",
              "People are walking down a busy street.", "A boy jumps into the lake.",
              "Two women are talking at a table.", "A dog catches a ball in the park."]

    def translate(self, *args, stdin):
        code, out, err = run("translate", "--model", self.MODEL, *args, stdin=stdin)
        self.assertEqual((code, err), (0, ""))
        return out

    def test_bench_counts_the_tokens_the_search_generated(self):
        """Not the marks put in after it: "?!" takes the place of the model's "." (caption/final_mark.h);
        a line left untranslated (emoji only) counts none."""
        question = "Is the dog fast?!"
        directory = tempfile.TemporaryDirectory()
        self.addCleanup(directory.cleanup)
        attention, src = (os.path.join(directory.name, name) for name in ("attention.jsonl", "question.txt"))
        self.translate("--beam", "1", "--attention", attention, question, stdin=None)
        with open(attention, encoding="utf-8") as f:
            shown = json.loads(f.readline())["target_tokens"]
        self.assertEqual(shown[-3:], ["?", "!", "</s>"])
        write_file(src, question + "\n😀😀😀\n")
        code, bench, err = run("bench", "--model", self.MODEL, "--src", src, "--beam", "1", "--batch", "1",
                               "--threads", "1", "--json")
        self.assertEqual(code, 0, err)
        self.assertEqual([r["target_tokens"] for r in json.loads(bench)["runs"]], [len(shown) - 2])

    def test_a_twelve_sentence_paragraph_is_twelve_translations_on_one_line(self):
        one_per_line = self.translate("--beam", "3", stdin="\n".join(self.TWELVE) + "\n").splitlines()
        self.assertEqual(len(one_per_line), 12)
        self.assertEqual(self.translate("--beam", "3", stdin=" ".join(self.TWELVE) + "\n"), " ".join(one_per_line) + "\n")
        whole = self.translate("--no-split", stdin=" ".join(self.TWELVE) + "\n")
        self.assertEqual(len(whole.splitlines()), 1)
        self.assertNotEqual(whole, self.translate(stdin=" ".join(self.TWELVE) + "\n"))

    def test_structure_of_lines_is_kept(self):
        a, b, c = self.translate(stdin="\n".join(self.TWELVE[:3]) + "\n").splitlines()
        text = f"  - {self.TWELVE[0]}  {self.TWELVE[1]}\n\n***\n2) {self.TWELVE[2]}\t\n"
        self.assertEqual(self.translate(stdin=text), f"  - {a}  {b}\n\n***\n2) {c}\t\n")

    def test_html_in_the_same_markup_out(self):
        """--html takes the path of the JS API's translateHTML (attend/html.h): the sentence's words
        translated, the inline element around the word the attention aligns, the blocks kept."""
        fragment = "<p>Two dogs are playing in the <b>snow</b>.</p>"
        self.assertEqual(self.translate("--html", "--beam", "4", fragment, stdin=None),
                         "<p>Zwei Hunde spielen im <b>Schnee</b>.</p>\n")
        # As plain text, the tags would be carried through as spans the vocabulary lacks.
        self.assertNotIn("<b>Schnee</b>", self.translate("--beam", "4", fragment, stdin=None))
        # stdin whole: a document of several blocks and lines, each sentence of each block translated.
        a, b = self.translate(stdin="\n".join(self.TWELVE[:2]) + "\n").splitlines()
        document = f"<ul>\n  <li>{self.TWELVE[0]}</li>\n  <li>{self.TWELVE[1]}</li>\n</ul>\n"
        self.assertEqual(self.translate("--html", stdin=document), f"<ul>\n  <li>{a}</li>\n  <li>{b}</li>\n</ul>\n")
        for other in (["--nbest", "1"], ["--confidence"], ["--no-split"], ["--threads", "2"]):
            code, _, err = run("translate", "--model", self.MODEL, "--html", *other, fragment)
            self.assertEqual(code, 2, other)
            self.assertIn("--html", err)

    def test_eval_scores_split_lines_as_translate_writes_them(self):
        with tempfile.TemporaryDirectory() as tmp:
            src, ref = os.path.join(tmp, "src.en"), os.path.join(tmp, "ref.de")
            write_file(src, " ".join(self.TWELVE[:2]) + "\n" + self.TWELVE[2] + "\n")
            write_file(ref, self.translate(stdin=read_file(src)))
            code, out, err = run("eval", "--model", self.MODEL, "--src", src, "--ref", ref)
            self.assertEqual((code, err), (0, ""))
            self.assertRegex(out, r"BLEU[^\n]* = 100\.00")


class RealText(unittest.TestCase):
    """Text the shipped en-de model's vocabulary lacks, and numbers, pass through; a sentence in a
    script it cannot read is copied unchanged with a note (tests/real_text checks the core)."""
    MODEL = Documents.MODEL
    LINES = ["A man 😀 rides a bike in 北京.", "一个男人骑自行车。", "A runner with the number 512 on his shirt.",
             "A dog runs. 一个男人骑自行车。"]

    def translate(self, *args, lines=LINES):
        code, out, err = run("translate", "--model", self.MODEL, *args, stdin="\n".join(lines) + "\n")
        self.assertEqual(code, 0, err)
        return out.splitlines(), err

    def test_unknown_text_and_numbers_pass_through(self):
        for args in [(), ("--no-split",), ("--threads", "2", "--batch", "1"), ("--beam", "4")]:
            (emoji, chinese, number, mixed), err = self.translate(*args)
            self.assertIn("Mann 😀", emoji, args)
            self.assertIn("北京", emoji, args)
            self.assertNotIn("⁇", emoji, args)  # how SentencePiece decodes <unk>
            self.assertEqual(chinese, self.LINES[1], args)
            self.assertIn(" 512 ", number, args)
            # Split, the Chinese sentence of line 4 is unreadable on its own; whole, it is half the
            # line's characters, not more, so it passes through after the translated sentence.
            self.assertTrue(mixed.endswith(". 一个男人骑自行车。"), (args, mixed))
            self.assertEqual(err.count("cannot read"), 1 if args == ("--no-split",) else 2, (args, err))
            self.assertIn("line 2:", err)

    def test_a_letters_set_phrases_and_signature(self):
        letter = ["Dear Ms. Jones,", "", "Thank you for your email. A dog runs.", "", "Best regards,", "Anna Schmidt"]
        for args in [(), ("--threads", "2", "--batch", "1")]:
            out, err = self.translate(*args, lines=letter)
            self.assertEqual(out[0], "Sehr geehrte Frau Jones,", args)
            self.assertTrue(out[2].startswith("Vielen Dank für Ihre E-Mail. "), (args, out[2]))
            # The closing, and the name signed on the line after it, kept as written.
            self.assertEqual(out[4:], ["Mit freundlichen Grüßen", "Anna Schmidt"], args)
            self.assertEqual(err, "", args)

    def test_every_hypothesis_and_the_attention_record(self):
        nbest, _ = self.translate("--beam", "3", "--nbest", "3", lines=self.LINES[:2])
        self.assertEqual(len(nbest), 4)
        for entry in nbest[:3]:
            self.assertIn("😀", entry)
        self.assertEqual(nbest[3], "1 ||| 一个男人骑自行车。 ||| 0.000000")
        with tempfile.TemporaryDirectory() as tmp:
            path = os.path.join(tmp, "attention.jsonl")
            self.translate("--attention", path, lines=self.LINES[:2])
            emoji, chinese = [json.loads(line) for line in read_file(path).splitlines()]
        self.assertIn("😀", emoji["target_text"])
        self.assertNotIn("<unk>", emoji["source_tokens"])
        self.assertEqual(emoji["source_tokens"][:3], ["▁A", "▁man", "▁rides"])  # what the model read
        self.assertEqual((chinese["target_text"], chinese["source_tokens"]), (self.LINES[1], []))


class OtherLanguage(unittest.TestCase):
    """A line CLD2 finds in another language than the model reads is translated, with a warning on
    stderr naming both languages: the first 5 lines one by one, then how many more."""
    MODEL = Documents.MODEL  # the shipped en-de
    GERMAN = ["Ein Mann fährt mit dem Fahrrad die Straße hinunter.", "Zwei Hunde spielen im Schnee.",
              "Eine Frau liest ein Buch auf einer Bank.", "Ein Junge springt in den See.",
              "Drei Mädchen tanzen auf einer Bühne.", "Ein alter Mann sitzt auf einer Bank.",
              "Eine schwarze Katze schläft auf dem Sofa."]

    def test_german_lines_for_an_english_model_are_warned_of(self):
        lines = ["A man is riding a bicycle down the street."] + self.GERMAN
        code, out, err = run("translate", "--model", self.MODEL, stdin="\n".join(lines) + "\n")
        self.assertEqual(code, 0, err)
        self.assertEqual(len(out.splitlines()), len(lines))  # translated all the same
        warnings = err.splitlines()
        for number in range(2, 7):
            self.assertRegex(err, rf"attend: warning: line {number} is in (\w+) \(CLD2: \d+% of its letters\), "
                                  r"not English, which this model reads: its translation is unreliable; "
                                  r"use a model that reads \1\n")
        # CLD2 is a real detector: "Ein Junge springt in den See." reads to it as Norwegian.
        self.assertGreaterEqual(err.count("is in German"), 4, err)
        self.assertNotIn("line 1 ", err)
        self.assertEqual(warnings[-1], "attend: warning: 2 more line(s) not in English")
        self.assertEqual(len(warnings), 6, err)

    def test_lines_in_the_models_language_are_not(self):
        for args in [(), ("--threads", "2", "--batch", "1")]:
            code, _, err = run("translate", "--model", self.MODEL, *args, stdin="\n".join(SENTENCES) + "\n")
            self.assertEqual((code, err), (0, ""), args)
        code, _, err = run("translate", "--model", os.path.join(REPO, "models/de-en/model.int8.safetensors"),
                           *self.GERMAN)
        self.assertEqual((code, err), (0, ""))


class Attention(unittest.TestCase):
    def test_json_lines_have_the_documented_shapes(self):
        with tempfile.TemporaryDirectory() as directory:
            path = os.path.join(directory, "attention.jsonl")
            code, out, err = run("translate", "--model", F32, "--attention", path,
                                 stdin=SENTENCES[0] + "\n\n" + SENTENCES[1] + "\n")
            self.assertEqual(code, 0, err)
            records = [json.loads(line) for line in read_file(path).splitlines()]
        texts = out.split("\n")
        self.assertEqual([r["line"] for r in records], [1, 2, 3])
        empty = records[1]
        self.assertEqual((empty["source_tokens"], empty["attention"]["cross"]), ([], []))
        for record in (records[0], records[2]):
            self.assertEqual((record["format"], record["version"]), ("attend-attention", 1))
            self.assertEqual(record["target_text"], texts[record["line"] - 1])
            L_enc, L_dec, H = record["encoder_layers"], record["decoder_layers"], record["heads"]
            self.assertEqual((L_enc, L_dec, H), (2, 2, 2))
            S, T = len(record["source_tokens"]), len(record["target_tokens"])
            self.assertEqual(record["source_tokens"][-1], "</s>")
            self.assertEqual(record["target_input_tokens"][0], "<s>")
            self.assertEqual(record["target_input_tokens"][1:], record["target_tokens"][:-1])
            a = record["attention"]
            self.assert_shape(a["encoder"], [L_enc, H, S, S])
            self.assert_shape(a["decoder"], [L_dec, H, T, T])
            self.assert_shape(a["cross"], [L_dec, H, T, S])
            for kind in ("encoder", "decoder", "cross"):
                for layer in a[kind]:
                    for head in layer:
                        for row in head:
                            self.assertAlmostEqual(sum(row), 1.0, delta=1e-4)
            for layer in a["decoder"]:
                for head in layer:
                    for q, row in enumerate(head):
                        self.assertEqual(row[q + 1:], [0] * (T - q - 1), "decoder attends to the future")

    def assert_shape(self, nested, shape):
        self.assertEqual(len(nested), shape[0])
        for item in nested:
            if len(shape) > 1:
                self.assert_shape(item, shape[1:])


class Inspect(unittest.TestCase):
    def reference(self, path):
        sys.path.insert(0, os.path.join(REPO, "training"))
        from attend_ref.export import read_safetensors
        tensors, metadata = read_safetensors(path)
        params = sum(t.size for n, t in tensors.items() if not n.startswith("tokenizer.") and not n.endswith("_scale"))
        return tensors, json.loads(metadata["attend.config"]), params

    def test_json(self):
        for path, dtype in ((F32, "f32"), (INT8, "int8")):
            code, out, err = run("inspect", "--json", "--tensors", path)
            self.assertEqual(code, 0, err)
            report = json.loads(out)
            tensors, config, params = self.reference(path)
            self.assertEqual(report["config"], config)
            self.assertEqual(report["weight_dtype"], dtype)
            self.assertEqual(report["parameter_count"], params)
            self.assertEqual(report["file_bytes"], os.path.getsize(path))
            self.assertEqual((report["src_vocab_size"], report["tgt_vocab_size"]), (200, 180))
            self.assertEqual({t["name"]: t["shape"] for t in report["tensors"]},
                             {n: list(t.shape) for n, t in tensors.items()})
            self.assertEqual(sum(d["tensors"] for d in report["dtypes"].values()), len(tensors))
            self.assertEqual(sum(d["bytes"] for d in report["dtypes"].values()), sum(t.nbytes for t in tensors.values()))
            self.assertEqual("I8" in report["dtypes"], dtype == "int8")
        code, out, _ = run("inspect", "--json", F32)
        self.assertNotIn("tensors", json.loads(out))

    def test_text(self):
        code, out, err = run("inspect", INT8)
        self.assertEqual((code, err), (0, ""))
        _, _, params = self.reference(INT8)
        self.assertIn(f"parameters   {params}\n", out)
        self.assertIn("weights      int8\n", out)
        self.assertRegex(out, r"\n  I8  \d+ tensors")
        self.assertNotIn("\ntensors\n", out)
        code, out, _ = run("inspect", "--tensors", INT8)
        self.assertIn("\ntensors\n  ", out)
        self.assertIn("encoder.layers.0.self_attn.q_proj.weight  I8  [16, 16]  256 bytes", out)


class Eval(unittest.TestCase):
    SRC, REF, REF_GZ = (os.path.join(TINY, n) for n in ("src.txt", "ref.txt", "ref.txt.gz"))

    def test_reference_against_itself(self):
        for ref in (self.REF, self.REF_GZ):
            code, out, err = run("eval", "--hyp", self.REF, "--ref", ref)
            self.assertEqual((code, err), (0, ""))
            bleu, chrf = out.splitlines()
            self.assertRegex(bleu, r"^BLEU\|nrefs:1\|case:mixed\|eff:no\|tok:13a\|smooth:exp\|version:[^ ]+ = 100\.00 "
                                   r"100\.0/100\.0/100\.0/100\.0 \(BP = 1\.000 ratio = 1\.000 hyp_len = \d+ ref_len = \d+\)$")
            self.assertRegex(chrf, r"^chrF2\|nrefs:1\|case:mixed\|eff:yes\|nc:6\|nw:0\|space:no\|version:[^ ]+ = 100\.00$")
        code, out, _ = run("eval", "--hyp", self.REF, "--ref", self.REF, "--lowercase")
        self.assertIn("|case:lc|", out.splitlines()[0])

    def test_translating_the_source(self):
        with tempfile.TemporaryDirectory() as directory:
            hyp_out = os.path.join(directory, "hyp.txt")
            code, out, err = run("eval", "--model", F32, "--src", self.SRC, "--ref", self.REF_GZ,
                                 "--beam", "2", "--hyp-out", hyp_out)
            self.assertEqual((code, err), (0, ""))
            translated = read_file(hyp_out)
            _, again, _ = run("eval", "--hyp", hyp_out, "--ref", self.REF)
        self.assertEqual(out, again)
        _, direct, _ = run("translate", "--model", F32, "--beam", "2", stdin=read_file(self.SRC))
        self.assertEqual(translated, direct)

    def test_an_unwritable_hyp_out_fails_before_translating(self):
        with tempfile.TemporaryDirectory() as directory:
            src = os.path.join(directory, "src.txt")
            lines = read_file(self.SRC).splitlines()
            write_file(src, "\n".join(lines[:1]).encode() + b"\nbroken \xff line\n" + "\n".join(lines[2:]).encode() + b"\n")
            code, out, err = run("eval", "--model", F32, "--src", src, "--ref", self.REF,
                                 "--hyp-out", os.path.join(directory, "missing", "hyp.txt"))
        self.assertEqual((code, out), (1, ""))
        # Only the output's error: the broken line would have been reported, had translation begun.
        self.assertRegex(err, r"^attend: error: cannot write '[^']*hyp.txt': [^\n]+\n$")

    def test_length_mismatch_and_missing_files(self):
        with tempfile.TemporaryDirectory() as directory:
            short = os.path.join(directory, "short.txt")
            write_file(short, "one line\n")
            for args in (["--hyp", short, "--ref", self.REF], ["--model", F32, "--src", short, "--ref", self.REF]):
                code, out, err = run("eval", *args)
                self.assertEqual(code, 1)
                self.assertRegex(err, r"^attend: error: '[^']*short.txt' has 1 lines but '[^']*ref.txt' has \d+\n$")
            broken = os.path.join(directory, "broken.gz")
            write_file(broken, gzip.compress(read_file(self.REF, binary=True))[:40])
            for args in (["--hyp", os.path.join(directory, "missing.txt"), "--ref", self.REF],
                         ["--hyp", self.REF, "--ref", broken]):
                code, out, err = run("eval", *args)
                self.assertEqual(code, 1)
                self.assertRegex(err, r"^attend: error: cannot (open|read) '[^\n]+\n$")


class Mbr(unittest.TestCase):
    """attend mbr: each line's consensus from n-best files, and clear errors for files that are not
    attend translate --nbest output."""

    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()

    def tearDown(self):
        self.tmp.cleanup()

    def nbest_file(self, name, text):
        path = os.path.join(self.tmp.name, name)
        write_file(path, text)
        return path

    def test_consensus_of_two_files(self):
        # Line 0: "a dog runs ." twice of four. Line 1: "x y z w" is in both files, but the three "a b c ."
        # variants agree with each other more (mbr_test.cpp has the sums). Line 2: blank input in both.
        first = self.nbest_file("first.nbest", "0 ||| a dog is running . ||| -1.0\n0 ||| a dog runs . ||| -1.5\n"
                                               "1 ||| x y z w ||| -0.1\n1 ||| a b c d ||| -0.2\n2 |||  ||| 0\n")
        second = self.nbest_file("second.nbest", "0 ||| a dog runs . ||| -0.5\n0 ||| the dog runs ||| -0.9\n"
                                                 "1 ||| a b c e ||| -0.3\n1 ||| x y z w ||| -0.4\n"
                                                 "1 ||| a b c f ||| -0.5\n2 |||  ||| 0\n")
        code, out, err = run("mbr", first, second)
        self.assertEqual((code, err), (0, ""))
        self.assertEqual(out, "a dog runs .\na b c d\n\n")
        # One file: its own consensus. Line 0: "a dog runs ." against "a dog is running ." has
        # p = 3/4, 1/3, 1/4, 1/4 (smoothed) and BP exp(-1/4): 27.5; the other way p = 3/5, 1/4, 1/6, 1/8
        # and BP 1: 23.6. Line 1: a tie (100 each), so the first.
        code, out, _ = run("mbr", first)
        self.assertEqual(out, "a dog runs .\nx y z w\n\n")

    def test_translate_nbest_output_round_trips(self):
        code, nbest, _ = run("translate", "--model", F32, "--beam", "4", "--nbest", "4", *SENTENCES)
        self.assertEqual(code, 0)
        path = self.nbest_file("tiny.nbest", nbest)
        code, out, err = run("mbr", path, path)
        self.assertEqual((code, err), (0, ""))
        chosen = out.split("\n")[:-1]
        self.assertEqual(len(chosen), len(SENTENCES))
        for index, text in enumerate(chosen):
            self.assertIn(f"{index} ||| {text} ||| ", nbest)

    def test_bad_files_are_errors_naming_the_line(self):
        good = self.nbest_file("good.nbest", "0 ||| a ||| -1\n1 ||| b ||| -1\n")
        cases = [
            ("0 ||| a\n", "line 1: expected `i ||| text ||| score`"),
            ("0 ||| a ||| -1\nx ||| b ||| -1\n", "line 2: the index 'x' is not a line number"),
            ("0 ||| a ||| -1\n2 ||| b ||| -1\n", "line 2: index 2 after index 0"),
            ("1 ||| a ||| -1\n", "line 1: index 1 after the start"),
            ("0 ||| a ||| -1\n", "has n-best lists for 1 lines but"),
        ]
        for text, message in cases:
            bad = self.nbest_file("bad.nbest", text)
            code, out, err = run("mbr", good, bad)
            self.assertEqual((code, out), (1, ""), text)
            self.assertRegex(err, r"^attend: error: [^\n]+\n$")
            self.assertIn(message, err, text)
        code, out, err = run("mbr", good, os.path.join(self.tmp.name, "missing.nbest"))
        self.assertEqual((code, out), (1, ""))
        self.assertIn("cannot open", err)
        code, _, err = run("mbr")
        self.assertEqual(code, 2)
        self.assertIn("missing NBEST_FILE", err)


class Score(ErrorLines):
    """attend score: log p(target | source) and the token count per line pair, as the PyTorch
    reference computes them; errors name the pair."""

    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()

    def tearDown(self):
        self.tmp.cleanup()

    def pair_files(self, sources, targets):
        paths = [os.path.join(self.tmp.name, name) for name in ("src.txt", "tgt.txt")]
        for path, lines in zip(paths, (sources, targets)):
            write_file(path, b"".join((line if isinstance(line, bytes) else line.encode()) + b"\n" for line in lines))
        return paths

    def reference_scores(self, sources, targets):
        sys.path.insert(0, os.path.join(REPO, "training"))
        import torch
        from attend_ref import data
        from attend_ref.export import load_model
        model, _ = load_model(F32)
        eos = model.cfg.eos_id
        src_ids = data.encode(os.path.join(TINY, "src.model"), sources)
        tgt_ids = data.encode(os.path.join(TINY, "tgt.model"), targets)
        out = []
        with torch.no_grad():
            for src, tgt in zip(src_ids, tgt_ids):
                src_t, tgt_in, tgt_out = data.collate([(src + [eos], tgt)])
                log_probs = model(src_t, tgt_in).log_softmax(-1)[0]  # [T, V]
                out.append((float(log_probs.gather(-1, tgt_out[0][:, None]).sum()), len(tgt) + 1))
        return out

    def test_scores_are_the_reference_models(self):
        targets = ["Ein Mann sitzt auf einer Bank.", "Zwei Hunde.", "", "Viele Leute gehen nachts eine Straße entlang."]
        src, tgt = self.pair_files(SENTENCES, targets)
        code, out, err = run("score", "--model", F32, "--src", src, "--tgt", tgt, "--threads", "2", "--batch", "1")
        self.assertEqual((code, err), (0, ""))
        rows = [re.fullmatch(r"(-?\d+\.\d{6})\t(\d+)", line) for line in out.split("\n")[:-1]]
        self.assertEqual(len(rows), len(SENTENCES))
        self.assertTrue(all(rows), out)
        want = self.reference_scores(SENTENCES, targets)
        for row, (log_prob, tokens) in zip(rows, want):
            self.assertEqual(int(row.group(2)), tokens)
            self.assertAlmostEqual(float(row.group(1)), log_prob, delta=1e-4 * max(1.0, abs(log_prob)))
        self.assertEqual(int(rows[2].group(2)), 1)  # the empty target: eos alone
        self.assertLess(float(rows[2].group(1)), 0)
        code, batched, _ = run("score", "--model", F32, "--src", src, "--tgt", tgt)  # one batch of 4 lengths
        self.assertEqual(code, 0)
        for one, together in zip(out.splitlines(), batched.splitlines()):  # the kernels round by batch shape
            (a, a_tokens), (b, b_tokens) = one.split("\t"), together.split("\t")
            self.assertEqual(a_tokens, b_tokens)
            self.assertAlmostEqual(float(a), float(b), delta=1e-5 * max(1.0, abs(float(a))))
        code, int8, _ = run("score", "--model", INT8, "--src", src, "--tgt", tgt)
        self.assertEqual(code, 0)
        self.assertEqual([line.split("\t")[1] for line in int8.splitlines()], [row.group(2) for row in rows])

    def test_bad_pairs_are_errors_naming_them(self):
        src, tgt = self.pair_files(SENTENCES[:3], ["Ein Mann.", b"Zwei \xff Hunde.", "Ein Mädchen."])
        err = self.assert_one_error(1, ("score", "--model", F32, "--src", src, "--tgt", tgt), mentions=("pair 2 of 3",))
        self.assertIn("UTF-8", err)
        src, tgt = self.pair_files(["A man.", "   "], ["Ein Mann.", "Nichts."])
        self.assert_one_error(1, ("score", "--model", F32, "--src", src, "--tgt", tgt), mentions=("pair 2 of 2",))
        src, tgt = self.pair_files(SENTENCES[:2], ["Ein Mann."])
        self.assert_one_error(1, ("score", "--model", F32, "--src", src, "--tgt", tgt),
                              mentions=("has 2 lines but", "has 1"))
        self.assert_one_error(2, ("score", "--model", F32, "--src", src), mentions=("--tgt",))


class Ensemble(ErrorLines):
    """--model given more than once: the models decode together (attend::Model::ensemble)."""

    WIDE = os.path.join(TINY, "tiny-wide.f32.safetensors")  # the tiny vocabulary, another shape

    def test_two_copies_translate_as_the_model(self):
        text = "A dog runs.\nTwo children are playing in the snow near a red house.\n"
        for options in ([], ["--beam", "4"]):
            code, single, err = run("translate", "--model", F32, *options, stdin=text)
            self.assertEqual(code, 0, err)
            code, both, err = run("translate", "--model", F32, "--model", F32, *options, stdin=text)
            self.assertEqual(code, 0, err)
            self.assertEqual(both, single, options)

    def test_score_is_the_weighted_mean(self):
        tmp = tempfile.TemporaryDirectory()
        self.addCleanup(tmp.cleanup)
        paths = []
        for name, line in (("src.txt", "A dog runs."), ("tgt.txt", "Ein Hund rennt.")):
            paths.append(os.path.join(tmp.name, name))
            write_file(paths[-1], line + "\n")
        scores = []
        for models in (["--model", F32], ["--model", self.WIDE], ["--model", F32, "--model", self.WIDE, "--weights", "3,1"]):
            code, out, err = run("score", *models, "--src", paths[0], "--tgt", paths[1])
            self.assertEqual(code, 0, err)
            scores.append(float(out.split("\t")[0]))
        self.assertAlmostEqual(scores[2], 0.75 * scores[0] + 0.25 * scores[1], places=3)

    def test_the_attention_member_is_shown_and_masked(self):
        # Head 3 of the cross-attention exists in tiny-wide (4 heads), not in tiny (2).
        models = ["--model", F32, "--model", self.WIDE, "--mask-head", "cross:0:3"]
        code, out, err = run("translate", *models, "--attention-member", "2", "A dog runs.")
        self.assertEqual(code, 0, err)
        self.assert_one_error(2, ["translate", *models, "A dog runs."], mentions=["cross:0:3"])

    def test_the_attention_json_holds_every_members_maps(self):
        """--attention with an ensemble: the record's maps are the attention member's, and "members" holds
        each member's for the same translation (two copies: each the single model's maps)."""
        with tempfile.TemporaryDirectory() as directory:
            path = os.path.join(directory, "attention.jsonl")

            def record(*models):
                code, _, err = run("translate", *models, "--attention", path, "A dog runs.")
                self.assertEqual(code, 0, err)
                return json.loads(read_file(path))

            single = record("--model", F32)
            self.assertNotIn("members", single)
            copies = record("--model", F32, "--model", F32)
            self.assertEqual(copies["attention_member"], 1)
            self.assertEqual([m["attention"] for m in copies["members"]], [single["attention"]] * 2)
            shapes = record("--model", F32, "--model", self.WIDE, "--attention-member", "2")
            self.assertEqual(shapes["attention_member"], 2)
            self.assertEqual([m["heads"] for m in shapes["members"]], [2, 4])
            self.assertEqual(shapes["members"][1]["attention"], shapes["attention"])
            self.assertEqual(shapes["heads"], 4)
            for member in shapes["members"]:
                for row in member["attention"]["cross"][-1][0]:
                    self.assertAlmostEqual(sum(row), 1.0, places=4)

    def test_other_vocabularies_and_bad_weights_are_refused(self):
        shipped = os.path.join(REPO, "models", "en-de", "model.int8.safetensors")
        self.assert_one_error(1, ["translate", "--model", F32, "--model", shipped, "A dog."], mentions=["vocabulary"])
        self.assert_one_error(1, ["translate", "--model", F32, "--model", F32, "--weights", "1,x", "A dog."],
                              mentions=["--weights"])
        self.assert_one_error(1, ["translate", "--model", F32, "--model", F32, "--weights", "1", "A dog."],
                              mentions=["weights"])


class Rerank(ErrorLines):
    """--rerank-with: the beam reranked by a model of the other direction (here the shipped de-en)."""

    EN_DE = os.path.join(REPO, "models", "en-de", "model.int8.safetensors")
    DE_EN = os.path.join(REPO, "models", "de-en", "model.int8.safetensors")

    def nbest(self, *options):
        code, out, err = run("translate", "--model", self.EN_DE, "--beam", "5", "--nbest", "5", *options,
                             stdin="\n".join(SENTENCES) + "\n")
        self.assertEqual(code, 0, err)
        return [line.split(" ||| ") for line in out.splitlines()]

    def test_weight_zero_keeps_the_beams_list_and_a_weight_reorders_it_by_the_printed_score(self):
        plain = self.nbest()
        self.assertEqual(self.nbest("--rerank-with", self.DE_EN, "--rerank-weight", "0"), plain)
        reranked = self.nbest("--rerank-with", self.DE_EN, "--rerank-weight", "1")
        self.assertNotEqual(reranked, plain)
        for line in range(len(SENTENCES)):
            mine = [row for row in reranked if row[0] == str(line)]
            self.assertEqual(sorted(row[1] for row in mine), sorted(row[1] for row in plain if row[0] == str(line)))
            scores = [float(row[2]) for row in mine]
            self.assertEqual(scores, sorted(scores, reverse=True), line)
        code, best, err = run("translate", "--model", self.EN_DE, "--beam", "5", "--no-split", "--rerank-with", self.DE_EN,
                              "--rerank-weight", "1", *SENTENCES)
        self.assertEqual(code, 0, err)
        self.assertEqual(best.splitlines(), [next(row[1] for row in reranked if row[0] == str(line))
                                             for line in range(len(SENTENCES))])

    def test_wrong_options_and_a_missing_reverse_model(self):
        m = ["translate", "--model", F32]
        self.assert_one_error(2, m + ["--beam", "4", "--rerank-weight", "0.5", "A dog."], mentions=["--rerank-with"])
        self.assert_one_error(2, m + ["--rerank-with", F32, "A dog."], mentions=["--beam 2 or more"])
        self.assert_one_error(2, m + ["--beam", "4", "--rerank-with", F32, "--rerank-weight", "-1", "A dog."],
                              mentions=["--rerank-weight must be at least 0"])
        missing = os.path.join(TINY, "no-such-reverse.safetensors")
        self.assert_one_error(1, m + ["--beam", "4", "--rerank-with", missing, "A dog."], mentions=[missing])
        ref = os.path.join(TINY, "ref.txt")
        self.assert_one_error(2, ["eval", "--ref", ref, "--hyp", ref, "--rerank-with", F32], mentions=["--rerank-with goes with --model"])


class GreedyParity(unittest.TestCase):
    """attend translate's greedy output equals training/attend_ref/search.py's greedy."""

    def test_same_tokens_as_reference(self):
        sys.path.insert(0, os.path.join(REPO, "training"))
        from attend_ref import data, search
        from attend_ref.export import load_model
        model, _ = load_model(F32)
        cfg = model.cfg
        src_ids = [ids + [cfg.eos_id] for ids in data.encode(os.path.join(TINY, "src.model"), SENTENCES)]
        results = search.greedy(model, src_ids, max_length=256, max_length_ratio=3.0)
        vocab = {side: [line.split("\t")[0] for line in read_file(os.path.join(TINY, side + ".vocab")).splitlines()]
                 for side in ("src", "tgt")}
        with tempfile.TemporaryDirectory() as directory:
            path = os.path.join(directory, "attention.jsonl")
            code, out, err = run("translate", "--model", F32, "--attention", path, *SENTENCES)
            self.assertEqual(code, 0, err)
            records = [json.loads(line) for line in read_file(path).splitlines()]
        decoded = subprocess.run(["spm_decode", f"--model={os.path.join(TINY, 'tgt.model')}", "--input_format=id"],
                                 input="".join(" ".join(map(str, ids)) + "\n" for ids, _ in results),
                                 capture_output=True, text=True, check=True).stdout
        self.assertEqual(out, decoded)
        for record, source, (ids, _) in zip(records, src_ids, results):
            self.assertEqual(record["source_tokens"], [vocab["src"][i] for i in source])
            pieces = record["target_tokens"]
            if pieces and pieces[-1] == "</s>" and len(pieces) > len(ids):
                pieces = pieces[:-1]
            self.assertEqual(pieces, [vocab["tgt"][i] for i in ids])


if __name__ == "__main__":
    unittest.main()
