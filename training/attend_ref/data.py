"""Multi30k text, SentencePiece vocabularies (Debian's spm_train / spm_encode) and length-bucketed batches."""
import gzip
import os
import random
import subprocess
import tempfile

import torch

SPECIAL_IDS = dict(pad_id=0, unk_id=1, bos_id=2, eos_id=3)
# Marian's SentencePiece ids (its own spm training: --bos_id=-1 --eos_id=0 --unk_id=1, no pad): batches
# pad with -1 (masked), and the decoder's first input is a zero vector (decoder_start "zeros"), so
# "bos" is only the id fed at step 0, eos's.
MARIAN_IDS = dict(pad_id=-1, unk_id=1, bos_id=0, eos_id=0)


def read_lines(path):
    opener = gzip.open if path.endswith(".gz") else open
    with opener(path, "rt", encoding="utf-8") as f:
        return [line.rstrip("\n") for line in f]


def corpus_path(data_dir, split, lang):
    path = os.path.join(data_dir, f"{split}.{lang}.gz")
    if not os.path.exists(path):
        raise FileNotFoundError(f"{path} is missing: put the Multi30k raw text (gzip) in {data_dir} (see README)")
    return path


def train_spm(prefix, texts, vocab_size, model_type="unigram", ids=SPECIAL_IDS):
    """Trains a SentencePiece model on the given lines with the special ids `ids` (SPECIAL_IDS or
    MARIAN_IDS); returns the .model path."""
    special = [f"--pad_id={ids['pad_id']}", f"--unk_id={ids['unk_id']}",
               f"--bos_id={ids['bos_id'] if ids['bos_id'] != ids['eos_id'] else -1}", f"--eos_id={ids['eos_id']}"]
    with tempfile.NamedTemporaryFile("w", suffix=".txt", delete=False, encoding="utf-8") as f:
        f.write("\n".join(texts) + "\n")
    try:
        subprocess.run(["spm_train", f"--input={f.name}", f"--model_prefix={prefix}", f"--vocab_size={vocab_size}",
                        f"--model_type={model_type}", "--character_coverage=1.0", "--num_threads=2",
                        *special, "--input_sentence_size=1000000",
                        "--shuffle_input_sentence=true", "--seed_sentencepiece_size=1000000"],
                       check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    finally:
        os.unlink(f.name)
    return prefix + ".model"


def encode(model_path, texts, sample_alpha=0.0, seed=0, nbest=64):
    """Ids of each text: the most likely segmentation, or with sample_alpha > 0 one drawn from its
    nbest most likely ones (subword regularization: spm_encode's sampling, smaller alpha = more
    varied; nbest -1 draws from all of them, which at alpha 0.1 is close to characters; the same
    seed draws the same segmentations)."""
    mode = ["--output_format=id"] if sample_alpha <= 0 else [
        "--output_format=sample_id", f"--nbest_size={nbest}", f"--alpha={sample_alpha}", f"--random_seed={seed}"]
    out = subprocess.run(["spm_encode", f"--model={model_path}", *mode], input="\n".join(texts) + "\n",
                         capture_output=True, text=True, check=True).stdout
    return [[int(t) for t in line.split()] for line in out.split("\n")[: len(texts)]]


def make_batches(pairs, max_tokens, seed, max_len=128, ids=SPECIAL_IDS):
    """Pairs (src ids with eos, tgt ids) grouped by length into batches of at most max_tokens target
    (and source) tokens including padding; batch order shuffled with the seed; `ids` as collate's."""
    pairs = [p for p in pairs if len(p[0]) <= max_len and len(p[1]) + 1 <= max_len]
    rng = random.Random(seed)
    order = sorted(range(len(pairs)), key=lambda i: (len(pairs[i][1]), len(pairs[i][0]), rng.random()))
    batches, current, width = [], [], 0
    for i in order:
        w = max(width, len(pairs[i][0]), len(pairs[i][1]) + 1)
        if current and w * (len(current) + 1) > max_tokens:
            batches.append(current)
            current, w = [], max(len(pairs[i][0]), len(pairs[i][1]) + 1)
        current.append(i)
        width = w
    if current:
        batches.append(current)
    rng.shuffle(batches)
    return [collate([pairs[i] for i in b], ids["pad_id"], ids["bos_id"], ids["eos_id"]) for b in batches]


def collate(pairs, pad_id=0, bos_id=2, eos_id=3):
    """-> src [B, S], tgt_in [B, T] (bos + y), tgt_out [B, T] (y + eos), padded with pad_id."""
    b = len(pairs)
    s = max(len(p[0]) for p in pairs)
    t = max(len(p[1]) for p in pairs) + 1
    src = torch.full((b, s), pad_id, dtype=torch.long)
    tgt_in = torch.full((b, t), pad_id, dtype=torch.long)
    tgt_out = torch.full((b, t), pad_id, dtype=torch.long)
    for i, (x, y) in enumerate(pairs):
        src[i, : len(x)] = torch.tensor(x)
        tgt_in[i, : len(y) + 1] = torch.tensor([bos_id] + y)
        tgt_out[i, : len(y) + 1] = torch.tensor(y + [eos_id])
    return src, tgt_in, tgt_out
