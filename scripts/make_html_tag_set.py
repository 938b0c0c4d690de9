#!/usr/bin/env python3
"""The tagged HTML set of tests/html (tag placement, docs/html.md), made from the alignment set.

For each triple of tests/data/real_text/alignment.tsv (an English Multi30k val sentence, one of
22 common words in it, and its German and French translations), the English sentence with the
word marked up three ways:
    b       A large brown <b>dog</b> is ...
    a       A large brown <a href="/x">dog</a> is ...
    nested  A large <b>brown <i>dog</i></b> is ...     (the word before it too; the word inside <i>)
and the German and French forms the word must have in the translation (scripts/measure_alignment.py's
lexicon: prefixes, "x$" for exactly x). Writes tests/data/real_text/html_tags.tsv:
    kind <TAB> html <TAB> German forms (comma-separated) <TAB> French forms

    scripts/make_html_tag_set.py
"""
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from measure_alignment import LEXICON, LANGS, ROOT, matches, read_set  # noqa: E402

OUT = os.path.join(ROOT, "tests/data/real_text/html_tags.tsv")


def marked(tokens, at, kind):
    """The sentence (its space-separated tokens) with tokens[at]'s word (not its punctuation) marked up."""
    lead, word, trail = re.match(r"^(\W*)(.*?)(\W*)$", tokens[at]).groups()
    out = list(tokens)
    if kind == "b":
        out[at] = f"{lead}<b>{word}</b>{trail}"
    elif kind == "a":
        out[at] = f'{lead}<a href="/x">{word}</a>{trail}'
    else:
        out[at - 1] = "<b>" + tokens[at - 1]
        out[at] = f"{lead}<i>{word}</i></b>{trail}"
    return " ".join(out)


def main():
    rows = []
    for word, en, _, _ in read_set():
        forms = LEXICON[word]
        tokens = en.split()
        at = [i for i, t in enumerate(tokens) if matches(re.sub(r"^\W+|\W+$", "", t).lower(), forms[LANGS["en"]])][0]
        for kind in ("b", "a", "nested"):
            if kind == "nested" and (at == 0 or re.search(r"\W$", tokens[at - 1])):
                continue  # no word right before it in the same clause
            rows.append("\t".join([kind, marked(tokens, at, kind), ",".join(forms[LANGS["de"]]), ",".join(forms[LANGS["fr"]])]))
    with open(OUT, "w", encoding="utf-8") as f:
        f.write("# kind\thtml\tGerman forms\tFrench forms (made by scripts/make_html_tag_set.py from alignment.tsv)\n")
        f.write("\n".join(rows) + "\n")
    print(f"{len(rows)} rows -> {OUT}")


if __name__ == "__main__":
    main()
