"""Greedy and beam search, incremental (self-attention KV cache, cross K/V once per sentence).

The C++ core implements exactly these rules, so that chosen tokens match:
- Decoding starts from bos; a hypothesis ends with eos or at the length limit.
- Length limit (generated tokens, eos included): min(max_length, max_positions), and, when
  max_length_ratio > 0, at most max(1, ceil(max_length_ratio · source length with eos)).
- Greedy: argmax of the logits (ties: lowest id); score = Σ log p.
- Beam (size B): each step scores every (beam, token) as score + log p and walks the candidates in
  descending order (ties: lower beam·V + token first). An eos candidate among the top B finishes its
  hypothesis; other candidates continue until B are kept. At the limit the kept ones finish without eos.
  The search stops when B hypotheses have finished (early stop) or none continue. Finished hypotheses are
  ranked by score / lp, lp = ((5 + length) / 6)^alpha (GNMT), length counting eos; ties keep finishing order.
- Repeat guard (max_repeats > 0): a hypothesis may not take a token that would make one of its n-grams
  (n = 1..REPEAT_GUARD_MAX_N) occur more than max_repeats times back to back (repeat_banned); the token's
  log p is set to -inf after the log-softmax, so the other tokens' log p are unchanged.
"""
import math

import torch

REPEAT_GUARD_MAX_N = 16  # the core's kRepeatGuardMaxN
DEFAULT_MAX_REPEATS = 4  # the core's TranslateOptions::max_repeats: above training/measure_repeats.py's 3


def repeat_banned(history, max_repeats):
    """The tokens `history` (a hypothesis's tokens, without bos) may not take next: for each n, the token that
    would make max_repeats + 1 consecutive copies of the last n-gram. None when max_repeats is 0."""
    if max_repeats <= 0:
        return []
    banned = []
    for n in range(1, REPEAT_GUARD_MAX_N + 1):
        length, span = len(history), max_repeats * n - 1
        if length < span + n:
            break
        if all(history[j] == history[j - n] for j in range(length - span, length)):
            banned.append(history[length - n])
    return banned


def decode_limit(cfg, src_len, max_length=256, max_length_ratio=0.0):
    limit = min(max_length, cfg.max_positions)
    if max_length_ratio > 0:
        limit = min(limit, max(1, math.ceil(max_length_ratio * src_len)))
    return limit


def length_penalty(length, alpha):
    return ((5.0 + length) / 6.0) ** alpha


class IncrementalDecoder:
    """Holds one sentence's (or batch's) memory, cross K/V and self-attention caches."""

    def __init__(self, model, src, head_masks=None):
        self.model, self.head_masks = model, head_masks
        self.memory, self.src_pad, _ = model.encode(src, head_masks)
        self.cross = model.cross_kv(self.memory)
        self.caches = [dict() for _ in model.decoder.layers]
        self.step = 0

    def next_log_probs(self, tokens):
        # tokens [N] -> log p [N, V]
        logits, _, _ = self.model.decode(tokens[:, None], self.memory, self.src_pad, self.head_masks,
                                         start=self.step, caches=self.caches, cross=self.cross)
        self.step += 1
        return torch.log_softmax(logits[:, -1], dim=-1)

    def reorder(self, index):
        """Keep rows `index` (beam reordering); index [N']."""
        for cache in self.caches:
            for key in cache:  # self-attention "k", "v" or the SSRU's "c"
                cache[key] = cache[key][index]
        self.cross = [(k[index], v[index]) for k, v in self.cross]
        self.memory, self.src_pad = self.memory[index], self.src_pad[index]


@torch.no_grad()
def greedy(model, src_ids, max_length=256, max_length_ratio=0.0, head_masks=None, max_repeats=DEFAULT_MAX_REPEATS):
    """src_ids: list of lists of token ids (eos included). Returns [(tokens without eos, score)] per sentence."""
    cfg = model.cfg
    batch = len(src_ids)
    src = pad_batch(src_ids, cfg.pad_id)
    limits = [decode_limit(cfg, len(s), max_length, max_length_ratio) for s in src_ids]
    dec = IncrementalDecoder(model, src, head_masks)
    tokens = torch.full((batch,), cfg.bos_id, dtype=torch.long)
    outputs, scores = [[] for _ in range(batch)], [0.0] * batch
    done = [False] * batch
    for step in range(max(limits)):
        logp = dec.next_log_probs(tokens)
        for i in range(batch):
            logp[i, repeat_banned(outputs[i], max_repeats)] = -math.inf
        best = torch.argmax(logp, dim=-1)
        for i in range(batch):
            if done[i]:
                continue
            token = int(best[i])
            scores[i] += float(logp[i, token])
            if token == cfg.eos_id:
                done[i] = True
            else:
                outputs[i].append(token)
                done[i] = step + 1 >= limits[i]
        if all(done):
            break
        tokens = best
    return list(zip(outputs, scores))


def stable_top(total, count):
    """The `count` best flat indices of total and their scores, equal scores by lower index first."""
    order = torch.sort(total, descending=True, stable=True).indices[:count]
    return order.tolist(), total[order].tolist()


@torch.no_grad()
def beam_search(model, src_ids, beam_size=5, alpha=1.0, max_length=256, max_length_ratio=0.0, nbest=1,
                head_masks=None, select=stable_top, max_repeats=DEFAULT_MAX_REPEATS):
    """One sentence (list of ids, eos included). Returns up to nbest (tokens without eos, normalized score).
    select(total, count) ranks the candidates of a step (stable_top: the engine's order)."""
    cfg = model.cfg
    limit = decode_limit(cfg, len(src_ids), max_length, max_length_ratio)
    dec = IncrementalDecoder(model, pad_batch([src_ids], cfg.pad_id), head_masks)
    hyps, scores = [[]], torch.zeros(1)
    last = torch.tensor([cfg.bos_id])
    finished = []  # (tokens incl. eos or not, raw score, length)
    for step in range(limit):
        logp = dec.next_log_probs(last)  # [A, V]
        for beam, hyp in enumerate(hyps):
            logp[beam, repeat_banned(hyp, max_repeats)] = -math.inf
        vocab = logp.shape[1]
        total = (scores[:, None] + logp).reshape(-1)  # [A·V]
        keep_beams, keep_tokens, keep_scores = [], [], []
        for rank, (flat, score) in enumerate(zip(*select(total, 2 * beam_size))):
            beam, token = divmod(flat, vocab)
            if token == cfg.eos_id:
                if rank < beam_size:
                    finished.append((hyps[beam], score, len(hyps[beam]) + 1))
                continue
            keep_beams.append(beam)
            keep_tokens.append(token)
            keep_scores.append(score)
            if len(keep_beams) == beam_size:
                break
        hyps = [hyps[b] + [t] for b, t in zip(keep_beams, keep_tokens)]
        if step + 1 == limit:
            finished.extend((h, s, len(h)) for h, s in zip(hyps, keep_scores))
            break
        if len(finished) >= beam_size or not hyps:
            break
        scores = torch.tensor(keep_scores, dtype=total.dtype)
        last = torch.tensor(keep_tokens)
        dec.reorder(torch.tensor(keep_beams))
    ranked = sorted(finished, key=lambda f: -f[1] / length_penalty(f[2], alpha))
    return [(tokens, score / length_penalty(length, alpha)) for tokens, score, length in ranked[:nbest]]


def pad_batch(seqs, pad_id):
    width = max(len(s) for s in seqs)
    out = torch.full((len(seqs), width), pad_id, dtype=torch.long)
    for i, s in enumerate(seqs):
        out[i, : len(s)] = torch.tensor(s, dtype=torch.long)
    return out


@torch.no_grad()
def attention_for(model, src_ids, tgt_ids, head_masks=None):
    """Teacher-forced attention of one sentence pair: the oracle for the core's capture.
    Returns dict of numpy arrays: encoder [L, H, S, S], decoder [L, H, T, T] (None for SSRU layers), cross [L, H, T, S],
    where T counts bos-fed steps (len(tgt_ids) + 1 when the output ended with eos)."""
    src = pad_batch([src_ids], model.cfg.pad_id)
    memory, src_pad, enc = model.encode(src, head_masks)
    tgt_in = torch.tensor([[model.cfg.bos_id] + list(tgt_ids)])
    logits, dec, cross = model.decode(tgt_in, memory, src_pad, head_masks)
    stack = lambda probs: torch.stack([p[0] for p in probs]).numpy() if probs[0] is not None else None
    return {"encoder": stack(enc), "decoder": stack(dec), "cross": stack(cross), "logits": logits[0].numpy()}
