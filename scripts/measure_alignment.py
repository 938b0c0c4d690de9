#!/usr/bin/env python3
"""Which cross-attention layer and heads align a source word with its translation best.

The tagged set (tests/data/real_text/alignment.tsv) holds Multi30k val sentence triples
(English, German, French) in which one common word and its German and French translations
each occur exactly once. For every shipped model (en-de, en-fr, de-en, fr-en) this script
translates the set's source sentences with `attend translate --attention`, and for each
sentence whose translation holds the expected word exactly once, asks every decoder layer
and head (and their averages) which target word the tagged source word aligns with:

    score(target word u) = max over u's pieces t of  sum over w's pieces s of  cross[t][s]

(the rule of core/src/pipeline/alignment.cpp), argmax over u. Row t of the cross map is the
step that *produced* target piece t. It prints the share of sentences whose argmax is the
expected word, per layer/head, per layer (heads averaged) and for all layers averaged.

    scripts/measure_alignment.py --attend build/release/native/cli/attend
    scripts/measure_alignment.py --row-offset 1  # rows of the steps the pieces were fed to
    scripts/measure_alignment.py --make-set   # rebuilds the TSV from val (needs the data)
"""
import argparse
import gzip
import json
import os
import re
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SET = os.path.join(ROOT, "tests/data/real_text/alignment.tsv")
DATA = "/work/shared/data/multi30k"

# English word -> (English prefixes, German prefixes, French prefixes), all lowercase. A word
# matches when, stripped of punctuation, it starts with one of its language's prefixes ("x$": is x).
LEXICON = {
    "dog": (["dog"], ["hund"], ["chien"]),
    "red": (["red"], ["rot"], ["rouge"]),
    "woman": (["woman"], ["frau"], ["femme"]),
    "ball": (["ball"], ["ball", "bäll"], ["balle", "ballon"]),
    "water": (["water"], ["wasser"], ["eau"]),
    "street": (["street"], ["straße"], ["rue"]),
    "girl": (["girl"], ["mädchen"], ["fille"]),
    "boy": (["boy"], ["junge"], ["garçon"]),
    "blue": (["blue"], ["blau"], ["bleu"]),
    "black": (["black"], ["schwarz"], ["noir"]),
    "white": (["white"], ["weiß"], ["blanc"]),
    "green": (["green"], ["grün"], ["vert"]),
    "beach": (["beach"], ["strand"], ["plage"]),
    "snow": (["snow"], ["schnee"], ["neige"]),
    "car": (["car$", "cars$"], ["auto"], ["voiture"]),
    "horse": (["horse"], ["pferd"], ["cheval"]),
    "guitar": (["guitar"], ["gitarre"], ["guitare"]),
    "crowd": (["crowd"], ["menge", "menschenmenge"], ["foule"]),
    "building": (["building"], ["gebäude"], ["bâtiment", "immeuble"]),
    "stage": (["stage"], ["bühne"], ["scène"]),
    "children": (["children"], ["kinder"], ["enfants"]),
    "bike": (["bike", "bicycle"], ["fahrrad", "rad"], ["vélo"]),
}
LANGS = {"en": 0, "de": 1, "fr": 2}
PER_WORD = 4


def words(text):
    return [re.sub(r"^\W+|\W+$", "", w).lower() for w in text.split()]


def matches(word, prefixes):
    return any(word == p[:-1] if p.endswith("$") else word.startswith(p) for p in prefixes)


def count(text, prefixes):
    return sum(matches(w, prefixes) for w in words(text))


def make_set():
    lines = {lang: gzip.open(f"{DATA}/val.{lang}.gz", "rt", encoding="utf-8").read().splitlines() for lang in LANGS}
    rows = []
    for word, forms in LEXICON.items():
        taken = 0
        for en, de, fr in zip(lines["en"], lines["de"], lines["fr"]):
            if taken < PER_WORD and all(count(t, f) == 1 for t, f in zip((en, de, fr), forms)):
                rows.append("\t".join([word, en, de, fr]))
                taken += 1
    os.makedirs(os.path.dirname(SET), exist_ok=True)
    with open(SET, "w", encoding="utf-8") as f:
        f.write("# word\tEnglish\tGerman\tFrench (Multi30k val lines; made by scripts/measure_alignment.py --make-set)\n")
        f.write("\n".join(rows) + "\n")
    print(f"{len(rows)} rows -> {SET}")


def read_set():
    with open(SET, encoding="utf-8") as f:
        return [line.rstrip("\n").split("\t") for line in f if not line.startswith("#")]


def piece_words(pieces):
    """[start, end) piece ranges of the words: a piece starting with ▁ opens a word; eos is none."""
    spans = []
    for i, p in enumerate(pieces):
        if p == "</s>":
            break
        if p.startswith("▁") or not spans:
            spans.append([i, i + 1])
        else:
            spans[-1][1] = i + 1
    return spans


def surface(pieces, span):
    return "".join(pieces[span[0]:span[1]]).replace("▁", "").lower()


def aligned_word(cross, src_span, tgt_spans, row_offset):
    """Index of the target word the source word aligns with; cross is [T][S]. Piece t's row is
    t + row_offset (0: the step that produced it; 1: the step it was fed to)."""
    def score(span):
        rows = [t + row_offset for t in range(span[0], span[1]) if t + row_offset < len(cross)]
        return max((sum(cross[t][src_span[0]:src_span[1]]) for t in rows), default=0.0)
    return max(range(len(tgt_spans)), key=lambda u: score(tgt_spans[u]))


def mean(maps):
    return [[sum(m[t][s] for m in maps) / len(maps) for s in range(len(maps[0][0]))] for t in range(len(maps[0]))]


def measure(attend, row_offset, model, src, tgt, rows):
    sources = [r[1 + LANGS[src]] for r in rows]
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "attention.jsonl")
        subprocess.run([attend, "translate", "--model", f"{ROOT}/models/{model}/model.int8.safetensors",
                        "--attention", path, *sources], check=True, stdout=subprocess.DEVNULL)
        records = [json.loads(line) for line in open(path, encoding="utf-8")]
    hits, scored = {}, 0
    for row, rec in zip(rows, records):
        src_forms, tgt_forms = LEXICON[row[0]][LANGS[src]], LEXICON[row[0]][LANGS[tgt]]
        s_spans, t_spans = piece_words(rec["source_tokens"]), piece_words(rec["target_tokens"])
        s_hits = [i for i, sp in enumerate(s_spans) if matches(re.sub(r"\W+$", "", surface(rec["source_tokens"], sp)), src_forms)]
        t_hits = [i for i, sp in enumerate(t_spans) if matches(re.sub(r"^\W+|\W+$", "", surface(rec["target_tokens"], sp)), tgt_forms)]
        if len(s_hits) != 1 or len(t_hits) != 1:
            continue  # the translation does not hold the expected word once: nothing to score
        scored += 1
        cross = rec["attention"]["cross"]  # [L][H][T][S]
        candidates = {}
        for layer, heads in enumerate(cross):
            for h, m in enumerate(heads):
                candidates[f"L{layer} H{h}"] = m
            candidates[f"L{layer} mean"] = mean(heads)
        candidates["upper half mean"] = mean([m for heads in cross[len(cross) // 2:] for m in heads])
        candidates["all mean"] = mean([m for heads in cross for m in heads])
        for name, m in candidates.items():
            hits[name] = hits.get(name, 0) + (aligned_word(m, s_spans[s_hits[0]], t_spans, row_offset) == t_hits[0])
    return scored, hits


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--attend", default=f"{ROOT}/build/release/native/cli/attend")
    parser.add_argument("--make-set", action="store_true")
    parser.add_argument("--row-offset", type=int, default=0, choices=[0, 1],
                        help="read target piece t from cross row t (0, the step that produced it) or t + 1 (1)")
    args = parser.parse_args()
    if args.make_set:
        return make_set()
    rows = read_set()
    directions = [("en-de", "en", "de"), ("en-fr", "en", "fr"), ("de-en", "de", "en"), ("fr-en", "fr", "en")]
    results = {d[0]: measure(args.attend, args.row_offset, *d, rows) for d in directions}
    names = list(next(iter(results.values()))[1])
    print("| layer / heads | " + " | ".join(f"{d} (n={results[d][0]})" for d in results) + " | mean |")
    print("| --- |" + " ---: |" * (len(results) + 1))
    for name in names:
        shares = [100.0 * results[d][1][name] / results[d][0] for d in results]
        print(f"| {name} | " + " | ".join(f"{s:.1f}" for s in shares) + f" | {sum(shares) / len(shares):.1f} |")


if __name__ == "__main__":
    sys.exit(main())
