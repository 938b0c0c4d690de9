#!/usr/bin/env python3
"""Writes an Attend model file of Marian's architecture (train.py --marian) as a Firefox Translations
model folder holds it: model.<xxyy>.bin (float32), vocab.<xxyy>.spm and, with --intgemm8-alphas,
model.<xxyy>.intgemm.alphas.bin (int8 weights and activation scales calibrated on the first
--calibration-lines of val, attend_ref/marian_calibration.py), for Bergamot and for `attend import`
(docs/marian.md). With --opus-mt, as an OPUS-MT release zip holds it instead:
opus.spm<N>k-spm<N>k.transformer-align.model1.npz.best-perplexity.npz (float32, Marian's cnpy
layout), opus.spm<N>k-spm<N>k.vocab.yml (the ids: </s> 0, <unk> 1, then the pieces by their count
in the training text, as marian-vocab numbers them; the weights' rows follow), source.spm and
target.spm (the model's SentencePiece model, which then only segments), decoder.yml, README.md
and LICENSE.

  training/export_marian.py MODEL.f32.safetensors --out DIR [--intgemm8-alphas | --opus-mt]
"""
import collections
import subprocess
import argparse
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from attend_ref import data  # noqa: E402
from attend_ref.config import ModelConfig  # noqa: E402
from attend_ref.export import load_model, read_safetensors  # noqa: E402
from attend_ref.marian_calibration import activation_scales  # noqa: E402
from attend_ref.marian_export import marian_model_bytes, marian_npz_bytes, vocab_yml  # noqa: E402


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


def spm_pieces(spm_path):
    """Each id's piece of a SentencePiece model, in id order (spm_export_vocab)."""
    out = subprocess.run(["spm_export_vocab", f"--model={spm_path}"], capture_output=True, text=True, check=True).stdout
    return [line.split("\t")[0] for line in out.split("\n") if line]


def write_opus_mt(args, cfg, tensors, metadata):
    """The OPUS-MT folder: the ids renumbered as marian-vocab numbers them (default_vocab.cpp create:
    </s> 0, <unk> 1, then by count in the training text, descending, ties by the piece's bytes), the
    embedding's rows and the output bias following them; everything else as the .bin."""
    source, target = metadata["attend.languages"].split("-")
    spm = os.path.join(args.out, "source.spm")
    write_whole(spm, tensors["tokenizer.src"].tobytes())
    write_whole(os.path.join(args.out, "target.spm"), tensors["tokenizer.src"].tobytes())
    pieces = spm_pieces(spm)
    counts = collections.Counter()
    for lang in (source, target):
        for ids in data.encode(spm, data.read_lines(data.corpus_path(args.data_dir, "train", lang))):
            counts.update(ids)
    special = [pieces.index("</s>"), pieces.index("<unk>")]
    rest = sorted((i for i in range(len(pieces)) if i not in special), key=lambda i: (-counts[i], pieces[i].encode()))
    order = special + rest  # order[new id] = the model's id
    renumbered = dict(tensors)
    for name in ("encoder.embed_tokens.weight", "decoder.final_logits_bias"):
        renumbered[name] = tensors[name][order]
    stem = f"opus.spm{cfg.src_vocab_size // 1000}k-spm{cfg.tgt_vocab_size // 1000}k"
    model_name = f"{stem}.transformer-align.model1.npz.best-perplexity.npz"
    npz = marian_npz_bytes(cfg, renumbered)
    write_whole(os.path.join(args.out, model_name), npz)
    write_whole(os.path.join(args.out, f"{stem}.vocab.yml"), vocab_yml([pieces[i] for i in order]).encode())
    # As OPUS-MT-train's dist target edits the decoder.yml Marian's training writes.
    decoder = (f"models:\n  - {model_name}\nvocabs:\n  - {stem}.vocab.yml\n  - {stem}.vocab.yml\nbeam-size: 6\n"
               "normalize: 1\nword-penalty: 0\nmini-batch: 1\nmaxi-batch: 1\nmaxi-batch-sort: src\nrelative-paths: true\n")
    write_whole(os.path.join(args.out, "decoder.yml"), decoder.encode())
    print(f"wrote {model_name} ({len(npz) / 1e6:.2f} MB), {stem}.vocab.yml, source.spm, target.spm and decoder.yml "
          f"in {args.out}", file=sys.stderr)


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("model", help="an f32 Attend model file trained with --marian")
    p.add_argument("--out", required=True, help="the folder to write the Marian files into")
    p.add_argument("--intgemm8-alphas", action="store_true", help="also the intgemm8 file with activation scales")
    p.add_argument("--opus-mt", action="store_true", help="an OPUS-MT folder (.npz, vocab.yml, source.spm, target.spm, "
                   "decoder.yml) instead of Firefox's")
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
    if args.opus_mt:
        write_opus_mt(args, cfg, tensors, metadata)
        return
    if args.intgemm8_alphas:
        int8_model = marian_model_bytes(cfg, tensors, calibrated_scales(args, metadata))
        write_whole(os.path.join(args.out, f"model.{pair}.intgemm.alphas.bin"), int8_model)
    write_whole(os.path.join(args.out, f"model.{pair}.bin"), model)
    write_whole(os.path.join(args.out, f"vocab.{pair}.spm"), tensors["tokenizer.src"].tobytes())
    print(f"wrote model.{pair}.bin ({len(model) / 1e6:.2f} MB) and vocab.{pair}.spm in {args.out}", file=sys.stderr)


if __name__ == "__main__":
    main()
