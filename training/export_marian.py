#!/usr/bin/env python3
"""Writes an Attend model file of Marian's architecture (train.py --marian) as a Firefox Translations
model folder holds it: model.<xxyy>.bin (float32), vocab.<xxyy>.spm and, with --intgemm8-alphas,
model.<xxyy>.intgemm.alphas.bin (int8 weights and activation scales calibrated on the first
--calibration-lines of val, attend_ref/marian_calibration.py), for Bergamot and for `attend import`
(docs/marian.md).

  training/export_marian.py MODEL.f32.safetensors --out DIR [--intgemm8-alphas]
"""
import argparse
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from attend_ref import data  # noqa: E402
from attend_ref.config import ModelConfig  # noqa: E402
from attend_ref.export import load_model, read_safetensors  # noqa: E402
from attend_ref.marian_calibration import activation_scales  # noqa: E402
from attend_ref.marian_export import marian_model_bytes  # noqa: E402


def write_whole(path, data):
    with open(path + ".tmp", "wb") as f:
        f.write(data)
    os.replace(path + ".tmp", path)


def calibrated_scales(args, metadata):
    """The activation scales of the model on the first --calibration-lines source lines of val."""
    model, tensors = load_model(args.model)
    source = metadata["attend.languages"].split("-")[0]
    lines = data.read_lines(data.corpus_path(args.data_dir, "val", source))[: args.calibration_lines]
    spm = os.path.join(args.out, "calibration.spm")
    write_whole(spm, tensors["tokenizer.src"].tobytes())
    try:
        sources = [ids + [model.cfg.eos_id] for ids in data.encode(spm, lines)]
    finally:
        os.unlink(spm)
    return activation_scales(model, sources)


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("model", help="an f32 Attend model file trained with --marian")
    p.add_argument("--out", required=True, help="the folder to write the Marian files into")
    p.add_argument("--intgemm8-alphas", action="store_true", help="also the intgemm8 file with activation scales")
    p.add_argument("--data-dir", default=os.path.join(os.path.dirname(__file__), "../../shared/data/multi30k"))
    p.add_argument("--calibration-lines", type=int, default=500)
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
    if args.intgemm8_alphas:
        int8_model = marian_model_bytes(cfg, tensors, calibrated_scales(args, metadata))
        write_whole(os.path.join(args.out, f"model.{pair}.intgemm.alphas.bin"), int8_model)
    write_whole(os.path.join(args.out, f"model.{pair}.bin"), model)
    write_whole(os.path.join(args.out, f"vocab.{pair}.spm"), tensors["tokenizer.src"].tobytes())
    print(f"wrote model.{pair}.bin ({len(model) / 1e6:.2f} MB) and vocab.{pair}.spm in {args.out}", file=sys.stderr)


if __name__ == "__main__":
    main()
