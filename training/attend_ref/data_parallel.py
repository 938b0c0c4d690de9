"""Data-parallel training on one machine: one process per worker, each training its own batch with
its own threads; gradients and token counts are summed across workers (gloo over loopback) before
every update, so all workers apply the same update to the same weights.

With W workers a step trains on W batches and equals one step on their union: the loss is summed over
all their target tokens and divided by the total. Separate processes scale where intra-op threads do
not: a training step is many small ops, and torch's threads split each one."""
import ctypes
import os
import signal
import socket

import torch
import torch.distributed as dist
import torch.multiprocessing as mp


def run_workers(fn, workers, args):
    """Runs fn(rank, workers, *args) in `workers` processes joined into one process group; one worker
    runs in this process, without a group."""
    if workers == 1:
        return fn(0, 1, *args)
    with socket.socket() as s:  # a free loopback port for the rendezvous
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    mp.spawn(_join, args=(workers, port, os.getpid(), fn, args), nprocs=workers, join=True)


def _join(rank, workers, port, parent, fn, args):
    _end_with_parent(parent)
    dist.init_process_group("gloo", init_method=f"tcp://127.0.0.1:{port}", rank=rank, world_size=workers)
    try:
        fn(rank, workers, *args)
    finally:
        dist.destroy_process_group()


def _end_with_parent(parent):
    """torch's spawn asks for SIGINT when the parent ends, but a run started in the background by a
    shell (`nohup scripts/train.sh ... &`) ignores SIGINT, so killing train.py left its workers
    training. SIGTERM's default action ends the worker wherever it is, even inside a collective."""
    pr_set_pdeathsig = 1  # <linux/prctl.h>
    ctypes.CDLL(None, use_errno=True).prctl(pr_set_pdeathsig, signal.SIGTERM)
    if os.getppid() != parent:  # the parent ended before the request was in place
        os.kill(os.getpid(), signal.SIGTERM)


def sum_gradients(model, loss, tokens):
    """Gradients of this worker's summed loss in; gradients of the per-token loss over all workers'
    batches out (summed in one all-reduce, divided by all their target tokens). Returns (loss, tokens)
    of all workers together."""
    grads = [p.grad for p in model.parameters() if p.grad is not None]
    totals = torch.tensor([float(loss), float(tokens)], dtype=grads[0].dtype)
    flat = torch.cat([g.reshape(-1) for g in grads] + [totals])
    dist.all_reduce(flat)
    total_tokens = int(flat[-1])
    offset = 0
    for g in grads:
        g.copy_(flat[offset:offset + g.numel()].view_as(g)).div_(total_tokens)
        offset += g.numel()
    return flat[-2], total_tokens


def gather_rng_states():
    """Every worker's torch random state (its dropout masks), in rank order."""
    states = [None] * dist.get_world_size()
    dist.all_gather_object(states, torch.get_rng_state())
    return states
