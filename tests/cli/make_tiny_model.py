#!/usr/bin/python3
"""Builds the CLI tests' models: a tiny random Transformer (training/attend_ref) with two small
SentencePiece vocabularies trained by Debian's spm_train, exported as f32 and int8 model files,
plus small source/reference files (plain and gzip).

  make_tiny_model.py --repo /path/to/attend --out build/tests/cli/tiny

Text: the first lines of Multi30k (repo/../shared/data/multi30k) when present, else generated.
"""
import argparse
import gzip
import os
import random
import sys

LINES = 400
EVAL_LINES = 6


def read_gz(path, count):
    with gzip.open(path, "rt", encoding="utf-8") as f:
        return [next(f).rstrip("\n") for _ in range(count)]


def generated_lines(seed, count):
    rng = random.Random(seed)
    words = ["a", "man", "woman", "dog", "runs", "sits", "on", "the", "red", "green", "bench", "street",
             "two", "children", "play", "in", "water", "with", "ball", "near", "house", "is", "are"]
    return [" ".join(rng.choice(words) for _ in range(rng.randint(3, 12))) + "." for _ in range(count)]


def corpus(data_dir, split, lang, count, seed):
    path = os.path.join(data_dir, f"{split}.{lang}.gz")
    return read_gz(path, count) if os.path.exists(path) else generated_lines(seed, count)


def write_text(path, lines):
    opener = gzip.open if path.endswith(".gz") else open
    with opener(path, "wt", encoding="utf-8") as f:
        f.write("".join(line + "\n" for line in lines))


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--repo", required=True)
    p.add_argument("--out", required=True)
    p.add_argument("--data-dir", help="Multi30k *.gz (default: REPO/../shared/data/multi30k)")
    args = p.parse_args()
    sys.path.insert(0, os.path.join(args.repo, "training"))
    import torch
    from attend_ref import data
    from attend_ref.config import ModelConfig
    from attend_ref.export import export_model
    from attend_ref.model import Transformer

    data_dir = args.data_dir or os.path.join(args.repo, "..", "shared", "data", "multi30k")
    os.makedirs(args.out, exist_ok=True)
    src_lines = corpus(data_dir, "train", "en", LINES, 1)
    tgt_lines = corpus(data_dir, "train", "de", LINES, 2)
    src_spm = data.train_spm(os.path.join(args.out, "src"), src_lines, 200)
    tgt_spm = data.train_spm(os.path.join(args.out, "tgt"), tgt_lines, 180)

    cfg = ModelConfig(src_vocab_size=200, tgt_vocab_size=180, d_model=16, num_heads=2, d_ff=32,
                      encoder_layers=2, decoder_layers=2, max_positions=64)
    torch.manual_seed(0)
    model = Transformer(cfg).eval()
    src_bytes, tgt_bytes = open(src_spm, "rb").read(), open(tgt_spm, "rb").read()
    for dtype in ("f32", "int8"):
        export_model(model, os.path.join(args.out, f"tiny.{dtype}.safetensors"), src_bytes, tgt_bytes, dtype)

    eval_src = corpus(data_dir, "val", "en", EVAL_LINES, 3)
    eval_ref = corpus(data_dir, "val", "de", EVAL_LINES, 4)
    for name, lines in (("src.txt", eval_src), ("ref.txt", eval_ref), ("ref.txt.gz", eval_ref)):
        write_text(os.path.join(args.out, name), lines)


if __name__ == "__main__":
    main()
