"""Training code: loss and dropout against PyTorch's own, the learning-rate schedule, the OpenBLAS
kernel choice, subword sampling against spm_encode / spm_decode, data-parallel steps against one step
on the union of the batches, and train.py end to end."""
import argparse
import ctypes
import gzip
import json
import math
import os
import re
import signal
import subprocess
import sys
import tempfile
import time
import unittest
from unittest import mock

REPO = os.environ.get("ATTEND_REPO", os.path.join(os.path.dirname(__file__), "../.."))
sys.path.insert(0, os.path.join(REPO, "training"))

import torch  # noqa: E402
import torch.nn.functional as F  # noqa: E402

import train  # noqa: E402
from attend_ref import data, data_parallel, distill, export, openblas  # noqa: E402
from attend_ref.config import ModelConfig  # noqa: E402
from attend_ref.loss import smoothed_cross_entropy  # noqa: E402
from attend_ref.model import Transformer, dropout  # noqa: E402


def multi30k_lines(split, lang, count):
    source = os.environ.get("ATTEND_DATA", os.path.join(REPO, "../shared/data/multi30k"))
    with gzip.open(os.path.join(source, f"{split}.{lang}.gz"), "rt", encoding="utf-8") as f:
        return [next(f) for _ in range(count)]


def spawned_children(pid):
    """The multiprocessing workers that process `pid` started."""
    found = []
    for entry in filter(str.isdigit, os.listdir("/proc")):
        try:
            with open(f"/proc/{entry}/stat") as f:
                ppid = int(f.read().rsplit(")", 1)[1].split()[1])
            with open(f"/proc/{entry}/cmdline", "rb") as f:
                spawned = b"spawn_main" in f.read()
        except FileNotFoundError:  # ended meanwhile
            continue
        if ppid == pid and spawned:
            found.append(int(entry))
    return found


def is_running(pid):
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().rsplit(")", 1)[1].split()[0] != "Z"
    except FileNotFoundError:
        return False


def read_text(path):
    with open(path, encoding="utf-8") as f:
        return f.read()


def read_file_bytes(path):
    with open(path, "rb") as f:
        return f.read()


def tiny_model():
    torch.manual_seed(7)
    cfg = ModelConfig(src_vocab_size=40, tgt_vocab_size=40, d_model=16, num_heads=2, d_ff=32, encoder_layers=2,
                      decoder_layers=2, shared_vocab=True, share_embeddings=True, tie_output=True)
    return Transformer(cfg).double()


def padded_batch():
    """src [3, 6], tgt_in / tgt_out [3, 5] with rows of different lengths (pad 0, bos 2, eos 3)."""
    src = torch.tensor([[5, 6, 7, 8, 9, 3], [10, 11, 3, 0, 0, 0], [12, 13, 14, 3, 0, 0]])
    tgt_out = torch.tensor([[20, 21, 22, 23, 3], [24, 3, 0, 0, 0], [25, 26, 27, 3, 0]])
    tgt_in = torch.tensor([[2, 20, 21, 22, 23], [2, 24, 0, 0, 0], [2, 25, 26, 27, 0]])
    return src, tgt_in, tgt_out


def second_batch():
    """A batch of other shapes than padded_batch's: src [2, 4], tgt_in / tgt_out [2, 6]."""
    src = torch.tensor([[15, 16, 17, 3], [18, 3, 0, 0]])
    tgt_out = torch.tensor([[30, 31, 32, 33, 34, 3], [35, 36, 3, 0, 0, 0]])
    tgt_in = torch.tensor([[2, 30, 31, 32, 33, 34], [2, 35, 36, 0, 0, 0]])
    return src, tgt_in, tgt_out


def sgd(model):
    """Updates proportional to the gradients (Adam would blow up the ~1e-17 rounding noise of the
    gradients that are zero in exact arithmetic, such as the key projection's bias)."""
    return torch.optim.SGD(model.parameters(), lr=0.5)


def data_parallel_step(rank, workers, out):
    """One train.train_step of worker `rank` on its own batch; worker 0 saves the updated weights."""
    model = tiny_model()
    train.train_step(model, sgd(model), (padded_batch(), second_batch())[rank], 0.1, distributed=True)
    if rank == 0:
        torch.save(model.state_dict(), out)


class LearningRate(unittest.TestCase):
    def schedule(self, name):
        args = argparse.Namespace(lr=2e-3, warmup=100, max_steps=1100, schedule=name)
        return lambda step: train.learning_rate(step, args)

    def test_linear_warmup_to_the_peak(self):
        for name in ("cosine", "inverse-sqrt"):
            lr = self.schedule(name)
            self.assertAlmostEqual(lr(1), 2e-5)
            self.assertAlmostEqual(lr(50), 1e-3)
            self.assertAlmostEqual(lr(100), 2e-3)

    def test_cosine_halves_at_mid_decay_and_ends_at_zero(self):
        lr = self.schedule("cosine")
        self.assertAlmostEqual(lr(600), 1e-3)
        self.assertAlmostEqual(lr(350), 1e-3 * (1 + math.cos(math.pi / 4)))
        self.assertEqual(lr(1100), 0.0)
        self.assertEqual(lr(1500), 0.0)
        decay = [lr(s) for s in range(100, 1101)]
        self.assertTrue(all(a > b for a, b in zip(decay, decay[1:-1])))

    def test_inverse_sqrt(self):
        lr = self.schedule("inverse-sqrt")
        self.assertAlmostEqual(lr(400), 1e-3)
        self.assertAlmostEqual(lr(10000), 2e-4)


class OpenBlasCore(unittest.TestCase):
    def core_for(self, flags):
        with tempfile.NamedTemporaryFile("w", suffix="cpuinfo") as f:
            f.write(f"processor\t: 0\nmodel name\t: test\nflags\t\t: {flags}\n\nprocessor\t: 1\nflags\t\t: sse2\n")
            f.flush()
            return openblas.best_core(f.name)

    def test_newest_kernels_the_first_cpu_allows(self):
        self.assertEqual(self.core_for("fpu sse2 avx2 avx512f avx512bw avx512_bf16 avx512_fp16"), "Cooperlake")
        self.assertEqual(self.core_for("fpu sse2 avx2 avx512f avx512bw"), "SkylakeX")
        self.assertEqual(self.core_for("fpu sse2 avx avx2 fma"), "Haswell")

    def test_none_without_known_flags_or_cpuinfo(self):
        self.assertIsNone(self.core_for("fpu sse2 sse4_2 avx"))
        self.assertIsNone(openblas.best_core("/nonexistent/cpuinfo"))

    def test_set_threads_sizes_the_pool(self):
        blas = ctypes.CDLL("libblas.so.3")
        if not hasattr(blas, "openblas_get_num_threads"):
            self.skipTest("libblas.so.3 is not OpenBLAS")
        before = blas.openblas_get_num_threads()
        for threads in (1, 2):
            openblas.set_threads(threads)
            self.assertEqual(blas.openblas_get_num_threads(), threads)
        openblas.set_threads(before)


class SmoothedCrossEntropy(unittest.TestCase):
    def check(self, eps):
        src, tgt_in, tgt_out = padded_batch()
        model = tiny_model()
        expected = F.cross_entropy(model(src, tgt_in).reshape(-1, 40), tgt_out.reshape(-1), ignore_index=0,
                                   label_smoothing=eps, reduction="sum")
        want = torch.autograd.grad(expected * 0.7, list(model.parameters()))
        loss, tokens = smoothed_cross_entropy(model, src, tgt_in, tgt_out, eps)
        got = torch.autograd.grad(loss * 0.7, list(model.parameters()))
        self.assertEqual(tokens, 11)
        self.assertAlmostEqual(float(loss), float(expected), places=10)
        for (name, _), g, w in zip(model.named_parameters(), got, want):
            self.assertLess(float((g - w).abs().max()), 1e-10, name)

    def test_plain_cross_entropy(self):
        self.check(0.0)

    def test_label_smoothing(self):
        self.check(0.1)

    def test_gradient_differs_when_smoothing_differs(self):
        """Guards the comparison itself: eps must reach the gradient."""
        src, tgt_in, tgt_out = padded_batch()
        model = tiny_model()
        grads = [torch.autograd.grad(smoothed_cross_entropy(model, src, tgt_in, tgt_out, eps)[0],
                                     model.decoder.layers[0].ffn.fc1.weight)[0] for eps in (0.0, 0.1)]
        self.assertGreater(float((grads[0] - grads[1]).abs().max()), 1e-6)


class Dropout(unittest.TestCase):
    def test_identity_when_not_training(self):
        x = torch.randn(100)
        self.assertIs(dropout(x, 0.3, False), x)

    def test_drops_the_fraction_and_keeps_the_mean(self):
        torch.manual_seed(0)
        x = torch.ones(200_000)
        y = dropout(x, 0.3, True)
        p = 19661 / 65536  # 0.3 rounded to a multiple of 1/65536
        self.assertAlmostEqual(float(y.eq(0).float().mean()), p, delta=0.005)
        self.assertAlmostEqual(float(y.mean()), 1.0, delta=0.01)
        self.assertTrue(torch.all((y == 0) | ((y - 1 / (1 - p)).abs() < 1e-6)))

    def test_every_unit_has_the_same_chance(self):
        """Four units share one 64-bit draw: each of the four 16-bit lanes must drop at rate p."""
        torch.manual_seed(0)
        y = dropout(torch.ones(800_000, 3), 0.1, True).view(-1, 4)
        rates = y.eq(0).float().mean(dim=0)
        for rate in rates.tolist():
            self.assertAlmostEqual(rate, 0.1, delta=0.003)

    def test_gradient_flows_through_kept_units(self):
        x = torch.ones(1000, requires_grad=True)
        y = dropout(x, 0.5, True)
        (g,) = torch.autograd.grad(y.sum(), x)
        self.assertTrue(torch.equal(g, y.detach()))


class SubwordSampling(unittest.TestCase):
    """data.encode with sample_alpha > 0 against the most likely segmentation and spm_decode."""

    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.TemporaryDirectory()
        cls.texts = [line.rstrip("\n") for line in multi30k_lines("train", "en", 300)]
        cls.model = data.train_spm(os.path.join(cls.tmp.name, "spm"), cls.texts, 300)

    @classmethod
    def tearDownClass(cls):
        cls.tmp.cleanup()

    def decode(self, ids):
        return subprocess.run(["spm_decode", f"--model={self.model}", "--input_format=id"], check=True, text=True,
                              input="\n".join(" ".join(map(str, s)) for s in ids) + "\n",
                              capture_output=True).stdout.split("\n")[: len(ids)]

    def test_draws_other_segmentations_of_the_same_text(self):
        best = data.encode(self.model, self.texts)
        sampled = data.encode(self.model, self.texts, sample_alpha=0.3, seed=1)
        self.assertEqual(self.decode(sampled), self.decode(best))
        changed = sum(a != b for a, b in zip(best, sampled))
        self.assertGreater(changed, len(self.texts) // 4)
        self.assertGreater(sum(map(len, sampled)), sum(map(len, best)))  # the most likely one is the shortest

    def test_a_seed_draws_the_same_segmentations_another_seed_others(self):
        first = data.encode(self.model, self.texts, sample_alpha=0.3, seed=1)
        self.assertEqual(data.encode(self.model, self.texts, sample_alpha=0.3, seed=1), first)
        self.assertNotEqual(data.encode(self.model, self.texts, sample_alpha=0.3, seed=2), first)

    def test_fewer_segmentations_to_draw_from_stay_closer_to_the_most_likely(self):
        pieces = lambda nbest: sum(map(len, data.encode(self.model, self.texts, sample_alpha=0.1, seed=1, nbest=nbest)))
        best = sum(map(len, data.encode(self.model, self.texts)))
        self.assertEqual(pieces(1), best)  # one segmentation to draw from: the most likely
        self.assertLess(best, pieces(4))
        self.assertLess(pieces(4), pieces(-1))

    def test_pairs_end_the_source_with_eos(self):
        pairs = train.encode_pairs((self.model, self.model), (self.texts[:5], self.texts[5:10]), 0.3, seed=1)
        self.assertEqual([len(p) for p in pairs], [2] * 5)
        self.assertTrue(all(src[-1] == data.SPECIAL_IDS["eos_id"] for src, _ in pairs))
        self.assertEqual(self.decode([tgt for _, tgt in pairs]), self.decode(data.encode(self.model, self.texts[5:10])))


class DataParallel(unittest.TestCase):
    def test_two_workers_step_as_one_step_on_both_batches(self):
        with tempfile.TemporaryDirectory() as tmp:
            out = os.path.join(tmp, "weights.pt")
            data_parallel.run_workers(data_parallel_step, 2, (out,))
            parallel = torch.load(out)
        model = tiny_model()
        optimizer = sgd(model)
        (loss_a, tokens_a), (loss_b, tokens_b) = (smoothed_cross_entropy(model, *b, 0.1)
                                                  for b in (padded_batch(), second_batch()))
        ((loss_a + loss_b) / (tokens_a + tokens_b)).backward()
        torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
        optimizer.step()
        one_batch = tiny_model()
        train.train_step(one_batch, sgd(one_batch), padded_batch(), 0.1)
        for name, weight in model.state_dict().items():
            self.assertTrue(torch.allclose(parallel[name], weight, rtol=0, atol=1e-12), name)
        moved = max(float((parallel[k] - w).abs().max()) for k, w in one_batch.state_dict().items())
        self.assertGreater(moved, 1e-6)  # guards the comparison: the second batch changed the update


class ModelLanguages(unittest.TestCase):
    """`attend.languages`: written by export_model, added to an older file by name_languages with
    its tensors unchanged, read by the engine (`attend inspect`), malformed values refused."""

    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.path = os.path.join(self.tmp.name, "old.int8.safetensors")
        tensors, metadata = export.read_safetensors(os.path.join(REPO, "models/en-fr/model.int8.safetensors"))
        metadata.pop("attend.languages", None)  # as exported before 2026-12-01
        export.write_safetensors(self.path, tensors, metadata)

    def tearDown(self):
        self.tmp.cleanup()

    def inspected(self):
        run = subprocess.run([os.environ["ATTEND_BIN"], "inspect", self.path], capture_output=True, text=True, timeout=60)
        self.assertEqual(run.returncode, 0, run.stderr)
        return run.stdout

    def test_an_older_file_is_named_with_its_tensors_unchanged(self):
        before, metadata = export.read_safetensors(self.path)
        self.assertNotIn("attend.languages", metadata)
        self.assertIn("languages    not named in the file", self.inspected())
        export.name_languages(self.path, "en-fr")
        after, metadata = export.read_safetensors(self.path)
        self.assertEqual(metadata["attend.languages"], "en-fr")
        self.assertEqual(sorted(before), sorted(after))
        for name, array in before.items():
            self.assertEqual(array.tobytes(), after[name].tobytes(), name)
        self.assertIn("languages    en -> fr", self.inspected())

    def test_every_shipped_model_names_its_direction(self):
        for pair in ("en-de", "de-en", "en-fr", "fr-en"):
            folder = os.path.join(REPO, "models", pair)
            files = [name for name in os.listdir(folder) if name.endswith(".safetensors")]
            self.assertTrue(files, folder)
            for name in files:
                self.assertEqual(export.read_safetensors(os.path.join(folder, name))[1].get("attend.languages"), pair, name)

    def test_malformed_languages_are_refused(self):
        for languages in ("en", "en-en", "EN-DE", "english-german", "en-de-fr", "en_de", ""):
            with self.assertRaises(ValueError, msg=languages):
                export.checked_languages(languages)
        self.assertEqual(export.checked_languages("en-de"), "en-de")
        with self.assertRaises(ValueError):
            export.name_languages(self.path, "de")
        self.assertNotIn("attend.languages", export.read_safetensors(self.path)[1])  # unchanged
        not_a_model = os.path.join(self.tmp.name, "notes.txt")
        with open(not_a_model, "w") as f:
            f.write("not a model")
        with self.assertRaises(ValueError):
            export.name_languages(not_a_model, "en-de")
        self.assertEqual(read_text(not_a_model), "not a model")


class Distillation(unittest.TestCase):
    """The teacher's translations are the `attend` CLI's beam-5 output, kept for a resumed run of
    the same teacher, sources and beam."""

    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.cache = os.path.join(self.tmp.name, "train.distilled.de")
        self.teacher = os.path.join(REPO, "models/en-de/model.int8.safetensors")
        self.sources = [line.strip() for line in multi30k_lines("train", "en", 6)]

    def tearDown(self):
        self.tmp.cleanup()

    def test_translations_are_the_cli_beam_5_output_in_order(self):
        got = distill.teacher_translations([self.teacher], self.sources, self.cache, batch=2)  # 3 batches
        self.assertEqual(len(got), len(self.sources))
        for source, translation in zip(self.sources, got):
            alone = subprocess.run([os.environ["ATTEND_BIN"], "translate", "--model", self.teacher, "--beam", "5",
                                    source], capture_output=True, text=True, timeout=60, check=True).stdout
            self.assertEqual(translation, alone.rstrip("\n"))
        self.assertTrue(all(got))

    def test_a_resumed_run_reads_the_kept_translations(self):
        first = distill.teacher_translations([self.teacher], self.sources, self.cache)
        with mock.patch.dict(os.environ, ATTEND_CLI="/nonexistent/attend"):
            self.assertEqual(distill.teacher_translations([self.teacher], self.sources, self.cache), first)
            with self.assertRaisesRegex(FileNotFoundError, "/nonexistent/attend is missing"):
                distill.teacher_translations([self.teacher], self.sources + ["One more line."], self.cache)

    def test_another_teacher_or_beam_translates_anew(self):
        distill.teacher_translations([self.teacher], self.sources, self.cache)
        with open(self.teacher, "rb") as f:
            weights = bytearray(f.read())
        same, other = (os.path.join(self.tmp.name, name) for name in ("same.safetensors", "other.safetensors"))
        with open(same, "wb") as f:
            f.write(weights)
        weights[-1] ^= 1  # one byte changed: another teacher
        with open(other, "wb") as f:
            f.write(weights)
        with mock.patch.dict(os.environ, ATTEND_CLI="/nonexistent/attend"):
            self.assertEqual(len(distill.teacher_translations([same], self.sources, self.cache)), len(self.sources))
            for teacher, beam in ((other, 5), (self.teacher, 4)):
                with self.assertRaisesRegex(FileNotFoundError, "/nonexistent/attend is missing"):
                    distill.teacher_translations([teacher], self.sources, self.cache, beam=beam)

    def test_several_teachers_give_the_consensus_of_their_nbest_lists(self):
        """Two teachers (en-de and, to disagree with it, de-en): each line is `attend mbr`'s choice from
        their beam-5 n-best lists, not the first teacher's best; the key tells them from either alone."""
        other = os.path.join(REPO, "models/de-en/model.int8.safetensors")
        got = distill.teacher_translations([self.teacher, other], self.sources, self.cache)
        with tempfile.TemporaryDirectory() as tmp:
            lists = []
            for i, model in enumerate((self.teacher, other)):
                lists.append(os.path.join(tmp, f"{i}.nbest"))
                with open(lists[-1], "w", encoding="utf-8") as f:
                    subprocess.run([os.environ["ATTEND_BIN"], "translate", "--model", model, "--beam", "5", "--nbest",
                                    "5"], input="\n".join(self.sources) + "\n", stdout=f, text=True, timeout=120,
                                   check=True)
            consensus = subprocess.run([os.environ["ATTEND_BIN"], "mbr", *lists], capture_output=True, text=True,
                                       timeout=60, check=True).stdout
        self.assertEqual(got, consensus.split("\n")[:-1])
        self.assertNotEqual(got, distill.teacher_translations([self.teacher], self.sources, self.cache + ".alone"))
        with open(self.cache + ".key", encoding="utf-8") as f:
            key = f.read()
        self.assertIn(" mbr sources ", key)
        self.assertNotEqual(key.strip(), distill.cache_key([self.teacher], self.sources, 5))

    def test_every_search_option_is_given_and_named_in_the_key(self):
        """The CLI's defaults could change under a recorded training command: the teacher's search is
        spelled out (seen by a wrapper that logs its arguments) and the key names all of it."""
        log = os.path.join(self.tmp.name, "argv")
        wrapper = os.path.join(self.tmp.name, "attend")
        with open(wrapper, "w", encoding="utf-8") as f:
            f.write(f'#!/bin/sh\necho "$@" >> {log}\nexec {os.environ["ATTEND_BIN"]} "$@"\n')
        os.chmod(wrapper, 0o755)
        with mock.patch.dict(os.environ, ATTEND_CLI=wrapper):
            distill.teacher_translations([self.teacher], self.sources, self.cache)
        with open(log, encoding="utf-8") as f:
            argv = f.read()
        self.assertIn("--beam 5 --alpha 1 --max-len 256 --max-len-ratio 3 --max-repeats 4 ", argv)
        with open(self.cache + ".key", encoding="utf-8") as f:
            self.assertTrue(f.read().strip().endswith("beam 5 --alpha 1 --max-len 256 --max-len-ratio 3 --max-repeats 4"))

    def test_a_cache_with_too_few_translations_is_not_read(self):
        distill.teacher_translations([self.teacher], self.sources, self.cache)
        with open(self.cache, encoding="utf-8") as f:
            lines = f.readlines()
        with open(self.cache, "w", encoding="utf-8") as f:
            f.writelines(lines[:-1])
        with mock.patch.dict(os.environ, ATTEND_CLI="/nonexistent/attend"):
            with self.assertRaisesRegex(FileNotFoundError, "/nonexistent/attend is missing"):
                distill.teacher_translations([self.teacher], self.sources, self.cache)

    def test_translations_stopped_before_their_key_is_written_are_not_taken_for_the_old_ones(self):
        """Another teacher's translations replace the cache, then the run dies before writing their key:
        the old key must not be left naming them."""
        distill.teacher_translations([self.teacher], self.sources, self.cache)
        other = os.path.join(REPO, "models/de-en/model.int8.safetensors")
        write = distill.write_atomically

        def die_at_the_key(path, text):
            if path.endswith(".key"):
                raise KeyboardInterrupt
            write(path, text)
        with mock.patch.object(distill, "write_atomically", die_at_the_key):
            with self.assertRaises(KeyboardInterrupt):
                distill.teacher_translations([other], self.sources, self.cache)
        key = distill.cache_key([self.teacher], self.sources, 5)
        self.assertIsNone(distill.read_cache(self.cache, key, len(self.sources)))

    def test_distinct_translations_are_the_first_differing_texts_of_the_nbest_list(self):
        """--back-translate-nbest: per line, the first `count` non-empty texts of the beam-5 5-best list
        that differ from those before, best first (a CLI stand-in prints a list with a repeated text, an
        empty one and one holding the separator); kept for a resumed run, not read for another count."""
        nbest = ["0 ||| A dog runs. ||| -1.0", "0 ||| A dog runs. ||| -1.2", "0 |||  ||| -1.5",
                 "0 ||| A dog ||| runs. ||| -1.7", "0 ||| The dog runs. ||| -2.0", "1 ||| Two cats. ||| -0.5"]
        stand_in = os.path.join(self.tmp.name, "attend")
        with open(stand_in, "w", encoding="utf-8") as f:
            f.write("#!/bin/sh\ncat > /dev/null\nprintf '%s\\n' " + " ".join(f"'{line}'" for line in nbest) + "\n")
        os.chmod(stand_in, 0o755)
        sources = self.sources[:2]
        with mock.patch.dict(os.environ, ATTEND_CLI=stand_in):
            got = distill.distinct_translations(self.teacher, sources, self.cache, 3)
        self.assertEqual(got, [["A dog runs.", "A dog ||| runs.", "The dog runs."], ["Two cats."]])
        with mock.patch.dict(os.environ, ATTEND_CLI="/nonexistent/attend"):
            self.assertEqual(distill.distinct_translations(self.teacher, sources, self.cache, 3), got)
            with self.assertRaisesRegex(FileNotFoundError, "/nonexistent/attend is missing"):
                distill.distinct_translations(self.teacher, sources, self.cache, 2)
        with self.assertRaisesRegex(ValueError, "from 1 to the beam size \\(5\\), got 6"):
            distill.distinct_translations(self.teacher, sources, self.cache, 6)

    def test_one_distinct_translation_is_the_teachers_translation(self):
        got = distill.distinct_translations(self.teacher, self.sources, self.cache, 1)
        with mock.patch.dict(os.environ, ATTEND_CLI="/nonexistent/attend"):  # the same cache
            self.assertEqual(got, [[text] for text in distill.teacher_translations([self.teacher], self.sources,
                                                                                   self.cache)])

    def test_rerank_choice_weighs_the_teachers_and_the_reverse_model(self):
        """Line 0 has candidates 0 and 1, line 1 candidate 2, line 2 none. Each log p is divided by
        (5 + tokens) / 6: 2 for 7 tokens, 3 for 13. Candidate 0: teachers -1 and -1 (mean -1), reverse -3;
        candidate 1: teachers -2 and -1 (mean -1.5), reverse -1. Weight 0 prefers 0, weight 1 prefers 1
        (-4 against -2.5), weight 0.25 ties them at -1.75: the first wins."""
        line_of = [0, 0, 1]
        teachers = [[(-2.0, 7), (-6.0, 13), (-1.0, 1)], [(-2.0, 7), (-3.0, 13), (-1.0, 1)]]
        reverse = [(-9.0, 13), (-2.0, 7), (-5.0, 1)]
        for weight, first_line in ((0.0, 0), (1.0, 1), (0.25, 0)):
            self.assertEqual(distill.rerank_choice(line_of, teachers, reverse, weight, 3), [first_line, 2, None], weight)

    def test_reranked_teachers_pick_by_attend_score(self):
        """With a reverse model, each line's translation is the candidate of the teachers' n-best lists with
        the best mean length-normalized `attend score` plus weight x the reverse model's. With one teacher
        and weight 0 that is the teacher's own beam-5 best: the scores are the same numbers."""
        reverse = os.path.join(REPO, "models/de-en/model.int8.safetensors")
        alone = distill.teacher_translations([self.teacher], self.sources, self.cache + ".alone")
        self.assertEqual(distill.teacher_translations([self.teacher], self.sources, self.cache, rerank_with=reverse,
                                                      rerank_weight=0.0), alone)
        got = distill.teacher_translations([self.teacher], self.sources, self.cache + ".reranked", rerank_with=reverse,
                                           rerank_weight=2.0)
        with open(self.cache + ".reranked.key", encoding="utf-8") as f:
            self.assertIn(f" reranked with {distill.file_sha256(reverse)} weight 2.0 sources ", f.read())
        nbest = subprocess.run([os.environ["ATTEND_BIN"], "translate", "--model", self.teacher, "--beam", "5", "--nbest",
                                "5"], input="\n".join(self.sources) + "\n", capture_output=True, text=True, timeout=120,
                               check=True).stdout
        candidates = distill.distinct_candidates(nbest, len(self.sources), 5)
        with tempfile.TemporaryDirectory() as tmp:
            def score(model, sources, targets):
                paths = [os.path.join(tmp, name) for name in ("src", "tgt")]
                for path, lines in zip(paths, (sources, targets)):
                    with open(path, "w", encoding="utf-8") as f:
                        f.write("".join(line + "\n" for line in lines))
                out = subprocess.run([os.environ["ATTEND_BIN"], "score", "--model", model, "--src", paths[0], "--tgt",
                                      paths[1]], capture_output=True, text=True, timeout=120, check=True).stdout
                return [float(lp) / ((5 + int(tokens)) / 6) for lp, tokens in (row.split("\t") for row in out.splitlines())]
            for source, texts, chosen in zip(self.sources, candidates, got):
                forward = score(self.teacher, [source] * len(texts), texts)
                backward = score(reverse, texts, [source] * len(texts))
                totals = [f + 2.0 * b for f, b in zip(forward, backward)]
                self.assertEqual(chosen, texts[totals.index(max(totals))], source)
        self.assertNotEqual(got, alone)  # the reverse model changed some choice (guards the comparison)

    def test_a_damaged_teacher_is_an_error_and_writes_nothing(self):
        damaged = os.path.join(self.tmp.name, "damaged.safetensors")
        with open(self.teacher, "rb") as f, open(damaged, "wb") as g:
            g.write(f.read()[:5000])
        with self.assertRaisesRegex(RuntimeError, "the teacher .*damaged.safetensors failed"):
            distill.teacher_translations([damaged], self.sources, self.cache)
        self.assertFalse(os.path.exists(self.cache))


class TrainEndToEnd(unittest.TestCase):
    """train.py on 300 Multi30k pairs with a very small model: trains, resumes, averages, exports."""

    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.data = os.path.join(self.tmp.name, "data")
        os.makedirs(self.data)
        for split in ("train", "val"):
            for lang in ("en", "de"):
                lines = multi30k_lines(split, lang, 300 if split == "train" else 40)
                with gzip.open(os.path.join(self.data, f"{split}.{lang}.gz"), "wt", encoding="utf-8") as f:
                    f.writelines(lines)
        self.out = os.path.join(self.tmp.name, "run")

    def tearDown(self):
        self.tmp.cleanup()

    def command(self, max_steps, workers=1, extra=()):
        return [sys.executable, os.path.join(REPO, "training/train.py"), "--pair", "en-de", "--data-dir", self.data,
               "--out", self.out, "--vocab-size", "300", "--d-model", "16", "--heads", "2", "--d-ff", "32",
               "--layers", "1", "--max-tokens", "600", "--warmup", "4", "--checkpoint-every", "3",
               "--average-last", "2", "--threads", "1", "--max-steps", str(max_steps), "--workers", str(workers), *extra]

    def train(self, max_steps, workers=1, expect_success=True, extra=()):
        run = subprocess.run(self.command(max_steps, workers, extra), capture_output=True, text=True, timeout=300)
        self.assertEqual(run.returncode == 0, expect_success, run.stderr)
        return run.stderr

    def starting_model(self, next_out, extra=()):
        """A 6-step run's int8 model, moved out of --out (to tmp/start.int8.safetensors), --out becoming
        tmp/next_out for the run that starts from it."""
        self.train(6, extra=extra)
        start = os.path.join(self.tmp.name, "start.int8.safetensors")
        os.rename(os.path.join(self.out, "model.int8.safetensors"), start)
        self.out = os.path.join(self.tmp.name, next_out)
        return start

    def test_train_resume_export(self):
        self.train_resume_export(workers=1)

    def test_two_workers_train_resume_export(self):
        self.train_resume_export(workers=2)
        refused = self.train(9, workers=1, expect_success=False, extra=("--schedule", "inverse-sqrt"))
        self.assertIn("holds a run started with other options (--workers 2)", refused)

    def test_resuming_with_another_recipe_is_refused_and_changes_nothing(self):
        self.train(6)
        before = sorted(os.listdir(self.out))
        refused = self.train(6, expect_success=False, extra=("--dropout", "0.3", "--lr", "1e-3"))
        self.assertIn("holds a run started with other options (--dropout 0.1, --lr 0.0015); "
                      "resume it with those, or use another --out", refused)
        # The cosine decay ended at step 6: going on would restart it from mid-height.
        self.assertIn("holds a run started with other options (--max-steps 6)", self.train(9, expect_success=False))
        self.assertEqual(sorted(os.listdir(self.out)), before)
        # A run older than an option ran with its default: resumed with another value, it is refused.
        config_path = os.path.join(self.out, "config.json")
        with open(config_path, encoding="utf-8") as f:
            config = json.load(f)
        del config["train"]["init_from"]
        with open(config_path, "w", encoding="utf-8") as f:
            json.dump(config, f)
        other_model = os.path.join(REPO, "models/en-de/model.int8.safetensors")
        self.assertIn("holds a run started with other options (--init-from None)",
                      self.train(6, expect_success=False, extra=("--init-from", other_model)))
        self.assertEqual(sorted(os.listdir(self.out)), before)
        self.assertIn("at step 6", self.train(6, extra=("--threads", "2", "--time-budget-min", "30")))

    def test_a_stop_between_checkpoints_is_not_averaged_once_the_run_goes_on(self):
        """--checkpoint-every 3: a --time-budget-min stop at step 7 saves checkpoint_7 to resume from; the
        run's next checkpoint (9) replaces it, so the average is of 6 and 9, as without the stop."""
        args = argparse.Namespace(out=self.out, checkpoint_every=3, average_last=2)
        os.makedirs(self.out)
        model = tiny_model()
        optimizer = torch.optim.Adam(model.parameters())
        saved = lambda: [train.checkpoint_step(path) for path in train.checkpoints(self.out)]
        for step, kept in ((3, [3]), (6, [3, 6]), (7, [6, 7]), (9, [6, 9])):
            train.save_checkpoint(args, model, optimizer, step, 0, 0, torch.get_rng_state())
            self.assertEqual(saved(), kept, f"after step {step}")

        def killed_while_writing(state, path):
            with open(path, "wb") as f:
                f.write(b"half a checkpoint")
            raise KeyboardInterrupt
        with mock.patch.object(torch, "save", killed_while_writing), self.assertRaises(KeyboardInterrupt):
            train.save_checkpoint(args, model, optimizer, 12, 0, 0, torch.get_rng_state())
        self.assertEqual(saved(), [6, 9], "a checkpoint killed while saving must not become the newest")

    def test_subword_sampling_train_resume_export(self):
        self.train_resume_export(workers=2, extra=("--subword-alpha", "0.3"))

    def test_distilled_student_trains_on_both_targets(self):
        """A student of a teacher trained here: its training pairs are the 300 pairs plus the teacher's
        300 translations of their source."""
        self.train(6)
        teacher = os.path.join(self.tmp.name, "teacher.int8.safetensors")
        os.rename(os.path.join(self.out, "model.int8.safetensors"), teacher)
        refused = self.train(6, expect_success=False, extra=("--distill-from", teacher))  # the teacher's own run
        self.assertIn("holds a run started with other options (--distill-from None)", refused)
        self.out = os.path.join(self.tmp.name, "student")
        log = self.train(6, extra=("--distill-from", teacher))
        self.assertIn("en-de: 600 pairs", log)
        with gzip.open(os.path.join(self.data, "train.en.gz"), "rt", encoding="utf-8") as f:
            sources = f.read()
        beam_5 = subprocess.run([os.environ["ATTEND_BIN"], "translate", "--model", teacher, "--beam", "5"],
                                input=sources, capture_output=True, text=True, timeout=120, check=True).stdout
        with open(os.path.join(self.out, "train.distilled.de"), encoding="utf-8") as f:
            self.assertEqual(f.read(), beam_5)
        self.assertEqual(len(beam_5.split("\n")[:-1]), 300)
        with open(os.path.join(self.out, "model.int8.safetensors"), "rb") as f, open(teacher, "wb") as g:
            g.write(f.read())  # another teacher behind the same path
        refused = self.train(6, expect_success=False, extra=("--distill-from", teacher))
        self.assertIn(f"holds a run trained on other contents of {teacher} (the file changed since)", refused)

    def test_added_pairs_are_the_teachers_translations_beside_the_references(self):
        """With both options the training text is the 300 reference pairs, then (source, the en-de teacher's
        translation), then (the de-en model's translation of the target, target), each beam 5."""
        teacher, reverse = (os.path.join(REPO, f"models/{pair}/model.int8.safetensors") for pair in ("en-de", "de-en"))
        args = train.parse_args(self.command(6, extra=("--distill-from", teacher, "--back-translate-from", reverse))[2:])
        _, (sources, targets), pairs, _ = train.prepare_data(args, "en", "de")
        read = lambda lang: [line.rstrip("\n") for line in multi30k_lines("train", lang, 300)]
        english, german = read("en"), read("de")
        beam_5 = lambda model, lines: subprocess.run(
            [os.environ["ATTEND_BIN"], "translate", "--model", model, "--beam", "5"], input="\n".join(lines) + "\n",
            capture_output=True, text=True, timeout=120, check=True).stdout.split("\n")[:-1]
        self.assertEqual(sources, english + english + beam_5(reverse, german))
        self.assertEqual(targets, german + beam_5(teacher, english) + german)
        self.assertEqual(len(pairs), 900)
        self.assertTrue(os.path.exists(os.path.join(self.out, "train.back-translated.en")))

    def test_pivot_translations_are_new_sources_of_the_targets(self):
        """--pivot-from: the training set's third language (French for en-de) translated into the source by a
        fr-en model, each translation paired with the German target of its line, after the references."""
        with gzip.open(os.path.join(self.data, "train.fr.gz"), "wt", encoding="utf-8") as f:
            f.writelines(multi30k_lines("train", "fr", 300))
        pivot = os.path.join(REPO, "models/fr-en/model.int8.safetensors")
        args = train.parse_args(self.command(6, extra=("--pivot-from", pivot, "--pivot-lang", "fr"))[2:])
        _, (sources, targets), pairs, _ = train.prepare_data(args, "en", "de")
        read = lambda lang: [line.rstrip("\n") for line in multi30k_lines("train", lang, 300)]
        english, german, french = read("en"), read("de"), read("fr")
        beam_5 = subprocess.run([os.environ["ATTEND_BIN"], "translate", "--model", pivot, "--beam", "5"],
                                input="\n".join(french) + "\n", capture_output=True, text=True, timeout=120,
                                check=True).stdout.split("\n")[:-1]
        self.assertEqual(sources, english + beam_5)
        self.assertEqual(targets, german + german)
        self.assertNotEqual(beam_5, english)  # new wordings, not the sources again
        self.assertEqual(len(pairs), 600)
        with open(os.path.join(self.out, "train.pivot-translated.en"), encoding="utf-8") as f:
            self.assertEqual(f.read(), "\n".join(beam_5) + "\n")
        for wrong, message in ((("--pivot-from", pivot), "--pivot-from and --pivot-lang go together"),
                               (("--pivot-lang", "fr"), "--pivot-from and --pivot-lang go together"),
                               (("--pivot-from", pivot, "--pivot-lang", "de"),
                                "--pivot-lang must be a third language, not one of the pair's (en-de), got de")):
            run = subprocess.run(self.command(3, extra=wrong), capture_output=True, text=True, timeout=120)
            self.assertEqual(run.returncode, 2, wrong)
            self.assertIn(message, run.stderr)

    def assert_same_weights(self, tensors, expected):
        """The same tensor names, and every weight within 1e-6 of the expected one (tokenizers aside)."""
        self.assertEqual(sorted(tensors), sorted(expected))
        for name, array in expected.items():
            if not name.startswith("tokenizer."):
                self.assertTrue(torch.allclose(torch.from_numpy(tensors[name].copy()),
                                               torch.from_numpy(array.copy()), atol=1e-6), name)

    def test_fine_tuning_starts_from_the_model_files_weights_and_vocabulary(self):
        """--init-from: at a learning rate too small to move anything the fine-tuned model is its starting
        model (int8 weights dequantized), with the same tokenizer; the starting model's validation loss is
        the fine-tuning run's; another architecture is refused."""
        start = self.starting_model("fine-tuned")
        refused = self.train(3, expect_success=False, extra=("--init-from", start, "--d-ff", "64"))
        self.assertIn("is not what the options ask for: --d-ff 64 (the model's: 32)", refused)
        log = self.train(3, extra=("--init-from", start, "--lr", "1e-30"))
        start_tensors, _ = export.read_safetensors(start)
        tuned_tensors, _ = export.read_safetensors(os.path.join(self.out, "model.f32.safetensors"))
        self.assertEqual(tuned_tensors["tokenizer.src"].tobytes(), start_tensors["tokenizer.src"].tobytes())
        self.assert_same_weights(tuned_tensors, export.dequantized(start_tensors))
        start_model, _ = export.load_model(start)
        val = data.make_batches(train.encode_pairs(
            (os.path.join(self.out, "spm.ende.model"),) * 2,
            ([line.rstrip("\n") for line in multi30k_lines("val", lang, 40)] for lang in ("en", "de"))), 4000, seed=0)
        self.assertIn(f"val loss {train.validation_loss(start_model, val):.3f}", log)

    def test_a_new_model_over_another_models_vocabulary(self):
        """--vocab-from: a model of another shape, from random weights, over the given model's tokenizer
        (so the two can decode as an ensemble); another vocabulary size, or --init-from beside it, is refused."""
        start = self.starting_model("new")
        refused = self.train(3, expect_success=False, extra=("--vocab-from", start, "--vocab-size", "200"))
        self.assertIn("is not what the options ask for: --vocab-size 200 (the model's: 300)", refused)
        refused = self.train(3, expect_success=False, extra=("--vocab-from", start, "--init-from", start))
        self.assertIn("--vocab-from and --init-from exclude each other", refused)
        self.train(3, extra=("--vocab-from", start, "--d-ff", "64", "--seed", "7"))
        start_tensors, _ = export.read_safetensors(start)
        new_tensors, _ = export.read_safetensors(os.path.join(self.out, "model.f32.safetensors"))
        self.assertEqual(new_tensors["tokenizer.src"].tobytes(), start_tensors["tokenizer.src"].tobytes())
        self.assertEqual(read_file_bytes(os.path.join(self.out, "spm.ende.model")), start_tensors["tokenizer.src"].tobytes())
        with open(os.path.join(self.out, "config.json")) as f:
            self.assertEqual(json.load(f)["model"]["d_ff"], 64)

    def test_a_model_with_more_encoder_than_decoder_layers(self):
        """--encoder-layers / --decoder-layers set each stack's depth apart (--layers both); fine-tuning
        such a model asks for both depths."""
        start = self.starting_model("fine-tuned", extra=("--encoder-layers", "2"))
        start_tensors, metadata = export.read_safetensors(start)
        config = json.loads(metadata["attend.config"])
        self.assertEqual((config["encoder_layers"], config["decoder_layers"]), (2, 1))
        self.assertIn("encoder.layers.1.ffn.fc1.bias", start_tensors)
        self.assertNotIn("decoder.layers.1.ffn.fc1.bias", start_tensors)
        self.assertIn("--decoder-layers must be at least 1, got 0",
                      self.train(3, expect_success=False, extra=("--decoder-layers", "0")))
        refused = self.train(3, expect_success=False, extra=("--init-from", start))
        self.assertIn("is not what the options ask for: --encoder-layers 1 (the model's: 2)", refused)
        refused = self.train(3, expect_success=False, extra=("--init-from", start, "--layers", "2"))
        self.assertIn("is not what the options ask for: --decoder-layers 2 (the model's: 1)", refused)
        self.train(3, extra=("--init-from", start, "--encoder-layers", "2", "--lr", "1e-30"))
        tuned_tensors, _ = export.read_safetensors(os.path.join(self.out, "model.f32.safetensors"))
        self.assert_same_weights(tuned_tensors, export.dequantized(start_tensors))

    def test_fine_tuning_a_model_with_separate_vocabularies_keeps_both(self):
        """--init-from a --separate-vocab model: refused as a joint run; with --separate-vocab, the source and
        target tokenizers are the model's own (written to --out as spm.en / spm.de) and, at a learning rate
        too small to move anything, so are the weights."""
        start = self.starting_model("fine-tuned", extra=("--separate-vocab",))
        refused = self.train(3, expect_success=False, extra=("--init-from", start))
        self.assertIn("one joint vocabulary (the model has separate vocabularies)", refused)
        self.train(3, extra=("--init-from", start, "--separate-vocab", "--lr", "1e-30"))
        start_tensors, _ = export.read_safetensors(start)
        tuned_tensors, _ = export.read_safetensors(os.path.join(self.out, "model.f32.safetensors"))
        self.assertNotEqual(start_tensors["tokenizer.src"].tobytes(), start_tensors["tokenizer.tgt"].tobytes())
        for side, lang in (("src", "en"), ("tgt", "de")):
            self.assertEqual(tuned_tensors[f"tokenizer.{side}"].tobytes(), start_tensors[f"tokenizer.{side}"].tobytes())
            self.assertEqual(read_file_bytes(os.path.join(self.out, f"spm.{lang}.model")),
                             start_tensors[f"tokenizer.{side}"].tobytes())
        self.assert_same_weights(tuned_tensors, export.dequantized(start_tensors))

    def test_a_fine_tuning_run_resumes_from_its_checkpoint_and_refuses_another_starting_model(self):
        start = self.starting_model("fine-tuned")
        extra = ("--init-from", start, "--schedule", "inverse-sqrt")
        self.assertIn("trained 6 steps", self.train(6, extra=extra))
        resumed = self.train(9, extra=extra)
        self.assertIn(f"resumed from {os.path.join(self.out, 'checkpoint_6.pt')} at step 6", resumed)
        self.assertIn("trained 9 steps", resumed)
        resumed_model = read_file_bytes(os.path.join(self.out, "model.f32.safetensors"))
        self.out = os.path.join(self.tmp.name, "uninterrupted")
        self.train(9, extra=extra)
        self.assertTrue(read_file_bytes(os.path.join(self.out, "model.f32.safetensors")) == resumed_model,
                        "6 steps and a resume to 9 must train what 9 steps in one go do")
        with open(os.path.join(self.out, "model.int8.safetensors"), "rb") as f, open(start, "wb") as g:
            g.write(f.read())  # another starting model behind the same path
        refused = self.train(12, expect_success=False, extra=extra)
        self.assertIn(f"holds a run trained on other contents of {start} (the file changed since)", refused)

    def test_back_translate_nbest_pairs_each_distinct_back_translation_with_its_target(self):
        reverse = os.path.join(REPO, "models/de-en/model.int8.safetensors")
        args = train.parse_args(self.command(6, extra=("--back-translate-from", reverse, "--back-translate-nbest", "2"))[2:])
        _, (sources, targets), pairs, _ = train.prepare_data(args, "en", "de")
        german = [line.rstrip("\n") for line in multi30k_lines("train", "de", 300)]
        english = [line.rstrip("\n") for line in multi30k_lines("train", "en", 300)]
        with open(os.path.join(self.out, "train.back-translated.en"), encoding="utf-8") as f:
            back = [json.loads(line) for line in f]
        self.assertEqual(len(back), 300)
        self.assertTrue(all(1 <= len(texts) <= 2 for texts in back))
        self.assertGreater(sum(len(texts) == 2 for texts in back), 250)  # few 5-best lists read the same five times
        self.assertEqual(sources, english + [text for texts in back for text in texts])
        self.assertEqual(targets, german + [target for target, texts in zip(german, back) for _ in texts])
        self.assertEqual(len(pairs), len(sources))
        for wrong, message in ((("--back-translate-nbest", "2"), "--back-translate-nbest needs --back-translate-from"),
                               (("--back-translate-from", reverse, "--back-translate-nbest", "6"),
                                "--back-translate-nbest must be from 1 to 5 (the beam), got 6"),
                               (("--distill-rerank-with", reverse), "--distill-rerank-with needs --distill-from"),
                               (("--distill-from", reverse, "--distill-rerank-weight", "-1"),
                                "--distill-rerank-weight must be a finite number >= 0, got -1.0"),
                               (("--subword-alpha", "0.1", "--subword-nbest", "0"),
                                "--subword-nbest must be a count of segmentations or -1 (all of them), got 0")):
            refused = subprocess.run(self.command(6, extra=wrong), capture_output=True, text=True, timeout=120)
            self.assertEqual(refused.returncode, 2)
            self.assertIn(message, refused.stderr)

    def test_train_sh_scores_on_the_data_it_trained_on(self):
        """scripts/train.sh --data-dir DIR trains on DIR and scores on DIR's val and test_2016_flickr; the
        test set here is the first 40 training pairs, which the shared data's test set is not."""
        for lang in ("en", "de"):
            with gzip.open(os.path.join(self.data, f"test_2016_flickr.{lang}.gz"), "wt", encoding="utf-8") as f:
                f.writelines(multi30k_lines("train", lang, 40))
        options = self.command(3)[2:]
        options = options[options.index("--data-dir"):]  # train.sh adds --pair
        env = {k: v for k, v in os.environ.items() if k != "ATTEND_DATA"}
        run = subprocess.run([os.path.join(REPO, "scripts/train.sh"), "en-de", *options], capture_output=True,
                             text=True, timeout=300, env=env)
        self.assertEqual(run.returncode, 0, run.stderr)
        rows = [line for line in run.stdout.splitlines() if line.startswith("| int8 | test_2016_flickr | 1 |")]
        self.assertEqual(len(rows), 1, run.stdout)
        hypotheses = subprocess.run(
            [os.environ["ATTEND_BIN"], "translate", "--model", os.path.join(self.out, "model.int8.safetensors")],
            input="".join(multi30k_lines("train", "en", 40)), capture_output=True, text=True, timeout=120, check=True)
        with tempfile.NamedTemporaryFile("w", suffix=".txt") as hyp:
            hyp.write(hypotheses.stdout)
            hyp.flush()
            score = subprocess.run([os.environ["ATTEND_BIN"], "eval", "--hyp", hyp.name, "--ref",
                                    os.path.join(self.data, "test_2016_flickr.de.gz")],
                                   capture_output=True, text=True, timeout=60, check=True).stdout
        chrf = re.search(r"^chrF[^=]*= ([0-9.]+)", score, re.M).group(1)  # nonzero even for a 3-step model
        self.assertGreater(float(chrf), 0)
        self.assertEqual(rows[0].split("|")[6].strip(), chrf)

    def test_killing_train_py_ends_its_workers(self):
        """Started the way a shell starts `nohup scripts/train.sh ... &`: SIGINT ignored, which also
        disarms the SIGINT torch's spawn sends workers whose parent ended. Output to a file, as in a
        real run (a pipe would break when the parent ends, and end them for another reason)."""
        log_path = os.path.join(self.tmp.name, "train.log")
        with open(log_path, "w") as log:
            parent = subprocess.Popen(self.command(10**6, workers=2), stdout=subprocess.DEVNULL, stderr=log,
                                      preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_IGN))
        try:
            deadline = time.time() + 120
            while time.time() < deadline and "\nstep " not in read_text(log_path):  # both workers training
                time.sleep(0.1)
            workers = spawned_children(parent.pid)
            self.assertEqual(len(workers), 2)
        finally:
            parent.terminate()
            parent.wait(timeout=60)
        deadline = time.time() + 30
        while time.time() < deadline and any(map(is_running, workers)):
            time.sleep(0.1)
        self.assertFalse(any(map(is_running, workers)), "workers still training after train.py was killed")

    def train_resume_export(self, workers, extra=()):
        """Trains 6 steps, then resumes to 9 (extending a run needs a schedule without an end)."""
        extra = ("--schedule", "inverse-sqrt", *extra)
        first = self.train(6, workers, extra=extra)
        self.assertIn(f"{workers} worker(s)", first)
        self.assertIn("trained 6 steps", first)
        second = self.train(9, workers, extra=extra)
        self.assertIn("resumed from", second)
        self.assertIn("at step 6", second)
        self.assertIn("trained 9 steps", second)
        self.assertIn("averaged 2 checkpoints", second)
        for dtype in ("f32", "int8"):
            model = os.path.join(self.out, f"model.{dtype}.safetensors")
            inspect = subprocess.run([os.environ["ATTEND_BIN"], "inspect", model], capture_output=True, text=True,
                                     timeout=60)
            self.assertEqual(inspect.returncode, 0, inspect.stderr)
            self.assertIn("d_model 16, heads 2, d_ff 32", inspect.stdout)
            self.assertIn("weights      " + dtype, inspect.stdout)
            self.assertIn("languages    en -> de", inspect.stdout)  # --pair
            translate = subprocess.run([os.environ["ATTEND_BIN"], "translate", "--model", model, "A dog runs."],
                                       capture_output=True, text=True, timeout=60)
            self.assertEqual(translate.returncode, 0, translate.stderr)


if __name__ == "__main__":
    unittest.main()
