#!/usr/bin/python3
"""Writes random tiny reference models (one per config option set) and their golden outputs
for the C++ parity test: teacher-forced logits, attention, greedy and beam ids and scores, with the
repeat guard (at MAX_REPEATS, low enough that the random models' outputs often meet it) and without.

  /usr/bin/python3 tests/parity/make_cases.py OUT_DIR

The golden files carry GOLDEN_VERSION; the C++ test refuses other versions and says how to
regenerate them (this script, which the ctest fixture runs)."""
import json
import os
import random
import subprocess
import sys

import torch

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "../../training"))
from attend_ref import search  # noqa: E402
from attend_ref.marian_search import marian_search  # noqa: E402
from attend_ref.config import ModelConfig  # noqa: E402
from attend_ref.export import export_model  # noqa: E402
from attend_ref.model import Transformer  # noqa: E402

GOLDEN_VERSION = 2
MAX_REPEATS = 2
MARIAN_BEAM = 4
SPECIALS = 4  # pad, unk, bos, eos

VARIANTS = {
    # name: config overrides; every option of ModelConfig appears in at least one variant
    "post_relu_sin": dict(final_logits_bias=True),
    "pre_gelu_half_untied_bias": dict(norm="pre", activation="gelu", positions="sinusoidal_half", tie_output=False,
                                      final_logits_bias=True),
    "learned_swish_shared": dict(positions="learned", activation="swish", shared_vocab=True, share_embeddings=True,
                                 final_logits_bias=True),
    "noscale_pre_sharedvocab_short": dict(embedding_scale=False, norm="pre", shared_vocab=True, tie_output=False,
                                          max_positions=14, encoder_layers=3, decoder_layers=1, num_heads=4),
    # Marian's (docs/marian.md): a zero vector first, no padding id, LayerNorm eps 1e-6; an SSRU decoder
    # (Firefox Translations' students) and a self-attention one with swish (OPUS-MT's)
    "marian_ssru": dict(positions="sinusoidal_half", decoder_start="zeros", decoder_autoreg="ssru",
                        layer_norm_eps=1e-6, tie_output=False, final_logits_bias=True, pad_id=-1),
    "marian_swish": dict(positions="sinusoidal_half", decoder_start="zeros", activation="swish", layer_norm_eps=1e-6,
                         shared_vocab=True, share_embeddings=True, final_logits_bias=True, pad_id=-1),
}


def train_tokenizer(out_dir, name, letters, vocab_size):
    rng = random.Random(name)
    words = ["".join(rng.choice(letters) for _ in range(rng.randint(1, 6))) for _ in range(300)]
    text = os.path.join(out_dir, name + ".txt")
    with open(text, "w") as f:
        for _ in range(2000):
            f.write(" ".join(rng.choice(words) for _ in range(rng.randint(1, 12))) + "\n")
    subprocess.run(["spm_train", f"--input={text}", f"--model_prefix={os.path.join(out_dir, name)}",
                    f"--vocab_size={vocab_size}", "--model_type=bpe", "--pad_id=0", "--unk_id=1", "--bos_id=2",
                    "--eos_id=3", "--hard_vocab_limit=true"], check=True, capture_output=True)
    return open(os.path.join(out_dir, name + ".model"), "rb").read()


def sharpen(model, std):
    """Random weights large enough that output distributions are peaked (few near-ties)."""
    with torch.no_grad():
        for name, p in model.named_parameters():
            if p.dim() == 2:
                p.normal_(0.0, std)
            elif "norm" in name and name.endswith("weight"):
                p.uniform_(0.5, 1.5)
            else:
                p.normal_(0.0, 0.1)
        if model.decoder.final_logits_bias is not None:  # make eos likely enough to end some outputs early
            # (less so for an SSRU decoder, whose random outputs would all end at once)
            model.decoder.final_logits_bias[model.cfg.eos_id] = 1.0 if model.cfg.decoder_autoreg == "ssru" else 3.0


def flat(t):
    return [round(float(x), 7) for x in torch.as_tensor(t).reshape(-1).tolist()]


def make_variant(out_dir, name, overrides, tokenizers, rng):
    shared = overrides.get("shared_vocab", False)
    src_vocab, tgt_vocab = (48, 48) if shared else (48, 40)
    cfg = ModelConfig(src_vocab_size=src_vocab, tgt_vocab_size=tgt_vocab, d_model=32, num_heads=2, d_ff=64,
                      encoder_layers=2, decoder_layers=2, max_positions=64)
    for k, v in overrides.items():
        setattr(cfg, k, v)
    torch.manual_seed(rng.randint(0, 1 << 30))
    model = Transformer(cfg.validate()).eval()
    sharpen(model, 0.25)
    path = os.path.join(out_dir, name + ".safetensors")
    export_model(model, path, tokenizers["src48"], None if shared else tokenizers["tgt40"], "f32")
    export_model(model, os.path.join(out_dir, name + ".int8.safetensors"), tokenizers["src48"],
                 None if shared else tokenizers["tgt40"], "int8")
    # The oracle runs in float64 on the exported (float32-rounded) weights, so the tolerance
    # measures the core's float32 error alone, not the sum of two float32 errors.
    with torch.no_grad():
        for p in model.parameters():
            p.copy_(p.float())
    model = model.double()

    longest = cfg.max_positions  # maximum-length sources
    sources = []
    for i in range(60):
        length = longest if i % 15 == 0 else rng.randint(1, min(20, longest))
        sources.append([rng.randint(SPECIALS, src_vocab - 1) for _ in range(length - 1)] + [cfg.eos_id])
    max_length = 16 if cfg.max_positions > 14 else cfg.max_positions  # many hit the limit
    searches = {"guarded": MAX_REPEATS, "unguarded": 0}
    greedy = {kind: [] for kind in searches}
    for kind, max_repeats in searches.items():
        for start in range(0, len(sources), 16):  # batches of different lengths: padding in the reference
            greedy[kind] += search.greedy(model, sources[start:start + 16], max_length=max_length, max_repeats=max_repeats)
    cases = []
    for i, src in enumerate(sources):
        ids = greedy["guarded"][i][0]
        limit = search.decode_limit(cfg, len(src), max_length)
        fed = ids if len(ids) < limit else ids[:-1]  # bos + fed: one row per generated token (eos included)
        att = search.attention_for(model, src, fed)
        decoder = att["decoder"] if att["decoder"] is not None else torch.zeros(  # SSRU layers: no self-attention
            cfg.decoder_layers, cfg.num_heads, len(fed) + 1, len(fed) + 1)
        case = {"src": src, "fed": fed, "logits": flat(att["logits"]), "encoder": flat(att["encoder"]),
                "decoder": flat(decoder), "cross": flat(att["cross"])}
        for kind, max_repeats in searches.items():
            beam = search.beam_search(model, src, beam_size=4, alpha=0.6, max_length=max_length, nbest=2,
                                      max_repeats=max_repeats)
            case[kind] = {"greedy": {"ids": greedy[kind][i][0], "score": greedy[kind][i][1]},
                          "beam": [{"ids": t, "score": s} for t, s in beam]}
        if cfg.decoder_start == "zeros" and 2 * len(src) <= cfg.max_positions:
            # Marian's search as Bergamot runs it (SearchRules::marian; up to 2x the source, which the
            # positions must hold), in float64
            case["marian"] = {name: dict(zip(("ids", "score"), marian_search(model, src, beam_size=width,
                                                                           dtype=torch.float64)))
                              for name, width in (("greedy", 1), ("beam", MARIAN_BEAM))}
        cases.append(case)
    best = lambda case, kind, method: case[kind][method]["ids"] if method == "greedy" else case[kind][method][0]["ids"]
    for method in ("greedy", "beam"):  # the best output, as the C++ test compares them
        changed = sum(best(c, "guarded", method) != best(c, "unguarded", method) for c in cases)
        if not changed:
            raise SystemExit(f"{name}: the repeat guard changed no {method} output: lower MAX_REPEATS")
    # Head masking: zero one head of each kind, teacher-forced logits on the first cases.
    masks = {"encoder": torch.ones(cfg.encoder_layers, cfg.num_heads), "decoder": torch.ones(cfg.decoder_layers, cfg.num_heads),
             "cross": torch.ones(cfg.decoder_layers, cfg.num_heads)}
    masked = [("encoder", cfg.encoder_layers - 1, 0), ("decoder", 0, 1), ("cross", cfg.decoder_layers - 1, 1)]
    for kind, layer, head in masked:
        masks[kind][layer, head] = 0
    for case in cases[:10]:
        att = search.attention_for(model, case["src"], case["fed"], head_masks=masks)
        case["masked_logits"] = flat(att["logits"])
    marian = [c["marian"]["beam"]["ids"] != c["marian"]["greedy"]["ids"] for c in cases if "marian" in c]
    if marian and not any(marian):
        raise SystemExit(f"{name}: Marian's beam search found what its greedy search found on every case")
    return {"name": name, "model": path, "int8_model": path.replace(".safetensors", ".int8.safetensors"),
            "max_length": max_length, "beam_size": 4, "alpha": 0.6, "nbest": 2, "max_repeats": MAX_REPEATS,
            "marian_beam": MARIAN_BEAM,
            "masked_heads": [list(m) for m in masked], "tgt_vocab": cfg.tgt_vocab_size, "cases": cases}


def main():
    out_dir = sys.argv[1]
    os.makedirs(out_dir, exist_ok=True)
    torch.set_num_threads(1)
    tokenizers = {"src48": train_tokenizer(out_dir, "src48", "abcdefghij", 48),
                  "tgt40": train_tokenizer(out_dir, "tgt40", "klmnopqrs", 40)}
    rng = random.Random(20261122)
    variants = [make_variant(out_dir, name, overrides, tokenizers, rng) for name, overrides in VARIANTS.items()]
    with open(os.path.join(out_dir, "golden.json"), "w") as f:
        json.dump({"version": GOLDEN_VERSION, "generator": "tests/parity/make_cases.py", "variants": variants}, f)
    print(f"wrote {sum(len(v['cases']) for v in variants)} cases over {len(variants)} models to {out_dir}")


if __name__ == "__main__":
    main()
