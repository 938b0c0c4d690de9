"""Sequence-level knowledge distillation (Kim & Rush, 2016): a trained model's beam-search
translations of the training source become extra training targets for the next model.

The teacher is an Attend model file decoded by the `attend` CLI (the C++ engine: 29,000 Multi30k
sentences at beam 5 take under a minute on 2 threads, where the PyTorch reference would take tens
of minutes). The translations are kept in the run directory, so a resumed run reuses them."""
import os
import subprocess

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
DEFAULT_CLI = os.path.join(REPO, "build", "release", "native", "cli", "attend")


def teacher_translations(model_path, sources, cache_path, beam=5, threads=2, batch=32):
    """The teacher's translation of every line of `sources` (one per line, in order), read from
    cache_path when a previous run wrote it for as many lines."""
    if os.path.exists(cache_path):
        with open(cache_path, encoding="utf-8") as f:
            cached = f.read().split("\n")[:-1]
        if len(cached) == len(sources):
            return cached
    cli = os.environ.get("ATTEND_CLI", DEFAULT_CLI)
    if not os.access(cli, os.X_OK):
        raise FileNotFoundError(f"{cli} is missing: build it (cmake --preset release && cmake --build --preset release) "
                                "or point ATTEND_CLI at it")
    if any(not line.strip() for line in sources):
        raise ValueError("a training source line is empty; the teacher would give it no translation")
    result = subprocess.run([cli, "translate", "--model", model_path, "--beam", str(beam),
                             "--threads", str(threads), "--batch", str(batch)],
                            input="\n".join(sources) + "\n", capture_output=True, text=True)
    if result.returncode != 0:
        raise RuntimeError(f"the teacher {model_path} failed: {result.stderr.strip()}")
    translations = result.stdout.split("\n")[:-1]
    if len(translations) != len(sources):
        raise RuntimeError(f"the teacher gave {len(translations)} translations for {len(sources)} lines")
    with open(cache_path + ".tmp", "w", encoding="utf-8") as f:
        f.write("\n".join(translations) + "\n")
    os.replace(cache_path + ".tmp", cache_path)
    return translations
