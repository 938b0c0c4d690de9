#!/usr/bin/python3
"""Fixture of the wasm tests: a tiny random Transformer (training/attend_ref) with SentencePiece
vocabularies trained by Debian's spm_train on the first lines of Multi30k, exported as f32 and
int8 model files, plus the PyTorch reference's greedy output on a few sentences (the oracle of
the smoke test) and the sentences of the parity test.

  make_tiny_model.py --repo REPO --data DATA_DIR --out OUT

Writes OUT/tiny.f32.safetensors, OUT/tiny.int8.safetensors, OUT/sentences.txt and
OUT/reference.json ({"sentences": [...], "greedy": [{"source_ids", "ids", "score"}]}).
"""
import argparse
import gzip
import itertools
import json
import os
import sys

TRAIN_LINES = 400     # enough for 200/180-piece vocabularies
PARITY_LINES = 40     # sentences of the parity tests, from val
SMOKE_LINES = 8       # of those, the ones also decoded by the PyTorch reference


def read_gz(path, count):
    with gzip.open(path, "rt", encoding="utf-8") as f:
        return [line.rstrip("\n") for line in itertools.islice(f, count)]


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--repo", required=True)
    p.add_argument("--data", required=True, help="Multi30k *.gz")
    p.add_argument("--out", required=True)
    args = p.parse_args()
    sys.path.insert(0, os.path.join(args.repo, "training"))
    import torch
    from attend_ref import data, search
    from attend_ref.config import ModelConfig
    from attend_ref.export import export_model
    from attend_ref.model import Transformer

    os.makedirs(args.out, exist_ok=True)
    src_spm = data.train_spm(os.path.join(args.out, "src"), read_gz(os.path.join(args.data, "train.en.gz"), TRAIN_LINES), 200)
    tgt_spm = data.train_spm(os.path.join(args.out, "tgt"), read_gz(os.path.join(args.data, "train.de.gz"), TRAIN_LINES), 180)

    cfg = ModelConfig(src_vocab_size=200, tgt_vocab_size=180, d_model=32, num_heads=4, d_ff=64,
                      encoder_layers=2, decoder_layers=2, max_positions=128).validate()
    torch.manual_seed(0)
    model = Transformer(cfg).eval()
    src_bytes, tgt_bytes = open(src_spm, "rb").read(), open(tgt_spm, "rb").read()
    for dtype in ("f32", "int8"):
        export_model(model, os.path.join(args.out, f"tiny.{dtype}.safetensors"), src_bytes, tgt_bytes, dtype)

    sentences = read_gz(os.path.join(args.data, "val.en.gz"), PARITY_LINES)
    with open(os.path.join(args.out, "sentences.txt"), "w", encoding="utf-8") as f:
        f.write("".join(s + "\n" for s in sentences))

    # The core's defaults: max_length 256, max_length_ratio 3.
    source_ids = [ids + [cfg.eos_id] for ids in data.encode(src_spm, sentences[:SMOKE_LINES])]
    greedy = search.greedy(model, source_ids, max_length=256, max_length_ratio=3.0)
    reference = {"sentences": sentences[:SMOKE_LINES],
                 "greedy": [{"source_ids": s, "ids": ids, "score": score} for s, (ids, score) in zip(source_ids, greedy)]}
    with open(os.path.join(args.out, "reference.json"), "w", encoding="utf-8") as f:
        json.dump(reference, f, indent=1)


if __name__ == "__main__":
    main()
