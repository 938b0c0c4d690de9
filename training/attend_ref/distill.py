"""Sequence-level knowledge distillation (Kim & Rush, 2016): a trained model's beam-search
translations of the training source become extra training targets for the next model. The same
decoding back-translates: a reverse model's translations of the training targets become extra
sources of those targets (train.py --back-translate-from), or its n best distinct translations
(--back-translate-nbest), each a source of the target.

Several teachers make one translation per sentence by consensus: each writes its beam-5 n-best
list, and `attend mbr` picks the hypothesis with the highest total sentence BLEU against all of
them (minimum Bayes risk), so what the teachers agree on is what the student learns.

Or, with a reverse model (rerank_with), by reranking: the distinct translations in the teachers'
n-best lists are scored by every teacher (`attend score`: log p(translation | source)) and by the
reverse model (log p(source | translation): does the translation say all of the source and no
more?), each log-probability divided by the beam's length penalty ((5 + tokens) / 6); the one with
the highest mean teacher score + rerank_weight x reverse score is kept. On Multi30k en-fr, three
en-fr models (the one shipped until 2026-11-27 and two fine-tunings of it) so reranked with the
fr-en model scored lowercased BLEU 60.25 on val and 61.99 on test, against 59.18 / 61.22 for the
first alone and 58.89 / 60.99 for the three models' MBR consensus; weights from 0.1 to 0.25 scored
within 0.1 of each other on val. Their student (f4395da: 59.69 / 61.61) and 1bbf1d0 so reranked
scored 60.58 / 62.20 (2026-11-27); that pool's student, trained 12,000 steps, is the en-fr model shipped since 2026-11-28 (60.28 / 62.04).

The teacher is an Attend model file decoded by the `attend` CLI (the C++ engine, 7.9x PyTorch's
beam search in docs/benchmarks.md: 29,000 Multi30k sentences at beam 5 take about 90 seconds on 2
threads). The translations are kept in the run directory with a key (each teacher file's and
the sources' SHA-256, the search options), so a resumed run reuses them and any other run makes its
own. Every search option is given to the CLI explicitly, so a change of its defaults cannot change
what a recorded training command produces."""
import hashlib
import json
import math
import os
import subprocess
import tempfile

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
DEFAULT_CLI = os.path.join(REPO, "build", "release", "native", "cli", "attend")
SEARCH_OPTIONS = ("--alpha", "1", "--max-len", "256", "--max-len-ratio", "3", "--max-repeats", "4")  # besides --beam
TEACHER_BEAM = 5
DEFAULT_RERANK_WEIGHT = 0.2


def teacher_translations(model_paths, sources, cache_path, beam=TEACHER_BEAM, threads=os.cpu_count(), batch=32,
                         rerank_with=None, rerank_weight=DEFAULT_RERANK_WEIGHT):
    """The teachers' translation of every line of `sources` (one per line, in order): one teacher's
    best, or several teachers' consensus, or with rerank_with (a reverse model file) the reranked
    best of their n-best lists; read from cache_path when it was written for these model files,
    these sources and these options."""
    key = cache_key(model_paths, sources, beam, rerank_with, rerank_weight)
    cached = read_cache(cache_path, key, len(sources))
    if cached is not None:
        return cached
    cli, translate, text = translate_command(sources, beam, threads, batch)
    if len(model_paths) == 1 and rerank_with is None:
        translations = run_cli(translate + ["--model", model_paths[0]], text, f"the teacher {model_paths[0]}").split("\n")[:-1]
    else:
        lists = [run_cli(translate + ["--model", model_path, "--nbest", str(beam)], text, f"the teacher {model_path}")
                 for model_path in model_paths]
        if rerank_with is None:
            translations = consensus(cli, lists)
        else:
            candidates = candidate_union([distinct_candidates(nbest, len(sources), beam) for nbest in lists])
            translations = reranked(cli, sources, candidates, model_paths, rerank_with, rerank_weight, threads, batch)
    if len(translations) != len(sources):
        raise RuntimeError(f"the teachers gave {len(translations)} translations for {len(sources)} lines")
    write_cache(cache_path, key, translations)
    return translations


def consensus(cli, nbest_lists):
    """`attend mbr` over the teachers' n-best lists (texts of `attend translate --nbest`): one line each."""
    with tempfile.TemporaryDirectory() as tmp:
        paths = [os.path.join(tmp, f"{i}.nbest") for i in range(len(nbest_lists))]
        for path, nbest in zip(paths, nbest_lists):
            with open(path, "w", encoding="utf-8") as f:
                f.write(nbest)
        return run_cli([cli, "mbr", *paths], "", "attend mbr").split("\n")[:-1]


def reranked(cli, sources, candidates, teachers, reverse, weight, threads, batch):
    """For each source line, the candidate (a list per line) that rerank_choice prefers, given the
    teachers' and the reverse model's `attend score`s; "" for a line without candidates."""
    pairs = [(line, text) for line, texts in enumerate(candidates) for text in texts]
    with tempfile.TemporaryDirectory() as tmp:
        src_path, cand_path = os.path.join(tmp, "sources"), os.path.join(tmp, "candidates")
        write_atomically(src_path, "".join(sources[line] + "\n" for line, _ in pairs))
        write_atomically(cand_path, "".join(text + "\n" for _, text in pairs))

        def scores(model_path, src, tgt):
            out = run_cli([cli, "score", "--model", model_path, "--src", src, "--tgt", tgt, "--threads", str(threads),
                           "--batch", str(batch)], "", f"scoring with {model_path}")
            return [(float(lp), int(tokens)) for lp, tokens in (row.split("\t") for row in out.split("\n")[:-1])]

        teacher_scores = [scores(teacher, src_path, cand_path) for teacher in teachers]
        reverse_scores = scores(reverse, cand_path, src_path)
    chosen = rerank_choice([line for line, _ in pairs], teacher_scores, reverse_scores, weight, len(sources))
    return [pairs[k][1] if k is not None else "" for k in chosen]


def rerank_choice(line_of, teacher_scores, reverse_scores, weight, lines):
    """Index (into the candidates) of each line's best candidate, None for a line without any.
    line_of[k]: candidate k's line; teacher_scores[t][k], reverse_scores[k]: (log p, tokens). A
    candidate's score is the mean over teachers of length-normalized log p + weight x the reverse
    model's; the first of equal scores wins."""
    best = [None] * lines
    best_score = [-math.inf] * lines
    for k, line in enumerate(line_of):
        forward = sum(normalized(*per_teacher[k]) for per_teacher in teacher_scores) / len(teacher_scores)
        score = forward + weight * normalized(*reverse_scores[k])
        if score > best_score[line]:
            best[line], best_score[line] = k, score
    return best


def normalized(log_prob, tokens):
    """log p divided by the beam search's length penalty at alpha 1: ((5 + tokens) / 6)."""
    return log_prob / ((5 + tokens) / 6)


def candidate_union(per_teacher):
    """per_teacher[t][line]: a list of texts -> per line, the distinct texts of all teachers, in the
    order they first appear (teacher by teacher)."""
    return [list(dict.fromkeys(text for texts in line for text in texts)) for line in zip(*per_teacher)]


def distinct_candidates(nbest, lines, count):
    """The first `count` distinct non-empty texts of each line's list in an `attend translate --nbest`
    output, best first: a list per line."""
    lists = [[] for _ in range(lines)]
    for row in nbest.split("\n")[:-1]:
        index, rest = row.split(" ||| ", 1)
        translation = rest.rsplit(" ||| ", 1)[0]  # the text may hold the separator; the score cannot
        chosen = lists[int(index)]
        if translation.strip() and len(chosen) < count and translation not in chosen:
            chosen.append(translation)
    return lists


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
    lists = distinct_candidates(nbest, len(sources), count)
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


def cache_key(model_paths, sources, beam, rerank_with=None, rerank_weight=DEFAULT_RERANK_WEIGHT):
    """What the translations depend on: the teacher files' bytes (and with several, that they
    were combined by MBR, or reranked with which reverse model and weight), the source lines, the
    search options."""
    teachers = [file_sha256(model_path) for model_path in model_paths]
    if rerank_with is not None:
        combined = f" reranked with {file_sha256(rerank_with)} weight {rerank_weight!r}"
    else:
        combined = " mbr" if len(model_paths) > 1 else ""
    text = hashlib.sha256("\n".join(sources).encode("utf-8")).hexdigest()
    return f"teacher {' '.join(teachers)}{combined} sources {text} beam {beam} {' '.join(SEARCH_OPTIONS)}"


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
