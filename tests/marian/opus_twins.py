#!/usr/bin/python3
"""The .bin twins of an OPUS-MT folder (tests/marian/fixtures/opus-ende), read with numpy and PyYAML,
not with Attend's readers: OUT/same/model.bin holds the .npz's items as Marian's .bin holds them
(the same ids, the vocab.yml's), and OUT/spm/model.ende.bin with vocab.ende.spm the same model
renumbered to the SentencePiece model's ids, what Bergamot (which reads only .bin and .spm) runs.
Then `attend import` of the .npz folder and of the same-ids .bin with the same vocab.yml, spm files
and decoder.yml must write the same bytes: the .npz and the .bin of the same weights are one model.

  opus_twins.py --attend ATTEND --folder OPUS_FOLDER --out DIR
"""
import argparse
import filecmp
import glob
import os
import subprocess
import sys

import numpy as np
import yaml

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "../../training"))
from attend_ref.marian_binary import FLOAT32, marian_binary, model_yml_item  # noqa: E402
from attend_ref.marian_export import PAYLOAD_ALIGNMENT  # noqa: E402

VOCAB_ROWS = {"Wemb": 0, "encoder_Wemb": 0, "decoder_Wemb": 0, "decoder_ff_logit_out_Wt": 0, "decoder_ff_logit_out_b": 1}


def bin_items(arrays, order=None):
    """The .bin items of the .npz's arrays, in archive order, model.yml last as Marian writes it; with
    `order` (order[new id] = old id) the vocabulary's rows renumbered."""
    items, yml = [], None
    for name, array in arrays.items():
        if name == "special:model.yml":
            yml = bytes(array.astype(np.uint8)).rstrip(b"\0").decode()
            continue
        if array.dtype != np.float32:
            sys.exit(f"{name}: {array.dtype}")
        if order is not None and name in VOCAB_ROWS:
            array = np.take(array, order, axis=VOCAB_ROWS[name])
        value = np.ascontiguousarray(array.reshape(1, -1) if array.ndim == 1 else array, dtype="<f4")
        data = value.tobytes()
        items.append((name, FLOAT32, list(value.shape), data + bytes(-len(data) % PAYLOAD_ALIGNMENT)))
    return items + [model_yml_item(yml)]


def write(path, data):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "wb") as f:
        f.write(data)


def run(command):
    done = subprocess.run(command, capture_output=True, text=True)
    if done.returncode != 0:
        sys.exit(f"{' '.join(command)} failed ({done.returncode}):\n{done.stderr}")
    return done.stdout


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--attend", required=True)
    p.add_argument("--folder", required=True)
    p.add_argument("--out", required=True)
    args = p.parse_args()
    [npz] = glob.glob(os.path.join(args.folder, "*.npz"))
    [vocab] = glob.glob(os.path.join(args.folder, "*vocab.yml"))
    source_spm, target_spm = (os.path.join(args.folder, n) for n in ("source.spm", "target.spm"))
    with np.load(npz) as z:
        arrays = {name: z[name] for name in z.files}
    with open(vocab, encoding="utf-8") as f:
        ids = {piece: int(i) for piece, i in yaml.load(f, Loader=yaml.BaseLoader).items()}
    exported = run(["spm_export_vocab", f"--model={source_spm}"])
    pieces = [line.split("\t")[0] for line in exported.split("\n") if line]
    if sorted(ids) != sorted(pieces) or sorted(ids.values()) != list(range(len(ids))):
        sys.exit(f"{vocab}: not a renumbering of {source_spm}'s pieces (this fixture's are)")

    same = os.path.join(args.out, "same", "model.bin")
    write(same, marian_binary(bin_items(arrays)))
    spm_folder = os.path.join(args.out, "spm")
    write(os.path.join(spm_folder, "model.ende.bin"), marian_binary(bin_items(arrays, [ids[piece] for piece in pieces])))
    with open(source_spm, "rb") as f:
        write(os.path.join(spm_folder, "vocab.ende.spm"), f.read())

    common = [vocab, source_spm, target_spm, os.path.join(args.folder, "decoder.yml"), "--languages", "en-de"]
    from_npz, from_bin = os.path.join(args.out, "npz.safetensors"), os.path.join(args.out, "bin.safetensors")
    run([args.attend, "import", npz, *common, "-o", from_npz])
    run([args.attend, "import", same, *common, "-o", from_bin])
    if not filecmp.cmp(from_npz, from_bin, shallow=False):
        sys.exit(f"{from_npz} and {from_bin} differ: the .npz and the .bin of the same weights import differently")
    print(f"the .npz and its .bin twin import to the same {os.path.getsize(from_npz)} bytes; "
          f"Bergamot's twin in {spm_folder}")


if __name__ == "__main__":
    main()
