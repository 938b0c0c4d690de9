#!/usr/bin/env python3
"""Writes Marian's binary lexical shortlist (lex.50.50.xxyy.s2t.bin, as Firefox Translations' model
folders hold it) for a model's SentencePiece vocabulary from a parallel corpus: IBM Model 1 lexical
probabilities p(target piece | source piece) standing in for fast_align + extract_lex, then the
selection and the bytes of Marian's BinaryShortlistGenerator::import (attend_ref/marian_shortlist.py,
docs/marian.md §9).

  training/make_shortlist.py --spm vocab.ende.spm --src train.en.gz --tgt train.de.gz \\
      --out lex.50.50.ende.s2t.bin [--lex-out lex.s2t]

--spm is the model's one shared SentencePiece model (Marian's vocab.xxyy.spm); give --tgt-spm too
for separate vocabularies. --lex-out also writes the lex.s2t text Marian's own import
(`marian-conv --shortlist lex.s2t 50 50 0 --dump lex.bin`) turns into the same file.
"""
import argparse
import os
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from attend_ref import data  # noqa: E402
from attend_ref import marian_shortlist as ms  # noqa: E402


def pieces(spm_path):
    """The pieces of a SentencePiece model, by id."""
    out = subprocess.run(["spm_export_vocab", f"--model={spm_path}"], capture_output=True, text=True, check=True).stdout
    return [line.split("\t")[0] for line in out.split("\n") if line]


def write_whole(path, content):
    mode = "wb" if isinstance(content, bytes) else "w"
    with open(path + ".tmp", mode, **({} if mode == "wb" else {"encoding": "utf-8"})) as f:
        f.write(content)
    os.replace(path + ".tmp", path)


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--spm", required=True, help="the model's (source) SentencePiece model, vocab.xxyy.spm")
    p.add_argument("--tgt-spm", help="the target SentencePiece model, when the vocabularies are separate")
    p.add_argument("--src", required=True, help="source side of the parallel corpus (text, or .gz)")
    p.add_argument("--tgt", required=True, help="target side, line by line with --src")
    p.add_argument("--out", required=True, help="the binary shortlist to write")
    p.add_argument("--lex-out", help="also the lex.s2t text (trg src prob) Marian's import reads")
    p.add_argument("--first-num", type=int, default=50, help="target ids always in the shortlist (default 50)")
    p.add_argument("--best-num", type=int, default=50, help="target ids per source piece (default 50)")
    p.add_argument("--iterations", type=int, default=5, help="IBM Model 1 EM iterations (default 5)")
    p.add_argument("--checksum", choices=("x86_64", "wasm32"), default="x86_64",
                   help="whose std::hash the checksum uses: x86_64 (marian-conv's, Firefox's files; default) or "
                        "wasm32 (what Bergamot's wasm compares with check-bytearray: true)")
    args = p.parse_args()

    start = time.time()
    tgt_spm = args.tgt_spm or args.spm
    src_pieces, tgt_pieces = pieces(args.spm), pieces(tgt_spm)
    src_lines, tgt_lines = data.read_lines(args.src), data.read_lines(args.tgt)
    if len(src_lines) != len(tgt_lines):
        sys.exit(f"{args.src} has {len(src_lines)} lines, {args.tgt} {len(tgt_lines)}")
    sources, targets = data.encode(args.spm, src_lines), data.encode(tgt_spm, tgt_lines)
    src, tgt, prob = ms.ibm1_lexical_probs(sources, targets, len(src_pieces), len(tgt_pieces), args.iterations)
    lists = ms.select_shortlists(src, tgt, prob, len(src_pieces), best_num=args.best_num)
    blob = ms.shortlist_bytes(lists, args.first_num, args.best_num, platform=args.checksum)
    write_whole(args.out, blob)
    if args.lex_out:
        write_whole(args.lex_out, ms.lex_s2t_text(src, tgt, prob, src_pieces, tgt_pieces))
    filled = sum(1 for ids in lists if ids)
    print(f"wrote {args.out} ({len(blob)} bytes): {len(src_lines)} sentence pairs, {len(src)} co-occurring pairs, "
          f"{filled} of {len(lists)} source pieces with a list, {sum(map(len, lists))} target ids "
          f"(firstNum {args.first_num}, bestNum {args.best_num}, {args.checksum} checksum) in {time.time() - start:.1f}s",
          file=sys.stderr)
    if not ms.marian_content_check(lists, len(tgt_pieces)):
        print("note: the last source pieces have no list, so Marian's contentCheck (check-bytearray: true, or the "
              "2nd --shortlist value 1) refuses this file; Bergamot's default (check off) reads it", file=sys.stderr)


if __name__ == "__main__":
    main()
