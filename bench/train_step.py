#!/usr/bin/python3
"""Seconds per training step of the shipped model shape (d 128, 4 heads, d_ff 512, 4+4 layers,
joint 8k vocabulary) on a random batch, with train.py's own thread settings and update step.

  /usr/bin/python3 bench/train_step.py --threads 1     # run once per thread count
"""
import argparse
import os
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "training"))
import train  # noqa: E402  (sets OpenBLAS/OpenMP threads from --threads before torch loads)
import torch  # noqa: E402
from attend_ref.config import ModelConfig  # noqa: E402
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
    cfg = ModelConfig(src_vocab_size=8000, tgt_vocab_size=8000, d_model=128, num_heads=4, d_ff=512,
                      encoder_layers=4, decoder_layers=4, shared_vocab=True, share_embeddings=True, tie_output=True)
    model = Transformer(cfg, dropout=0.1)
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-3, betas=(0.9, 0.98), eps=1e-9)
    tokens = lambda length: torch.randint(4, cfg.tgt_vocab_size, (args.sentences, length))
    batch = (tokens(args.src_len), tokens(args.tgt_len), tokens(args.tgt_len))
    for _ in range(2):  # warm-up
        train.train_step(model, optimizer, batch, 0.1)
    start = time.perf_counter()
    for _ in range(args.steps):
        train.train_step(model, optimizer, batch, 0.1)
    seconds = (time.perf_counter() - start) / args.steps
    print(f"threads {args.threads}: {seconds:.2f} s per step of {args.sentences} x {args.tgt_len} target tokens")


if __name__ == "__main__":
    main()
