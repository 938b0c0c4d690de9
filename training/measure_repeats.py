#!/usr/bin/python3
"""How often a piece or an n-gram of pieces repeats back to back in the training references: the
evidence for the search's repeat guard (TranslateOptions::max_repeats, attend_ref.search.REPEAT_GUARD_MAX_N).

  /usr/bin/python3 training/measure_repeats.py [--data ../shared/data/multi30k] [--models models] [--max-n 16]
  /usr/bin/python3 training/measure_repeats.py --texts FILE --model MODEL [--over 4]

For each shipped model (models/<src>-<tgt>/model.int8.safetensors), train.<tgt>.gz is tokenized
with that model's target vocabulary (spm_encode, as the engine's tokenizer does) and, for each
n, the largest number of consecutive copies of one n-gram in one sentence is printed with an
example sentence. With --texts (translations, one per line), the same for that file in MODEL's
target vocabulary, as one line: `most M, lines over N: K` (K lines hold an n-gram more than N times)."""
import argparse
import glob
import gzip
import os
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from attend_ref.export import read_safetensors  # noqa: E402


def max_copies(ids, n):
    """The most consecutive copies of one n-gram in ids (1 if ids has at least n tokens, else 0)."""
    best = 1 if len(ids) >= n else 0
    for start in range(len(ids) - n + 1):
        copies = 1
        while ids[start + copies * n: start + (copies + 1) * n] == ids[start: start + n]:
            copies += 1
        best = max(best, copies)
    return best


def target_tokenizer(model_path, out_dir):
    tensors, _ = read_safetensors(model_path)
    name = "tokenizer.tgt" if "tokenizer.tgt" in tensors else "tokenizer.src"  # shared vocabulary
    path = os.path.join(out_dir, os.path.basename(os.path.dirname(model_path)) + ".model")
    with open(path, "wb") as f:
        f.write(tensors[name].tobytes())
    return path


def encode(spm_model, lines):
    out = subprocess.run(["spm_encode", f"--model={spm_model}", "--output_format=id"], input="\n".join(lines) + "\n",
                         capture_output=True, text=True, check=True).stdout
    return [[int(t) for t in line.split()] for line in out.split("\n")[: len(lines)]]


def main():
    root = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--data", default=os.path.join(root, "../shared/data/multi30k"))
    p.add_argument("--models", default=os.path.join(root, "models"))
    p.add_argument("--max-n", type=int, default=16, help="the longest n-gram (the core's kRepeatGuardMaxN)")
    p.add_argument("--texts", help="measure this file (with --model) instead of the training references")
    p.add_argument("--model", help="the model whose target vocabulary tokenizes --texts")
    p.add_argument("--over", type=int, default=4, help="with --texts: count the lines with more copies than this")
    args = p.parse_args()
    if args.texts:
        with open(args.texts, encoding="utf-8") as f:
            lines = [line.rstrip("\n") for line in f]
        with tempfile.TemporaryDirectory() as tmp:
            sentences = encode(target_tokenizer(args.model, tmp), lines)
        most = [max(max_copies(ids, n) for n in range(1, args.max_n + 1)) for ids in sentences]
        print(f"most {max(most)}, lines over {args.over}: {sum(m > args.over for m in most)}")
        return
    print(f"| model | references | " + " | ".join(f"n={n}" for n in range(1, args.max_n + 1)) + " |")
    print("| --- | --- | " + " | ".join("---" for _ in range(args.max_n)) + " |")
    examples = []
    with tempfile.TemporaryDirectory() as tmp:
        for model_path in sorted(glob.glob(os.path.join(args.models, "*-*/model.int8.safetensors"))):
            pair = os.path.basename(os.path.dirname(model_path))
            tgt = pair.split("-")[1]
            with gzip.open(os.path.join(args.data, f"train.{tgt}.gz"), "rt", encoding="utf-8") as f:
                lines = [line.rstrip("\n") for line in f]
            sentences = encode(target_tokenizer(model_path, tmp), lines)
            cells = []
            for n in range(1, args.max_n + 1):
                counts = [max_copies(ids, n) for ids in sentences]
                worst = max(range(len(counts)), key=counts.__getitem__)
                cells.append(str(counts[worst]))
                examples.append(f"{pair} n={n}: {counts[worst]} copies in train.{tgt} line {worst + 1}: {lines[worst]}")
            print(f"| {pair} | train.{tgt} ({len(lines)} lines) | " + " | ".join(cells) + " |")
    print()
    for e in examples:
        print(e)


if __name__ == "__main__":
    main()
