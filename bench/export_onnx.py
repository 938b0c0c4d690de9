"""Exports the reference model (weights from an Attend model file, fp32) as two ONNX graphs for the
ONNX Runtime peers, with dynamic batch, source and cache lengths:

  encoder.onnx  src [N, S] int64 (pad_id padded)
                -> cross_k_<l>, cross_v_<l> [N, H, S, K] per decoder layer (memory · W_k, memory · W_v)
  decoder.onnx  tokens [N] int64, step [1] int64 (position of tokens), src_pad [N, S] bool (True = padding),
                cross_k_<l>, cross_v_<l> [N, H, S, K], past_k_<l>, past_v_<l> [N, H, T, K] (T = step)
                -> log_probs [N, V], present_k_<l>, present_v_<l> [N, H, T + 1, K]

The graphs run the reference modules themselves (training/attend_ref/model.py), so their math is the
reference's; the decoding loops are bench/search.mjs. Also writes meta.json (ids, sizes, layer count).
"""
import argparse
import json
import os
import sys

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(REPO, "training"))

import torch  # noqa: E402
import torch.nn as nn  # noqa: E402
from attend_ref.export import load_model  # noqa: E402

OPSET = 17  # LayerNormalization is one op from 17 on


class EncoderGraph(nn.Module):
    def __init__(self, model):
        super().__init__()
        self.model = model

    def forward(self, src):
        # src [N, S] -> cross K, V per decoder layer [N, H, S, K]
        model, embedding = self.model, self.model.encoder.embedding
        src_pad = src.eq(model.cfg.pad_id)
        x = embedding.embed_tokens(src) * embedding.scale + embedding.position_table[: src.shape[1]]  # [N, S, D]
        for layer in model.encoder.layers:
            x, _ = layer(x, src_pad[:, None, None, :], 0.0)
        if model.encoder.final_norm is not None:
            x = model.encoder.final_norm(x)
        return tuple(t for kv in model.cross_kv(x) for t in kv)


class DecoderStepGraph(nn.Module):
    def __init__(self, model):
        super().__init__()
        self.model = model

    def forward(self, tokens, step, src_pad, *caches):
        # caches: cross_k_0, cross_v_0, ..., then past_k_0, past_v_0, ... (see the module docstring)
        model, embedding = self.model, self.model.decoder.embedding
        layers = len(model.decoder.layers)
        cross, past = caches[: 2 * layers], caches[2 * layers:]
        pe = embedding.position_table.index_select(0, step)  # [1, D]
        x = (embedding.embed_tokens(tokens) * embedding.scale + pe)[:, None, :]  # [N, 1, D]
        cross_mask = src_pad[:, None, None, :]  # [N, 1, 1, S]
        present = []
        for i, layer in enumerate(model.decoder.layers):
            cache = {"k": past[2 * i], "v": past[2 * i + 1]}
            x, _, _ = layer(x, (cross[2 * i], cross[2 * i + 1]), None, cross_mask, 0.0, cache)
            present += [cache["k"], cache["v"]]
        if model.decoder.final_norm is not None:
            x = model.decoder.final_norm(x)
        log_probs = torch.log_softmax(model.logits(x)[:, 0], dim=-1)  # [N, V]
        return (log_probs, *present)


def export(model_path, out_dir):
    model, _ = load_model(model_path)
    model.eval()
    cfg = model.cfg
    layers = cfg.decoder_layers
    os.makedirs(out_dir, exist_ok=True)
    n, s, t = 2, 7, 3
    src = torch.randint(4, cfg.src_vocab_size, (n, s))
    src[1, 5:] = cfg.pad_id
    kv_names = [f"cross_{kind}_{i}" for i in range(layers) for kind in ("k", "v")]
    with torch.no_grad():
        torch.onnx.export(EncoderGraph(model), (src,), os.path.join(out_dir, "encoder.onnx"), opset_version=OPSET,
                          input_names=["src"], output_names=kv_names,
                          dynamic_axes={"src": {0: "batch", 1: "source"},
                                        **{name: {0: "batch", 2: "source"} for name in kv_names}})
        cross = EncoderGraph(model)(src)
        past = tuple(torch.zeros(n, cfg.num_heads, t, cfg.head_dim) for _ in range(2 * layers))
        past_names = [f"past_{kind}_{i}" for i in range(layers) for kind in ("k", "v")]
        present_names = [f"present_{kind}_{i}" for i in range(layers) for kind in ("k", "v")]
        inputs = (torch.tensor([5, 6]), torch.tensor([t]), src.eq(cfg.pad_id), *cross, *past)
        torch.onnx.export(DecoderStepGraph(model), inputs, os.path.join(out_dir, "decoder.onnx"), opset_version=OPSET,
                          input_names=["tokens", "step", "src_pad", *kv_names, *past_names],
                          output_names=["log_probs", *present_names],
                          dynamic_axes={"tokens": {0: "batch"}, "src_pad": {0: "batch", 1: "source"},
                                        **{name: {0: "batch", 2: "source"} for name in kv_names},
                                        **{name: {0: "batch", 2: "past"} for name in past_names},
                                        **{name: {0: "batch", 2: "present"} for name in present_names},
                                        "log_probs": {0: "batch"}})
    meta = {"layers": layers, "heads": cfg.num_heads, "head_dim": cfg.head_dim, "vocab": cfg.tgt_vocab_size,
            "max_positions": cfg.max_positions, "pad_id": cfg.pad_id, "bos_id": cfg.bos_id, "eos_id": cfg.eos_id,
            "torch": torch.__version__, "opset": OPSET}
    with open(os.path.join(out_dir, "meta.json"), "w") as f:
        json.dump(meta, f, indent=1)
    return meta


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--model", required=True, help="Attend model file (.safetensors; int8 is dequantized)")
    parser.add_argument("--out", required=True, help="folder for encoder.onnx, decoder.onnx, meta.json")
    args = parser.parse_args()
    print(json.dumps(export(args.model, args.out)))


if __name__ == "__main__":
    main()
