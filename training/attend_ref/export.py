"""Writes Attend's model file: standard safetensors (8-byte little-endian header length, JSON
header, raw little-endian tensor bytes), tensors named like the PyTorch state dict, and
`__metadata__` with `attend.format`, `attend.config` and `attend.languages` (the source and target
languages' ISO 639 codes, "en-de"; files before 2026-12-01 name none). SentencePiece models travel inside as
U8 tensors `tokenizer.src` / `tokenizer.tgt`. int8 files store 2-D weights as I8 with one F32
scale per output row (`<name>_scale`, w ≈ scale[row] · q[row])."""
import json
import os
import re
import struct

import numpy as np
import torch

FORMAT_VERSION = "1"
DATA_ALIGNMENT = 64  # the data section starts on a 64-byte boundary (mmap-friendly f32)
DTYPE_NAMES = {np.dtype(np.float32): "F32", np.dtype(np.int8): "I8", np.dtype(np.uint8): "U8"}
DTYPE_ORDER = {"F32": 0, "I8": 1, "U8": 2}  # f32 first keeps every f32 tensor 4-byte aligned


def canonical_tensors(model):
    """State dict with Attend's names, tied duplicates dropped, positions table (a buffer) excluded."""
    cfg = model.cfg
    out = {}
    for name, tensor in model.state_dict().items():
        name = name.replace(".embedding.embed_tokens.", ".embed_tokens.").replace(
            ".embedding.embed_positions.", ".embed_positions.")
        if cfg.share_embeddings and name == "decoder.embed_tokens.weight":
            continue
        out[name] = tensor.detach().float().cpu().numpy()
    return out


def is_quantizable(name, array):
    return array.ndim == 2 and name.endswith(".weight") and "embed_positions" not in name


def quantize_rows(weight):
    """Symmetric per-row int8: scale = max|w_row| / 127, q = round(w / scale)."""
    scale = np.abs(weight).max(axis=1) / 127.0
    scale = np.where(scale == 0, 1.0, scale).astype(np.float32)
    q = np.clip(np.rint(weight / scale[:, None]), -127, 127).astype(np.int8)
    return q, scale


def dequantized(tensors):
    """A model file's tensors with int8 weights as they compute (scale[row] · q[row], f32) and no scales."""
    out = {}
    for name, array in tensors.items():
        if name.endswith("_scale"):
            continue
        if array.dtype == np.int8:
            array = array.astype(np.float32) * tensors[name + "_scale"][:, None]
        out[name] = array
    return out


def dequantize_file(int8_path, f32_path):
    """Writes an f32 model file whose weights are an int8 file's, dequantized (for engines that take f32 only)."""
    tensors, metadata = read_safetensors(int8_path)
    write_safetensors(f32_path, dequantized(tensors), {**metadata, "attend.dtype": "f32"})


LANGUAGE_CODE = re.compile(r"[a-z]{2,3}")


def checked_languages(languages):
    """`languages` ("en-de") if it names two different ISO 639 codes, as the engine reads them; else ValueError."""
    source, _, target = languages.partition("-")
    if not (LANGUAGE_CODE.fullmatch(source) and LANGUAGE_CODE.fullmatch(target)) or source == target:
        raise ValueError(f"languages must be SOURCE-TARGET ISO 639 codes such as 'en-de', got {languages!r}")
    return languages


TEXT_RULES = ("caption", "none")  # `attend.text_rules`: the caption layer's rules, or none


def export_model(model, path, src_spm_bytes, tgt_spm_bytes=None, dtype="f32", languages=None, text_rules=None):
    cfg = model.cfg
    if dtype not in ("f32", "int8"):
        raise ValueError(f"dtype must be f32 or int8, got {dtype!r}")
    if cfg.shared_vocab != (tgt_spm_bytes is None):
        raise ValueError("shared_vocab models carry one tokenizer, others two")
    tensors = {}
    for name, array in canonical_tensors(model).items():
        if dtype == "int8" and is_quantizable(name, array):
            tensors[name], tensors[name + "_scale"] = quantize_rows(array)
        else:
            tensors[name] = np.ascontiguousarray(array, dtype=np.float32)
    tensors["tokenizer.src"] = np.frombuffer(src_spm_bytes, dtype=np.uint8)
    if tgt_spm_bytes is not None:
        tensors["tokenizer.tgt"] = np.frombuffer(tgt_spm_bytes, dtype=np.uint8)
    metadata = {"attend.format": FORMAT_VERSION, "attend.config": cfg.to_json(), "attend.dtype": dtype}
    if languages is not None:
        metadata["attend.languages"] = checked_languages(languages)
    if text_rules is not None:
        metadata["attend.text_rules"] = checked_text_rules(text_rules)
    write_safetensors(path, tensors, metadata)


def checked_text_rules(rules):
    if rules not in TEXT_RULES:
        raise ValueError(f"text rules must be one of {', '.join(TEXT_RULES)}, got {rules!r}")
    return rules


def name_languages(path, languages):
    """Writes `attend.languages` into a model file, its tensors unchanged (files exported before it
    existed): a new file renamed over the old one, so an interruption leaves the old one whole."""
    rewrite_metadata(path, {"attend.languages": checked_languages(languages)})


def ask_for_text_rules(path, rules):
    """Writes `attend.text_rules` into a model file, its tensors unchanged: "caption" for the
    caption models Attend trained on Multi30k (their files written before the key existed)."""
    rewrite_metadata(path, {"attend.text_rules": checked_text_rules(rules)})


def rewrite_metadata(path, updates):
    """A new file with `updates` in its metadata renamed over the old one, so an interruption
    leaves the old one whole."""
    try:
        tensors, metadata = read_safetensors(path)
    except (KeyError, ValueError, struct.error) as error:
        raise ValueError(f"not a model file this tool reads ({error})") from error
    temporary = path + ".naming"
    write_safetensors(temporary, tensors, {**metadata, **updates})
    os.replace(temporary, path)


def write_safetensors(path, tensors, metadata):
    names = sorted(tensors, key=lambda n: (DTYPE_ORDER[DTYPE_NAMES[tensors[n].dtype]], n))
    header, offset = {"__metadata__": metadata}, 0
    for name in names:
        a = tensors[name]
        header[name] = {"dtype": DTYPE_NAMES[a.dtype], "shape": list(a.shape), "data_offsets": [offset, offset + a.nbytes]}
        offset += a.nbytes
    blob = json.dumps(header, separators=(",", ":")).encode()
    blob += b" " * (-(8 + len(blob)) % DATA_ALIGNMENT)
    with open(path, "wb") as f:
        f.write(struct.pack("<Q", len(blob)))
        f.write(blob)
        for name in names:
            f.write(np.ascontiguousarray(tensors[name]).astype(tensors[name].dtype.newbyteorder("<")).tobytes())


def read_safetensors(path):
    """Minimal reader (tests and tools): returns (tensors as numpy, metadata)."""
    with open(path, "rb") as f:
        data = f.read()
    (n,) = struct.unpack("<Q", data[:8])
    header = json.loads(data[8: 8 + n])
    metadata = header.pop("__metadata__", {})
    kinds = {"F32": np.float32, "I8": np.int8, "U8": np.uint8}
    base = 8 + n
    tensors = {name: np.frombuffer(data[base + e["data_offsets"][0]: base + e["data_offsets"][1]],
                                   dtype=kinds[e["dtype"]]).reshape(e["shape"])
               for name, e in header.items()}
    return tensors, metadata


def load_model(path):
    """Rebuilds the reference model from a model file (int8 weights dequantized)."""
    from .config import ModelConfig
    from .model import Transformer
    tensors, metadata = read_safetensors(path)
    cfg = ModelConfig.from_json(metadata["attend.config"])
    model = Transformer(cfg).eval()
    state = {}
    for name, array in dequantized(tensors).items():
        if name.startswith("tokenizer."):
            continue
        key = name.replace("coder.embed_tokens.", "coder.embedding.embed_tokens.").replace(
            "coder.embed_positions.", "coder.embedding.embed_positions.")
        state[key] = torch.from_numpy(np.array(array, dtype=np.float32))
    if cfg.share_embeddings:
        state["decoder.embedding.embed_tokens.weight"] = state["encoder.embedding.embed_tokens.weight"]
    model.load_state_dict(state, strict=True)
    return model, tensors
