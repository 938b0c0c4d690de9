"""Activation scales for Marian's intgemm8 models (`*_QuantMultA`), made as Marian's own recipe makes
them (browsermt/marian-dev scripts/alphas/extract_stats.py after `marian-decoder --dump-quantmult`):
translate a sample, note max |A| of every int8 GEMM's input A at every call, and store
127 / (mean + 1.1 · std) of those maxima per weight. Here the reference model translates (greedy,
in batches) in place of marian-decoder; the scales are what Marian reads, however they were made."""
import numpy as np
import torch
import torch.nn as nn

from . import search
from .marian_export import marian_name


@torch.no_grad()
def activation_scales(model, sources, batch_size=16, max_length_ratio=2.0):
    """{Marian name + "_QuantMultA": scale} for every weight Marian multiplies in int8, over the
    translations of `sources` (lists of ids, eos included)."""
    maxima = {}

    def note(name, x):
        maxima.setdefault(name, []).append(float(x.abs().max()))

    hooks = []
    for module_name, module in model.named_modules():
        if isinstance(module, nn.Linear):
            marian, _ = marian_name(module_name.replace("coder.embedding.", "coder.") + ".weight")
            hooks.append(module.register_forward_hook(lambda m, inputs, out, name=marian: note(name, inputs[0])))
    plain_logits = model.logits
    model.logits = lambda x: (note("Wemb", x), plain_logits(x))[1]  # the tied output layer multiplies by Wemb
    try:
        for start in range(0, len(sources), batch_size):
            search.greedy(model, sources[start:start + batch_size], max_length_ratio=max_length_ratio, max_repeats=0)
    finally:
        for hook in hooks:
            hook.remove()
        del model.logits
    scales = {f"{name}_QuantMultA": 127.0 / (np.mean(values) + 1.1 * np.std(values)) for name, values in maxima.items()}
    # extract_stats.py: with a shortlist Marian names the output layer's sliced matrix "none"
    scales["none_QuantMultA"] = scales["Wemb_QuantMultA"]
    return scales
