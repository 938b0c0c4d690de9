#!/usr/bin/env python3
"""Writes an Attend model file of Marian's architecture (train.py --marian) as a Firefox Translations
model folder holds it: model.<xxyy>.bin (float32) and vocab.<xxyy>.spm, for Bergamot and for
`attend import` (docs/marian.md).

  training/export_marian.py MODEL.f32.safetensors --out DIR
"""
import argparse
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from attend_ref.config import ModelConfig  # noqa: E402
from attend_ref.export import read_safetensors  # noqa: E402
from attend_ref.marian_export import marian_model_bytes  # noqa: E402


def write_whole(path, data):
    with open(path + ".tmp", "wb") as f:
        f.write(data)
    os.replace(path + ".tmp", path)


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("model", help="an f32 Attend model file trained with --marian")
    p.add_argument("--out", required=True, help="the folder to write the Marian files into")
    args = p.parse_args()
    tensors, metadata = read_safetensors(args.model)
    cfg = ModelConfig.from_json(metadata["attend.config"])
    pair = metadata.get("attend.languages", "").replace("-", "")
    if not pair:
        sys.exit(f"{args.model} names no languages (attend.languages); Firefox's file names need them")
    try:
        model = marian_model_bytes(cfg, tensors)
    except ValueError as error:
        sys.exit(f"{args.model}: {error}")
    os.makedirs(args.out, exist_ok=True)
    write_whole(os.path.join(args.out, f"model.{pair}.bin"), model)
    write_whole(os.path.join(args.out, f"vocab.{pair}.spm"), tensors["tokenizer.src"].tobytes())
    print(f"wrote model.{pair}.bin ({len(model) / 1e6:.2f} MB) and vocab.{pair}.spm in {args.out}", file=sys.stderr)


if __name__ == "__main__":
    main()
