"""Sequence-level knowledge distillation (Kim & Rush, 2016): a trained model's beam-search
translations of the training source become extra training targets for the next model. The same
decoding back-translates: a reverse model's translations of the training targets become extra
sources of those targets (train.py --back-translate-from), or its n best distinct translations
(--back-translate-nbest), each a source of the target.

Several teachers make one translation per sentence by consensus: each writes its beam-5 n-best
list, and `attend mbr` picks the hypothesis with the highest total sentence BLEU against all of
them (minimum Bayes risk), so what the teachers agree on is what the student learns.

The teacher is an Attend model file decoded by the `attend` CLI (the C++ engine, 7.6x PyTorch's
beam search in docs/benchmarks.md: 29,000 Multi30k sentences at beam 5 take about 90 seconds on 2
threads). The translations are kept in the run directory with a key (each teacher file's and
the sources' SHA-256, the search options), so a resumed run reuses them and any other run makes its
own. Every search option is given to the CLI explicitly, so a change of its defaults cannot change
what a recorded training command produces."""
import hashlib
import json
import os
import subprocess
import tempfile

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
DEFAULT_CLI = os.path.join(REPO, "build", "release", "native", "cli", "attend")
SEARCH_OPTIONS = ("--alpha", "1", "--max-len", "256", "--max-len-ratio", "3")  # besides --beam
TEACHER_BEAM = 5


def teacher_translations(model_paths, sources, cache_path, beam=TEACHER_BEAM, threads=os.cpu_count(), batch=32):
    """The teachers' translation of every line of `sources` (one per line, in order): one teacher's
    best, or several teachers' consensus; read from cache_path when it was written for these
    teacher files, these sources and this beam."""
    key = cache_key(model_paths, sources, beam)
    cached = read_cache(cache_path, key, len(sources))
    if cached is not None:
        return cached
    cli, translate, text = translate_command(sources, beam, threads, batch)
    if len(model_paths) == 1:
        output = run_cli(translate + ["--model", model_paths[0]], text, f"the teacher {model_paths[0]}")
    else:
        with tempfile.TemporaryDirectory() as tmp:
            lists = [os.path.join(tmp, f"{i}.nbest") for i in range(len(model_paths))]
            for model_path, nbest_path in zip(model_paths, lists):
                nbest = run_cli(translate + ["--model", model_path, "--nbest", str(beam)], text,
                                f"the teacher {model_path}")
                with open(nbest_path, "w", encoding="utf-8") as f:
                    f.write(nbest)
            output = run_cli([cli, "mbr", *lists], "", "attend mbr")
    translations = output.split("\n")[:-1]
    if len(translations) != len(sources):
        raise RuntimeError(f"the teachers gave {len(translations)} translations for {len(sources)} lines")
    write_cache(cache_path, key, translations)
    return translations


def distinct_translations(model_path, sources, cache_path, count, beam=TEACHER_BEAM, threads=os.cpu_count(), batch=32):
    """Up to `count` distinct translations of every line of `sources` (a list per line, best first):
    the first non-empty texts of one model's beam-`beam` n-best list that differ from those before
    (two token sequences can read the same). Cached as teacher_translations: with count 1, as its
    translations; else one JSON list per line."""
    if not 1 <= count <= beam:
        raise ValueError(f"the number of translations per line must be from 1 to the beam size ({beam}), got {count}")
    if count == 1:
        return [[best] for best in teacher_translations([model_path], sources, cache_path, beam, threads, batch)]
    key = f"{cache_key([model_path], sources, beam)} distinct {count}"
    cached = read_cache(cache_path, key, len(sources))
    if cached is not None:
        return [json.loads(line) for line in cached]
    _, translate, text = translate_command(sources, beam, threads, batch)
    nbest = run_cli(translate + ["--model", model_path, "--nbest", str(beam)], text, f"the model {model_path}")
    lists = [[] for _ in sources]
    for line in nbest.split("\n")[:-1]:
        index, rest = line.split(" ||| ", 1)
        translation = rest.rsplit(" ||| ", 1)[0]  # the text may hold the separator; the score cannot
        chosen = lists[int(index)]
        if translation and len(chosen) < count and translation not in chosen:
            chosen.append(translation)
    write_cache(cache_path, key, [json.dumps(chosen, ensure_ascii=False) for chosen in lists])
    return lists


def translate_command(sources, beam, threads, batch):
    """(the CLI, its translate command without --model, its input) for translating `sources`."""
    cli = os.environ.get("ATTEND_CLI", DEFAULT_CLI)
    if not os.access(cli, os.X_OK):
        raise FileNotFoundError(f"{cli} is missing: build it (cmake --preset release && cmake --build --preset release) "
                                "or point ATTEND_CLI at it")
    if any(not line.strip() for line in sources):
        raise ValueError("a training source line is empty; the teacher would give it no translation")
    command = [cli, "translate", "--beam", str(beam), *SEARCH_OPTIONS, "--threads", str(threads), "--batch", str(batch)]
    return cli, command, "\n".join(sources) + "\n"


def write_cache(cache_path, key, lines):
    remove_if_present(cache_path + ".key")  # until the new key is written, no key names these lines
    write_atomically(cache_path, "\n".join(lines) + "\n")
    write_atomically(cache_path + ".key", key + "\n")


def run_cli(command, stdin_text, who):
    """The CLI's stdout; a failure raises RuntimeError naming `who` with the CLI's message."""
    result = subprocess.run(command, input=stdin_text, capture_output=True, encoding="utf-8")
    if result.returncode != 0:
        raise RuntimeError(f"{who} failed: {result.stderr.strip()}")
    return result.stdout


def cache_key(model_paths, sources, beam):
    """What the translations depend on: the teacher files' bytes (and with several, that they
    were combined by MBR), the source lines, the search options."""
    teachers = [file_sha256(model_path) for model_path in model_paths]
    consensus = " mbr" if len(model_paths) > 1 else ""
    text = hashlib.sha256("\n".join(sources).encode("utf-8")).hexdigest()
    return f"teacher {' '.join(teachers)}{consensus} sources {text} beam {beam} {' '.join(SEARCH_OPTIONS)}"


def file_sha256(path):
    with open(path, "rb") as f:
        return hashlib.sha256(f.read()).hexdigest()


def read_cache(cache_path, key, count):
    """The cached translations if cache_path holds `count` of them for `key`, else None."""
    try:
        with open(cache_path + ".key", encoding="utf-8") as f:
            if f.read().strip() != key:
                return None
        with open(cache_path, encoding="utf-8") as f:
            translations = f.read().split("\n")[:-1]
    except FileNotFoundError:
        return None
    return translations if len(translations) == count else None


def remove_if_present(path):
    try:
        os.remove(path)
    except FileNotFoundError:
        pass


def write_atomically(path, text):
    with open(path + ".tmp", "w", encoding="utf-8") as f:
        f.write(text)
    os.replace(path + ".tmp", path)
