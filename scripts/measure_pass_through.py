#!/usr/bin/env python3
"""Where pass-through spans land: for every sentence of the tagged set
(tests/data/real_text/alignment.tsv) and every shipped model, a span the vocabulary lacks
(an emoji, a Chinese name) is put right after the tagged source word, the sentence is
translated with `attend translate`, and the translation is checked:

  kept    the span is in the translation, once
  placed  the word before it is the tagged word's expected translation (only counted when the
          translation holds that word once, as in scripts/measure_alignment.py)

    scripts/measure_pass_through.py --attend build/release/native/cli/attend
"""
import argparse
import os
import re
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from measure_alignment import LANGS, LEXICON, ROOT, count, matches, read_set  # noqa: E402

SPANS = ["😀", "小明"]


def with_span(sentence, forms, span):
    """The sentence with `span` after its word matching `forms` (exactly one does), before the
    word's trailing punctuation ("ball 😀.")."""
    words = sentence.split(" ")
    at = next(i for i, w in enumerate(words) if matches(re.sub(r"^\W+|\W+$", "", w).lower(), forms))
    word, punctuation = re.match(r"^(.*?)(\W*)$", words[at]).groups()
    return " ".join(words[:at] + [word, span + punctuation] + words[at + 1:])


def measure(attend, model, src, tgt, rows, span):
    sources = [with_span(r[1 + LANGS[src]], LEXICON[r[0]][LANGS[src]], span) for r in rows]
    out = subprocess.run([attend, "translate", "--model", f"{ROOT}/models/{model}/model.int8.safetensors"],
                         input="\n".join(sources) + "\n", capture_output=True, text=True, check=True).stdout.splitlines()
    kept = placed = scorable = 0
    for row, translation in zip(rows, out):
        forms = LEXICON[row[0]][LANGS[tgt]]
        kept += translation.count(span) == 1
        if translation.count(span) != 1 or count(translation.replace(span, ""), forms) != 1:
            continue
        scorable += 1
        before = translation[:translation.index(span)].split()
        placed += bool(before) and matches(re.sub(r"^\W+|\W+$", "", before[-1]).lower(), forms)
    return kept, placed, scorable


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--attend", default=f"{ROOT}/build/release/native/cli/attend")
    args = parser.parse_args()
    rows = read_set()
    print("| model | span | kept | placed after the expected word |")
    print("| --- | --- | ---: | ---: |")
    for model, src, tgt in [("en-de", "en", "de"), ("en-fr", "en", "fr"), ("de-en", "de", "en"), ("fr-en", "fr", "en")]:
        for span in SPANS:
            kept, placed, scorable = measure(args.attend, model, src, tgt, rows, span)
            print(f"| {model} | {span} | {kept}/{len(rows)} | {placed}/{scorable} ({100.0 * placed / max(scorable, 1):.1f}%) |")


if __name__ == "__main__":
    sys.exit(main())
