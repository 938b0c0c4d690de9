"""Marian's translation search as Bergamot 0.4.9 runs it: the reference whose chosen tokens must equal
Bergamot's (docs/marian.md §6). Sources: browsermt/marian-dev e88c1aa5 (the commit bergamot-translator
4917c11, the npm 0.4.9 wasm, pins), bergamot-translator 4917c11, and the libc++ of emscripten 3.1.8 (LLVM
13) that the wasm's std:: algorithms come from. Paths below are marian-dev's unless prefixed `bergamot:`.

One sentence, in a batch of padded width W (batch_width, default len(src_ids); Bergamot batches all
sentences of a request together, so W is the longest sentence of the batch, eos included). Rules:

1. Step input (src/models/decoder.h embeddingsFromPrediction; transformer.h step): step 0 feeds a zero
   vector (+ position 0), step t feeds the embedding of the hypothesis's last word at position t.
2. Candidate score (src/translator/beam_search.cpp search; src/translator/scorers.cpp scorerByType;
   src/models/model_factory.cpp createModelFromOptions; src/models/costs.h LogSoftmaxStep):
   expanded[k, w] = path[k] + 1.0f * s[k, w], in float32, where s is
   - skip-cost true (Bergamot's default, for ANY beam size): the raw logits. The model is built with
     usage::raw, which returns the bare EncoderDecoder, so no LogSoftmaxStep runs; path scores are sums of
     raw logits (the "skipped if beam 1" comment in costs.h is stale: nothing checks the beam size);
   - skip-cost false: log-softmax of the logits (Stepwise + LogSoftmaxStep).
   With a shortlist the logits hold only the shortlist's columns (log-softmax over them too), column c
   meaning word shortlist[c] (src/data/shortlist.h Shortlist::reverseMap; BeamSearch::toHyps).
3. Unk (beam_search.cpp search, helpers.cpp suppressWord): unless allow-unk, after adding the path
   scores the unk column of `expanded` is set to std::numeric_limits<float>::lowest() (-FLT_MAX, not
   -inf); with a shortlist the column is tryForwardMap(unk), and none when unk is not in the shortlist.
4. Selection (src/translator/nth_element.cpp NthElementCPU::getNBestList): N = the current beam size
   (= beam-size at step 0, where the only row is the start hypothesis: Beams start as beam-size copies of
   one start Hypothesis but the scorer's state has one row). std::partial_sort of the row-major flat
   indices k·V + w of `expanded` with comparator score[a] > score[b], which takes the N best in
   descending order. Ties: libc++ 13's heap partial_sort (make_heap, scan with strict >, sift_down,
   sort_heap), reproduced exactly by libcxx_partial_sort below; without ties the order is just
   descending. N = 1 (greedy): the first (lowest index) maximum. Bergamot makes a new BeamSearch per
   batch, and the `idxs` permutation starts as iota per call, but is NOT reset between the batch
   entries of one call, so in a multi-sentence batch a later sentence's ties depend on earlier ones.
5. Hypotheses (beam_search.cpp toHyps): the N selected candidates in order, except those whose score
   == lowest() (INVALID_PATH_SCORE: a suppressed unk or a dummy row), which are dropped and leave the
   beam smaller; new beam order = selection order; back-pointer row k.
6. Finishing (beam_search.cpp search/purgeBeams; src/translator/history.h History::add): after step t
   (0-based) every new hypothesis ending in eos is finished (its eos counts), the others continue, so the
   beam shrinks by the number of eos hypotheses: beam-size finished hypotheses in all. L = t + 1, the
   hypothesis's word count including its eos. Finished score = (path - wp·L) / powf(L, alpha) in float
   (normalize alpha, word-penalty wp).
7. Stop (beam_search.cpp search): when no hypothesis continues; or when, after step t,
   float(t + 1) >= float(max-length-factor) · float(W): then all of that step's hypotheses finish
   (`last`), eos or not, and the search ends. So at most ceil(factor·W) words, eos included
   (bergamot's worker forces max-length-factor 2.0). No early stop, no other pruning.
8. Result (history.h nBest/top; bergamot:src/translator/response_builder.cpp nBest(1)): the best
   finished score, from a std::priority_queue ordered by score alone; its top is the FIRST pushed of the
   equal maxima (libc++ sift_up moves up on strict <), push order = step, then beam index. The words
   are its traceback, eos dropped for the text (SentencePiece decodes </s> to nothing).
9. Empty source (src ids = [eos]): toHyps forces eos with path score 0 (dropBatchEntries): ([], -wp).

Arithmetic: the model runs in `dtype`. float32 (default) is Marian's precision, so the scores are as
near Bergamot's as PyTorch's kernels allow (not bit-equal: GEMM and reduction orders differ, so a
near-tie, |difference| ~1e-6 relative, can fall either way). float64 computes the model and the score sums
in double: the exact-math oracle, for telling a near-tie (float32 and float64 choose differently) from
a rule error; its ties and order are then those of the exact scores, which Marian never sees.
"""
import copy

import numpy as np
import torch

from .search import IncrementalDecoder, pad_batch

FLT_LOWEST = float(np.finfo(np.float32).min)  # std::numeric_limits<float>::lowest(), INVALID_PATH_SCORE


def _sift_down(keys, scores, length, start):
    """libc++ 13 std::__sift_down on keys[0:length], comparator comp(a, b) = scores[a] > scores[b]."""
    comp = lambda a, b: scores[a] > scores[b]
    child = start
    if length < 2 or (length - 2) // 2 < child:
        return
    child = 2 * child + 1
    if child + 1 < length and comp(keys[child], keys[child + 1]):
        child += 1
    if comp(keys[child], keys[start]):
        return
    top = keys[start]
    while True:
        keys[start] = keys[child]
        start = child
        if (length - 2) // 2 < child:
            break
        child = 2 * child + 1
        if child + 1 < length and comp(keys[child], keys[child + 1]):
            child += 1
        if comp(keys[child], top):
            break
    keys[start] = top


def libcxx_partial_sort(scores, n, idxs=None):
    """std::partial_sort(idxs, idxs + n, idxs.end(), [](a, b){ return scores[a] > scores[b]; }) as libc++ 13
    (emscripten 3.1.8) runs it: make_heap, the scan (swap in when strictly better than the heap's root),
    sort_heap by repeated pop_heap. scores: a list of floats; idxs: the permutation to start from (iota
    when None), permuted in place. Returns idxs[:n]. O(len · log n) Python: for ties only."""
    keys = list(range(len(scores))) if idxs is None else idxs
    n = min(n, len(keys))
    if n == 0:
        return []
    for start in range((n - 2) // 2, -1, -1):  # __make_heap
        _sift_down(keys, scores, n, start)
    for i in range(n, len(keys)):  # the scan
        if scores[keys[i]] > scores[keys[0]]:
            keys[i], keys[0] = keys[0], keys[i]
            _sift_down(keys, scores, n, 0)
    for length in range(n, 1, -1):  # __sort_heap: __pop_heap(first, first + length)
        keys[0], keys[length - 1] = keys[length - 1], keys[0]
        _sift_down(keys, scores, length - 1, 0)
    return keys[:n]


def nbest(expanded, n):
    """NthElementCPU::getNBestList for one batch entry: the n best flat indices of expanded [K, V] (row-major)
    with their scores, in partial_sort's order. Fast path (torch.topk) when the n + 1 best values hold no
    tie, where every correct partial_sort gives the same answer; otherwise libc++'s algorithm exactly."""
    flat = expanded.reshape(-1)
    n = min(n, flat.numel())
    top = torch.topk(flat, min(n + 1, flat.numel()), sorted=True)
    values = top.values.tolist()
    if len(set(values)) == len(values):
        keys = top.indices[:n].tolist()
        return keys, values[:n]
    scores = flat.tolist()
    keys = libcxx_partial_sort(scores, n)
    return keys, [scores[k] for k in keys]


def normalized_score(path, length, alpha, word_penalty):
    """History::add: (pathScore - wp·L) / powf((float)L, alpha), in float."""
    f = np.float32
    penalized = f(path) - f(word_penalty) * f(length)
    return float(f(penalized / np.power(f(length), f(alpha))))


def _logits_step(dec, tokens):
    """One incremental decoder step: raw logits [rows, V] (IncrementalDecoder without its log-softmax)."""
    logits, _, _ = dec.model.decode(tokens[:, None], dec.memory, dec.src_pad, dec.head_masks,
                                    start=dec.step, caches=dec.caches, cross=dec.cross)
    dec.step += 1
    return logits[:, -1]


@torch.no_grad()
def marian_search(model, src_ids, beam_size=1, normalize=1.0, word_penalty=0.0, skip_cost=True,
                  max_length_factor=2.0, batch_width=None, allow_unk=False, shortlist=None, dtype=torch.float32,
                  trace=None):
    """Marian's BeamSearch::search for one sentence (src_ids: ids with the eos) in a batch of padded width
    batch_width (default len(src_ids)), as Bergamot runs it (rules in the module docstring).
    shortlist: the sorted target ids of the batch's lexical shortlist, or None (all columns).
    dtype: torch.float32 (Marian's precision) or torch.float64 (the exact-math oracle).
    trace: a list to append, per step, {"t", "kept": [(words, path score)], "finished": [...]} to.
    Returns (words without eos, normalized score) of the best finished hypothesis."""
    cfg = model.cfg
    eos, unk = cfg.eos_id, cfg.unk_id
    src_ids = list(src_ids)
    if src_ids[0] == eos:  # emptyBatchEntries: forced to eos with path score 0
        return [], normalized_score(0.0, 1, normalize, word_penalty)
    if dtype != torch.float32:
        model = copy.deepcopy(model).to(dtype)
    width = len(src_ids) if batch_width is None else batch_width
    limit = np.float32(max_length_factor) * np.float32(width)  # float * size_t, in float
    columns = None if shortlist is None else torch.tensor(list(shortlist), dtype=torch.long)
    unk_col = -1
    if not allow_unk and unk is not None and unk >= 0:
        if columns is None:
            unk_col = unk
        else:
            hit = (columns == unk).nonzero()
            unk_col = int(hit[0, 0]) if len(hit) else -1  # tryForwardMap

    dec = IncrementalDecoder(model, pad_batch([src_ids], cfg.pad_id))
    hyps = [[]]                                 # words of each live hypothesis (scorer row k)
    path = torch.zeros(1, dtype=dtype)          # their path scores
    beam = beam_size                            # beams[0].size(): beam-size copies of the start hypothesis
    last_words = torch.tensor([eos])            # unused at step 0 (zero vector)
    finished = []                               # (normalized score, push order, words incl. eos or not)
    for t in range(10**9):
        logits = _logits_step(dec, last_words).to(dtype)  # [rows, V]
        if columns is not None:
            logits = logits[:, columns]
        if not skip_cost:
            logits = torch.log_softmax(logits, dim=-1)
        expanded = path[:, None] + logits       # prevPathScores + 1.0f · logProbs
        if unk_col >= 0:
            expanded[:, unk_col] = FLT_LOWEST   # suppressWord, after the path scores are added
        keys, scores = nbest(expanded, beam)
        vocab = expanded.shape[1]
        new = []                                # toHyps: (row, word, path score)
        for key, score in zip(keys, scores):
            if len(new) >= beam or score == FLT_LOWEST:
                continue
            row, col = divmod(key, vocab)
            new.append((row, int(columns[col]) if columns is not None else col, score))
        if not new:  # beams[0] empty: nothing is added to the history, the search ends
            break
        length = t + 1                          # history_.size() when added, the start beam counted
        live = [h for h in new if h[1] != eos]
        at_limit = np.float32(length) >= limit
        for beam_idx, (row, word, score) in enumerate(new):
            if word == eos or not live or at_limit:
                finished.append((normalized_score(score, length, normalize, word_penalty), len(finished),
                                 hyps[row] + [word]))
        if trace is not None:
            trace.append({"t": t, "kept": [(hyps[r] + [w], s) for r, w, s in new], "at_limit": bool(at_limit)})
        if at_limit or not live:
            break
        hyps = [hyps[r] + [w] for r, w, _ in live]
        path = torch.tensor([s for _, _, s in live], dtype=dtype)
        beam = len(live)
        last_words = torch.tensor([w for _, w, _ in live])
        dec.reorder(torch.tensor([r for r, _, _ in live]))
    if not finished:
        return [], float("nan")
    # std::priority_queue::top(): the max score, the earliest pushed among equals
    best = max(finished, key=lambda f: (f[0], -f[1]))
    words = best[2][:-1] if best[2] and best[2][-1] == eos else best[2]
    return words, best[0]


@torch.no_grad()
def score_words(model, src_ids, words, skip_cost=True, dtype=torch.float32, with_eos=True):
    """Path scores of one hypothesis teacher-forced the way marian_search scores it: a list of the path score
    after each word (eos appended when with_eos), float32 additions (or dtype)."""
    cfg = model.cfg
    if dtype != torch.float32:
        model = copy.deepcopy(model).to(dtype)
    words = list(words) + ([cfg.eos_id] if with_eos else [])
    dec = IncrementalDecoder(model, pad_batch([list(src_ids)], cfg.pad_id))
    path, out, prev = torch.zeros((), dtype=dtype), [], cfg.eos_id
    for word in words:
        logits = _logits_step(dec, torch.tensor([prev])).to(dtype)
        if not skip_cost:
            logits = torch.log_softmax(logits, dim=-1)
        path = path + logits[0, word]
        out.append(float(path))
        prev = word
    return out
