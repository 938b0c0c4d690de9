"""An Attend model with Marian's architecture (train.py --marian) written as Marian writes its own
files (docs/marian.md): the float32 `.bin` of `marian --type transformer`, its tensors named and
oriented as Marian names and orients them, and the `special:model.yml` item Marian appends. What
Bergamot's WebAssembly loads, and what `attend import` reads back."""
import re

import numpy as np

from .marian_binary import FLOAT32, INTGEMM8, marian_binary, model_yml_item
from .marian_npz import marian_npz

PAYLOAD_ALIGNMENT = 256  # Marian saves each tensor's whole allocator block, a multiple of 256 bytes


def marian_name(name):
    """Marian's name of an Attend tensor, and whether Marian holds it transposed ([in, out], y = x·W)."""
    rules = [
        (r"encoder\.embed_tokens\.weight", "Wemb", False),  # shared by both sides and the output (tied-embeddings-all)
        (r"decoder\.final_logits_bias", "decoder_ff_logit_out_b", False),
        (r"(en|de)coder\.layers\.(\d+)\.self_attn\.(q|k|v)_proj\.(weight|bias)", r"\1coder_l{}_self_{}\3", True),
        (r"(en|de)coder\.layers\.(\d+)\.self_attn\.out_proj\.(weight|bias)", r"\1coder_l{}_self_{}o", True),
        (r"(en|de)coder\.layers\.(\d+)\.self_attn_norm\.(weight|bias)", r"\1coder_l{}_self_Wo_ln_{}", False),
        (r"decoder\.layers\.(\d+)\.cross_attn\.(q|k|v)_proj\.(weight|bias)", r"decoder_l{}_context_{}\2", True),
        (r"decoder\.layers\.(\d+)\.cross_attn\.out_proj\.(weight|bias)", r"decoder_l{}_context_{}o", True),
        (r"decoder\.layers\.(\d+)\.cross_attn_norm\.(weight|bias)", r"decoder_l{}_context_Wo_ln_{}", False),
        (r"(en|de)coder\.layers\.(\d+)\.ffn\.fc(1|2)\.(weight|bias)", r"\1coder_l{}_ffn_{}\3", True),
        (r"(en|de)coder\.layers\.(\d+)\.ffn_norm\.(weight|bias)", r"\1coder_l{}_ffn_ffn_ln_{}", False),
        (r"decoder\.layers\.(\d+)\.ssru\.input\.weight", r"decoder_l{}_rnn_W", True),
        (r"decoder\.layers\.(\d+)\.ssru\.forget\.(weight|bias)", r"decoder_l{}_rnn_{}f", True),
        (r"decoder\.layers\.(\d+)\.ssru_norm\.(weight|bias)", r"decoder_l{}_rnn_ffn_ln_{}", False),
    ]
    for pattern, template, is_linear in rules:
        match = re.fullmatch(pattern, name)
        if not match:
            continue
        layer = next((int(g) + 1 for g in match.groups() if g.isdigit()), None)  # Marian counts layers from 1
        kind = name.rsplit(".", 1)[1]
        part = ({"weight": "W", "bias": "b"} if is_linear else {"weight": "scale", "bias": "bias"}).get(kind, "")
        return match.expand(template).format(layer, part) if layer else match.expand(template), is_linear
    raise ValueError(f"tensor {name!r} has no place in a Marian transformer")


def model_yml(cfg, version="attend export"):
    """The architecture keys Marian's EncoderDecoder::modelFeatures_ saves, in yaml-cpp's block style,
    with the values `marian --type transformer` gives them for this architecture."""
    ssru = cfg.decoder_autoreg == "ssru"
    features = {
        "bert-train-type-embeddings": "true", "bert-type-vocab-size": 2,
        "dec-cell": "ssru" if ssru else "gru", "dec-cell-base-depth": 2, "dec-cell-high-depth": 1,
        "dec-depth": cfg.decoder_layers, "dim-emb": cfg.d_model, "dim-rnn": 1024,
        "dim-vocabs": [cfg.src_vocab_size, cfg.tgt_vocab_size],
        "enc-cell": "gru", "enc-cell-depth": 1, "enc-depth": cfg.encoder_layers, "enc-type": "bidirectional",
        "input-types": [], "layer-normalization": "false", "lemma-dim-emb": 0, "output-omit-bias": "false",
        "right-left": "false", "skip": "false", "tied-embeddings": "false", "tied-embeddings-all": "true",
        "tied-embeddings-src": "false", "transformer-aan-activation": "swish", "transformer-aan-depth": 2,
        "transformer-aan-nogate": "false", "transformer-decoder-autoreg": "rnn" if ssru else "self-attention",
        "transformer-dim-aan": 2048, "transformer-dim-ffn": cfg.d_ff,
        "transformer-ffn-activation": cfg.activation, "transformer-ffn-depth": 2,
        "transformer-guided-alignment-layer": "last", "transformer-heads": cfg.num_heads,
        "transformer-no-projection": "false", "transformer-postprocess": "dan", "transformer-postprocess-emb": "d",
        "transformer-preprocess": '""', "transformer-tied-layers": [],
        "transformer-train-position-embeddings": "false", "type": "transformer", "ulr": "false", "ulr-dim-emb": 0,
        "ulr-trainable-transformation": "false", "version": version,
    }
    lines = []
    for key, value in features.items():
        if isinstance(value, list):
            lines.append(f"{key}:")
            lines += [f"  - {v}" for v in value] if value else ["  []"]
        else:
            lines.append(f"{key}: {value}")
    return "\n".join(lines) + "\n"


def check_marian_architecture(cfg):
    """ValueError unless Marian's transformer computes exactly this model."""
    wanted = dict(positions="sinusoidal_half", decoder_start="zeros", norm="post", embedding_scale=True,
                  share_embeddings=True, tie_output=True, final_logits_bias=True, layer_norm_eps=1e-6)
    differ = [f"{key} {getattr(cfg, key)!r} (Marian's: {value!r})" for key, value in wanted.items()
              if getattr(cfg, key) != value]
    if cfg.activation not in ("relu", "swish"):
        differ.append(f"activation {cfg.activation!r} (Marian's gelu is another function)")
    if differ:
        raise ValueError("not a Marian architecture (train with --marian): " + ", ".join(differ))


def is_intgemm_weight(marian):
    """Whether marian-conv --gemm-type intgemm8 stores this tensor as intgemm8 (ExpressionGraphPackable::
    packAndSave): the first "_W" of its name 2 or 3 characters from the end (_Wq, _W1, rnn_W, rnn_Wf), or Wemb."""
    at = marian.find("_W")
    return at in (len(marian) - 3, len(marian) - 2) or "Wemb" in marian


def intgemm8_payload(marian, value):
    """Marian's intgemm8 bytes of a float32 matrix `value` ([in, out], or Wemb's [V, D]): qB = 127 / max|value|;
    the matrix transposed (Wemb not), each element round-half-even(fl(w · qB)) clamped to [-127, 127] as
    intgemm's Quantize does; then qB as float32."""
    quant = np.float32(127.0) / np.float32(np.abs(value).max())
    stored = value if "Wemb" in marian else value.T  # [out, in] row-major: Marian's CPU-independent layout
    q = np.clip(np.rint(np.ascontiguousarray(stored, dtype=np.float32) * quant), -127, 127).astype(np.int8)
    return q.tobytes() + np.float32(quant).tobytes()


def marian_items(cfg, tensors, alphas=None, pad=True):
    """(name, type, shape, payload) of every tensor of an f32 Attend model, as Marian saves them: sorted by
    name (Marian's std::map), vectors as [1, n], payloads padded to 256 bytes (`pad`: the .bin's allocator
    blocks; an .npz holds them unpadded), then model.yml. With `alphas` ({Marian name of an activation scale:
    float}, marian_calibration.py), the weights are intgemm8 and the activation scales float32 [1, 1] items
    beside them, as in Firefox's model.xxyy.intgemm.alphas.bin."""
    check_marian_architecture(cfg)
    items = []
    for name, array in tensors.items():
        if name.startswith("tokenizer."):
            continue
        if array.dtype != np.float32:
            raise ValueError(f"tensor {name!r} is {array.dtype}: export an f32 model file")
        marian, is_linear = marian_name(name)
        value = array.T if is_linear and array.ndim == 2 else array  # [out, in] -> [in, out]
        value = np.ascontiguousarray(value.reshape(1, -1) if value.ndim == 1 else value, dtype="<f4")
        if alphas is not None and is_intgemm_weight(marian):
            items.append((marian, INTGEMM8, list(value.shape), intgemm8_payload(marian, value)))
        else:
            items.append((marian, FLOAT32, list(value.shape), value.tobytes()))
    for marian, alpha in (alphas or {}).items():  # marian-conv stores a name holding Wemb as intgemm8, even this
        value = np.full((1, 1), alpha, dtype="<f4")
        items.append((marian, INTGEMM8, [1, 1], intgemm8_payload(marian, value)) if "Wemb" in marian
                     else (marian, FLOAT32, [1, 1], value.tobytes()))
    if pad:
        items = [(name, code, shape, data + bytes(-len(data) % PAYLOAD_ALIGNMENT)) for name, code, shape, data in items]
    items.sort(key=lambda item: item[0].encode())
    return items + [model_yml_item(model_yml(cfg))]


def marian_model_bytes(cfg, tensors, alphas=None):
    return marian_binary(marian_items(cfg, tensors, alphas))


def marian_npz_bytes(cfg, tensors):
    """The float32 .npz Marian's training writes (OPUS-MT's), of the same items as marian_model_bytes."""
    return marian_npz(marian_items(cfg, tensors, pad=False))


def vocab_yml(pieces):
    """Marian's vocab.yml of `pieces` (each id's piece, in id order) as yaml-cpp's emitter writes a map:
    `piece: id` lines, a piece that cannot be a plain scalar double-quoted with its escapes."""
    def key(piece):
        plain = (piece and piece[0] not in "-?:,[]{}#&*!|>'\"%@` " and ": " not in piece and " #" not in piece
                 and piece[-1] not in ": " and piece.lower() not in ("~", "null", "true", "false", "yes", "no", "on",
                                                                      "off", "y", "n")
                 and all(ord(c) >= 0x20 and c != "\x7f" for c in piece))
        if plain:
            return piece
        escaped = "".join("\\" + c if c in '"\\' else f"\\x{ord(c):02X}" if ord(c) < 0x20 or c == "\x7f" else c
                          for c in piece)
        return '"' + escaped + '"'
    return "".join(f"{key(piece)}: {i}\n" for i, piece in enumerate(pieces))
