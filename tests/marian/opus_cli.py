"""`attend import` and `attend translate` on OPUS-MT folders made from the committed fixture
(fixtures/opus-ende): the languages read from a README's "* source language(s):" lines, decoder.yml's
beam-size as the beam `attend translate` uses when --beam is not given, and a multilingual model's
>>xxx<< target token (--target-token) read as its one source piece.

Environment: ATTEND_BIN (the attend binary), OPUS_FIXTURE (the fixture folder).
"""
import json
import os
import shutil
import struct
import subprocess
import tempfile
import unittest

ATTEND = os.environ["ATTEND_BIN"]
FIXTURE = os.environ["OPUS_FIXTURE"]
VOCAB = "opus.spm2k-spm2k.vocab.yml"

TATOEBA_README = """# opus-2021-02-19.zip

* dataset: opus
* model: transformer-align
* source language(s): eng
* target language(s): deu
* model: transformer-align
* pre-processing: normalization + SentencePiece (spm2k,spm2k)
"""


def run(*args):
    done = subprocess.run([ATTEND, *args], capture_output=True, text=True)
    return done.returncode, done.stdout, done.stderr


def metadata(path):
    with open(path, "rb") as f:
        (length,) = struct.unpack("<Q", f.read(8))
        return json.loads(f.read(length))["__metadata__"]


class OpusCli(unittest.TestCase):
    def setUp(self):
        self.work = tempfile.mkdtemp(prefix="opus_cli_")

    def tearDown(self):
        shutil.rmtree(self.work)

    def folder(self, name, readme=None, vocab=None):
        """A copy of the fixture folder, its README.md (and vocab.yml) replaced when given."""
        path = os.path.join(self.work, name)
        shutil.copytree(FIXTURE, path)
        if readme is not None:
            with open(os.path.join(path, "README.md"), "w", encoding="utf-8") as f:
                f.write(readme)
        if vocab is not None:
            with open(os.path.join(path, VOCAB), "w", encoding="utf-8") as f:
                f.write(vocab)
        return path

    def imported(self, folder, *extra):
        out = os.path.join(self.work, os.path.basename(folder) + ".safetensors")
        code, stdout, stderr = run("import", folder, "-o", out, *extra)
        self.assertEqual(code, 0, stderr)
        return out, stdout

    def test_languages_from_the_readme(self):
        out, stdout = self.imported(self.folder("tatoeba", readme=TATOEBA_README))
        self.assertEqual(metadata(out)["attend.languages"], "en-de")  # eng, deu: ISO 639-1
        self.assertIn("languages  en-de (README)", stdout)
        out, stdout = self.imported(self.folder("given", readme=TATOEBA_README), "--languages", "en-fr")
        self.assertEqual(metadata(out)["attend.languages"], "en-fr")  # --languages first
        out, stdout = self.imported(self.folder("silent"))  # the fixture's README states none
        self.assertNotIn("attend.languages", metadata(out))
        self.assertIn("not named (give --languages)", stdout)
        several = TATOEBA_README.replace("target language(s): deu", "target language(s): deu fra")
        target = os.path.join(self.work, "several.safetensors")
        code, _, stderr = run("import", self.folder("several", readme=several), "-o", target)
        self.assertEqual(code, 2, stderr)
        self.assertIn("README.md' states 2 target languages (deu fra)", stderr)
        self.assertIn("--languages", stderr)
        self.assertFalse(os.path.exists(target))

    def test_the_beam_decoder_yml_asks_for(self):
        out, _ = self.imported(self.folder("beam"), "--languages", "en-de")
        self.assertEqual(json.loads(metadata(out)["attend.search"])["beam_size"], 6)  # decoder.yml: beam-size 6
        code, stdout, stderr = run("translate", "--model", out, "--nbest", "6", "A dog runs in the snow.")
        self.assertEqual(code, 0, stderr)
        self.assertEqual(len(stdout.splitlines()), 6)  # six hypotheses: a beam of 6, not greedy search
        code, default, stderr = run("translate", "--model", out, "A dog runs in the snow.", "Two men play.")
        self.assertEqual(code, 0, stderr)
        code, six, stderr = run("translate", "--model", out, "--beam", "6", "A dog runs in the snow.", "Two men play.")
        self.assertEqual((code, default), (0, six), stderr)
        code, _, stderr = run("translate", "--model", out, "--nbest", "7", "A dog.")
        self.assertEqual(code, 2, stderr)
        self.assertIn("--nbest 7 exceeds --beam 6 (the model file's)", stderr)
        code, _, stderr = run("translate", "--model", out, "--beam", "1", "--nbest", "2", "A dog.")
        self.assertEqual(code, 2, stderr)
        self.assertIn("--nbest 2 exceeds --beam 1:", stderr)
        code, stdout, stderr = run("translate", "--model", out, "--beam", "1", "--nbest", "1", "A dog.")
        self.assertEqual(code, 0, stderr)
        # Imported without decoder.yml: Bergamot's worker's greedy search.
        bare = self.folder("bare")
        os.remove(os.path.join(bare, "decoder.yml"))
        greedy, _ = self.imported(bare, "--languages", "en-de")
        self.assertNotIn("beam_size", json.loads(metadata(greedy)["attend.search"]))
        code, _, stderr = run("translate", "--model", greedy, "--nbest", "2", "A dog.")
        self.assertEqual(code, 2, stderr)
        self.assertIn("--nbest 2 exceeds --beam 1 (the model file's)", stderr)

    def test_a_target_token(self):
        with open(os.path.join(FIXTURE, VOCAB), encoding="utf-8") as f:
            lines = f.read().splitlines()
        # Its rarest pieces (the last ids: "è", "„") give their ids to two target-language tokens.
        self.assertEqual(lines[-2:], ["è: 1998", "„: 1999"])
        vocab = "\n".join(lines[:-2] + ['">>fra<<": 1998', '">>deu<<": 1999']) + "\n"
        out, _ = self.imported(self.folder("multi", vocab=vocab), "--languages", "en-de")
        attention = os.path.join(self.work, "att.jsonl")
        code, stdout, stderr = run("translate", "--model", out, "--beam", "1", "--target-token", ">>deu<<",
                                   "--attention", attention, "A dog runs.")
        self.assertEqual(code, 0, stderr)
        with open(attention, encoding="utf-8") as f:
            record = json.loads(f.readline())
        self.assertEqual(record["source_tokens"][0], ">>deu<<")
        self.assertEqual(record["source_tokens"][1:3], ["\u2581A", "\u2581dog"])
        # Given in the text instead, the same ids and the same translation.
        code, opened, stderr = run("translate", "--model", out, "--beam", "1", ">>deu<< A dog runs.")
        self.assertEqual((code, opened), (0, stdout), stderr)
        code, short, stderr = run("translate", "--model", out, "--beam", "1", "--target-token", "deu", "A dog runs.")
        self.assertEqual((code, short), (0, stdout), stderr)
        code, _, stderr = run("translate", "--model", out, "--target-token", ">>ita<<", "A dog.")
        self.assertEqual(code, 2, stderr)
        self.assertIn("--target-token: target token '>>ita<<': not a piece of the model's source vocabulary, "
                      "which has 2 such tokens: >>fra<<, >>deu<<", stderr)
        plain, _ = self.imported(self.folder("plain"), "--languages", "en-de")
        code, _, stderr = run("translate", "--model", plain, "--target-token", ">>fra<<", "A dog.")
        self.assertEqual(code, 2, stderr)
        self.assertIn("has no >>xxx<< tokens", stderr)


if __name__ == "__main__":
    unittest.main()
