#!/usr/bin/python3
"""Attend against Bergamot (Marian in WebAssembly, npm @browsermt/bergamot-translator 0.4.9) on the
same Marian files: `attend import` turns the folder's model into an Attend model file, both translate
the lines, one sentence per call (with --one-call: the whole file in one call, Bergamot batching the
sentences by its mini-batch-words and Attend grouping them the same way, which a lexical shortlist,
the union over a batch, needs for the same lines), and every line must come out the same (--min-same 100), but lines
Bergamot's sentence splitter cuts in two where Attend reads one sentence (listed; at most 1%).
With --precision int8shiftAlphaAll (Bergamot's default) the folder's intgemm8 file is compared, both
computing its int8 arithmetic and the float parts around it as Marian's WebAssembly build does
(docs/marian.md §8.3). --min-same below 100 is the share of lines that must be the same, the others
listed.

With --attend-import, Attend imports those files instead of the folder's (an OPUS-MT folder's .npz,
vocab.yml and .spm files, whose .bin twin with its SentencePiece ids Bergamot runs: opus_twins.py).

  bergamot_parity.py --attend ATTEND --folder FIXTURE_DIR --lines TEXT[.gz] --work DIR
                     [--precision float32] [--beam 1] [--limit N] [--min-same PERCENT] [--shortlist]
                     [--attend-import PATH...] [--one-call]
"""
import argparse
import gzip
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))


def read_lines(path, limit):
    opener = gzip.open if path.endswith(".gz") else open
    with opener(path, "rt", encoding="utf-8") as f:
        lines = [line.rstrip("\n") for line in f]
    return lines[:limit] if limit else lines


def run(command, stdin_text=None):
    done = subprocess.run(command, input=stdin_text, capture_output=True, text=True)
    if done.returncode != 0:
        sys.exit(f"{' '.join(command)} failed ({done.returncode}):\n{done.stderr}")
    return done.stdout


def marian_files(folder, precision):
    names = os.listdir(folder)
    int8 = precision != "float32"
    models = [n for n in names if n.startswith("model.") and n.endswith(".bin") and ("intgemm" in n) == int8]
    vocabs = [n for n in names if n.startswith("vocab.") and n.endswith(".spm")]
    if len(models) != 1 or len(vocabs) != 1:
        sys.exit(f"{folder}: expected one {'intgemm8' if int8 else 'float32'} model.*.bin and one vocab.*.spm, "
                 f"found {models} and {vocabs}")
    return os.path.join(folder, models[0]), os.path.join(folder, vocabs[0])


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--attend", required=True)
    p.add_argument("--folder", required=True)
    p.add_argument("--lines", required=True)
    p.add_argument("--work", required=True)
    p.add_argument("--precision", default="float32")
    p.add_argument("--beam", type=int, default=1)
    p.add_argument("--limit", type=int, default=0)
    p.add_argument("--min-same", type=float, default=100.0, help="percent of the lines that must be the same")
    p.add_argument("--shortlist", action="store_true", help="both with the folder's lexical shortlist, lex*.bin")
    p.add_argument("--attend-import", nargs="+", default=[], metavar="PATH",
                   help="what Attend imports in place of the folder's model and vocabulary (Bergamot's twin of them)")
    p.add_argument("--one-call", action="store_true",
                   help="the whole file in one call: Bergamot's service.translate on every line at once, Attend's CLI "
                        "reading every line before it translates (its batches then Bergamot's with a shortlist)")
    args = p.parse_args()
    os.makedirs(args.work, exist_ok=True)
    lines = read_lines(args.lines, args.limit)
    text = "".join(line + "\n" for line in lines)
    model, vocab = marian_files(args.folder, args.precision)

    shortlist = [os.path.join(args.folder, n) for n in os.listdir(args.folder) if n.startswith("lex.")] if args.shortlist else []
    imported = os.path.join(args.work, os.path.basename(model).replace(".bin", ".safetensors"))
    run([args.attend, "import", *(args.attend_import or [model, vocab]), *shortlist, "-o", imported])
    counts = os.path.join(args.work, "bergamot.sentences")
    bergamot = run(["node", os.path.join(HERE, "bergamot.mjs"), "--model", model, "--vocab", vocab,
                    "--precision", args.precision, "--beam", str(args.beam), "--one-call" if args.one_call else "--per-line",
                    "--sentence-counts", counts, *(["--shortlist", shortlist[0]] if shortlist else [])],
                   text).split("\n")[: len(lines)]
    # The imported file asks for Bergamot's search (Marian's rules, output at most 2x the source's pieces,
    # no repeat guard) and for no pass-through: nothing but the beam is given here.
    # One sentence per batch, as Bergamot is called (a shortlist is the union over a batch); or the whole file
    # in one call: stdin a file, so that the CLI reads every line (up to 16 batches of 32) before translating.
    command = [args.attend, "translate", "--model", imported, "--beam", str(args.beam), "--no-split"]
    if args.one_call:
        source = os.path.join(args.work, "source.txt")
        with open(source, "w", encoding="utf-8") as f:
            f.write(text)
        with open(source, encoding="utf-8") as f:
            done = subprocess.run([*command, "--batch", "32"], stdin=f, capture_output=True, text=True)
        if done.returncode != 0:
            sys.exit(f"{' '.join(command)} failed ({done.returncode}):\n{done.stderr}")
        attend = done.stdout.split("\n")[: len(lines)]
    else:
        attend = run([*command, "--batch", "1"], text).split("\n")[: len(lines)]
    with open(counts) as f:
        cut = [int(n) > 1 for n in f.read().split()]

    differ = [i for i in range(len(lines)) if bergamot[i] != attend[i] and not cut[i]]
    split = [i for i in range(len(lines)) if cut[i]]
    same = len(lines) - len(differ) - len(split)
    print(f"{same} of {len(lines)} lines the same; {len(split)} cut in two by Bergamot's sentence splitter "
          f"({sum(bergamot[i] == attend[i] for i in split)} of them the same anyway); {len(differ)} differ")
    for i in split:
        print(f"  cut by Bergamot, line {i + 1}: {lines[i]}")
    for i in differ:
        print(f"  DIFFER line {i + 1}: {lines[i]}\n    bergamot: {bergamot[i]}\n    attend:   {attend[i]}")
    if len(differ) * 100 > (100 - args.min_same) * len(lines) or len(split) * 100 > len(lines):
        sys.exit(1)


if __name__ == "__main__":
    main()
