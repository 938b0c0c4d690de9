#!/usr/bin/python3
"""Seconds per training step of the model shape train.py trains by default (its --d-model, --heads,
--d-ff, --layers, --vocab-size, --dropout) on a random batch, with its thread settings and update step.

  /usr/bin/python3 bench/train_step.py --threads 2              # one process, 2 threads
  /usr/bin/python3 bench/train_step.py --workers 2 --threads 1  # data-parallel: 2 processes, 1 thread each
"""
import argparse
import os
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "training"))
import train  # noqa: E402  (sets OpenBLAS/OpenMP threads from --threads before torch loads)
import torch  # noqa: E402
from attend_ref import data_parallel  # noqa: E402
from attend_ref.model import Transformer  # noqa: E402


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--threads", type=int, default=train.DEFAULT_THREADS, help="threads of each worker")
    p.add_argument("--workers", type=int, default=1, help="data-parallel processes, one batch each per step")
    p.add_argument("--sentences", type=int, default=120, help="batch rows (120 x 21 ~ train.py's 2,500 tokens)")
    p.add_argument("--src-len", type=int, default=20)
    p.add_argument("--tgt-len", type=int, default=21)
    p.add_argument("--steps", type=int, default=5)
    args = p.parse_args()
    data_parallel.run_workers(measure, args.workers, (args,))


def measure(rank, workers, args):
    torch.manual_seed(rank)
    torch.set_num_threads(args.threads)
    defaults = train.parse_args(["--out", "unused"])
    cfg = train.model_config(defaults, defaults.vocab_size, defaults.vocab_size)
    model = Transformer(cfg, dropout=defaults.dropout)
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-3, betas=(0.9, 0.98), eps=1e-9)
    tokens = lambda length: torch.randint(4, cfg.tgt_vocab_size, (args.sentences, length))
    batch = (tokens(args.src_len), tokens(args.tgt_len), tokens(args.tgt_len))
    step = lambda: train.train_step(model, optimizer, batch, defaults.label_smoothing, distributed=workers > 1)
    for _ in range(2):  # warm-up
        step()
    start = time.perf_counter()
    for _ in range(args.steps):
        step()
    seconds = (time.perf_counter() - start) / args.steps
    if rank == 0:
        target_tokens = workers * args.sentences * args.tgt_len
        print(f"workers {workers} x threads {args.threads}: {seconds:.2f} s per step of {workers} x "
              f"{args.sentences} x {args.tgt_len} target tokens ({target_tokens / seconds:,.0f} target tokens/s)")


if __name__ == "__main__":
    main()
