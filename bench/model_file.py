"""Finds the model the benchmark runs: the shipped models/<pair>/model.<dtype>.safetensors (a shipped int8
file alone is dequantized into a scratch f32 file for the f32 engines), or, for a pair not shipped, a
finished run's runs/<pair>/model.<dtype>.safetensors, or the newest training checkpoint in runs/<pair>/
exported into a scratch folder."""
import glob
import os
import re
import sys

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(REPO, "training"))


def shipped_model(pair, dtype):
    path = os.path.join(REPO, "models", pair, f"model.{dtype}.safetensors")
    return path if os.path.exists(path) else None


def newest_checkpoint(pair):
    found = glob.glob(os.path.join(REPO, "runs", pair, "checkpoint_*.pt"))
    step = lambda p: int(re.search(r"checkpoint_(\d+)\.pt$", p).group(1))
    return max(found, key=step) if found else None


def export_checkpoint(checkpoint, spm_path, out_dir, dtype):
    """checkpoint_N.pt -> out_dir/model.<dtype>.safetensors (config from the run's config.json)."""
    import json

    import torch
    from attend_ref.config import ModelConfig
    from attend_ref.export import export_model
    from attend_ref.model import Transformer

    run_dir = os.path.dirname(checkpoint)
    with open(os.path.join(run_dir, "config.json")) as f:
        cfg = ModelConfig(**json.load(f)["model"])
    model = Transformer(cfg).eval()
    model.load_state_dict(torch.load(checkpoint, map_location="cpu")["model"])
    os.makedirs(out_dir, exist_ok=True)
    path = os.path.join(out_dir, f"model.{dtype}.safetensors")
    with open(spm_path, "rb") as f:
        export_model(model, path, f.read(), None, dtype)
    return path


def find_models(pair, out_dir):
    """Returns ({dtype: path}, description). Raises FileNotFoundError when there is no model at all."""
    shipped = {d: shipped_model(pair, d) for d in ("f32", "int8")}
    if shipped["f32"]:
        return {d: p for d, p in shipped.items() if p}, f"models/{pair} (shipped)"
    if shipped["int8"]:  # only int8 ships (f32 is over the size limit): every engine runs its weights
        from attend_ref.export import dequantize_file
        os.makedirs(out_dir, exist_ok=True)
        f32 = os.path.join(out_dir, "model.f32.safetensors")
        dequantize_file(shipped["int8"], f32)
        return {"f32": f32, "int8": shipped["int8"]}, f"models/{pair}/model.int8.safetensors (shipped; dequantized to f32)"
    trained = {d: os.path.join(REPO, "runs", pair, f"model.{d}.safetensors") for d in ("f32", "int8")}
    if os.path.exists(trained["f32"]):  # a finished training run's export, not yet shipped
        return {d: p for d, p in trained.items() if os.path.exists(p)}, f"runs/{pair}/model.f32.safetensors (trained)"
    checkpoint = newest_checkpoint(pair)
    spm = glob.glob(os.path.join(REPO, "runs", pair, "spm.*.model"))
    if not checkpoint or not spm:
        raise FileNotFoundError(f"no models/{pair}/model.f32.safetensors and no runs/{pair}/checkpoint_*.pt: "
                                f"give --model FILE")
    paths = {d: export_checkpoint(checkpoint, spm[0], out_dir, d) for d in ("f32", "int8")}
    return paths, f"runs/{pair}/{os.path.basename(checkpoint)} (training checkpoint, exported)"


if __name__ == "__main__":
    print(find_models(sys.argv[1] if len(sys.argv) > 1 else "en-de", sys.argv[2] if len(sys.argv) > 2 else "/tmp/attend_bench"))
