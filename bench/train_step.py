#!/usr/bin/python3
"""Seconds per training step of the model shape train.py trains by default (its --d-model, --heads,
--d-ff, --layers, --vocab-size, --dropout) on a random batch, with its thread settings and update step.

  /usr/bin/python3 bench/train_step.py --threads 1     # run once per thread count
"""
import argparse
import os
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "training"))
import train  # noqa: E402  (sets OpenBLAS/OpenMP threads from --threads before torch loads)
import torch  # noqa: E402
from attend_ref.model import Transformer  # noqa: E402


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--threads", type=int, default=train.DEFAULT_THREADS)
    p.add_argument("--sentences", type=int, default=120, help="batch rows (120 x 21 ~ train.py's 2,500 tokens)")
    p.add_argument("--src-len", type=int, default=20)
    p.add_argument("--tgt-len", type=int, default=21)
    p.add_argument("--steps", type=int, default=5)
    args = p.parse_args()
    torch.manual_seed(0)
    torch.set_num_threads(args.threads)
    defaults = train.parse_args(["--out", "unused"])
    cfg = train.model_config(defaults, defaults.vocab_size, defaults.vocab_size)
    model = Transformer(cfg, dropout=defaults.dropout)
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-3, betas=(0.9, 0.98), eps=1e-9)
    tokens = lambda length: torch.randint(4, cfg.tgt_vocab_size, (args.sentences, length))
    batch = (tokens(args.src_len), tokens(args.tgt_len), tokens(args.tgt_len))
    for _ in range(2):  # warm-up
        train.train_step(model, optimizer, batch, defaults.label_smoothing)
    start = time.perf_counter()
    for _ in range(args.steps):
        train.train_step(model, optimizer, batch, defaults.label_smoothing)
    seconds = (time.perf_counter() - start) / args.steps
    print(f"threads {args.threads}: {seconds:.2f} s per step of {args.sentences} x {args.tgt_len} target tokens")


if __name__ == "__main__":
    main()
