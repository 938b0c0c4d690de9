"""Marian's binary lexical shortlist (lex.50.50.xxyy.s2t.bin in Firefox Translations' model folders;
browsermt/marian-dev src/data/shortlist.{h,cpp} BinaryShortlistGenerator at e88c1aa5, the commit
the npm Bergamot 0.4.9 wasm was built from; docs/marian.md §9), made from a parallel corpus.

Firefox's files come from fast_align word alignments, Marian's extract_lex (lex.s2t: lines
"trg src prob", prob = p(trg | src)), then Marian's text import (`BinaryShortlistGenerator::import`,
run by `marian-conv --shortlist lex.s2t 50 50 0 --dump lex.bin`). Here IBM Model 1 EM
(`ibm1_lexical_probs`) stands in for fast_align + extract_lex: its translation table t(trg | src)
is the lexical probability. Everything after that is Marian's: `lex_s2t_text` writes the text
file, `select_shortlists` picks per source piece exactly what `import` picks, and
`shortlist_bytes` lays the file out byte for byte as `import` does, checksum included. Attend's
reader is core/src/import/marian_shortlist.h; the CLI is training/make_shortlist.py.

All ids are SentencePiece ids of the model's vocabularies (one shared vocabulary for Firefox's
models, so source and target ids are the same pieces)."""
import struct

import numpy as np

MAGIC = 0xF11A48D5013417F5
HEADER_BYTES = 48  # magic, checksum, firstNum, bestNum, wordToOffsetSize, shortListsSize: uint64 each
MASK64 = (1 << 64) - 1


def ibm1_lexical_probs(sources, targets, src_vocab, tgt_vocab, iterations=5):
    """IBM Model 1 EM on sentence pairs of ids (no EOS: the aligners see the text's words only),
    with a NULL source word in every sentence. Returns (src, tgt, prob) arrays over the pairs
    that co-occur in some sentence pair: prob = t(tgt | src), summing to 1 over tgt for each src
    (the NULL word's row is left out, as extract_lex leaves NULL out of lex.s2t).

    Sparse: only co-occurring pairs are held, one entry per (source position, target position)
    of each sentence pair, so the memory is Σ (|src|+1)·|tgt|, not the vocabulary squared."""
    if len(sources) != len(targets):
        raise ValueError(f"{len(sources)} source lines and {len(targets)} target lines")
    null = src_vocab
    pair_src, pair_tgt, position = [], [], []
    n_tokens = 0
    for s, t in zip(sources, targets):
        if not t:
            continue
        s = np.asarray([null] + list(s), dtype=np.int64)
        t = np.asarray(t, dtype=np.int64)
        if s.max() > null or t.max() >= tgt_vocab or s.min() < 0 or t.min() < 0:
            raise ValueError(f"an id outside the vocabularies ({src_vocab} source, {tgt_vocab} target pieces)")
        pair_src.append(np.tile(s, len(t)))
        pair_tgt.append(np.repeat(t, len(s)))
        position.append(np.repeat(np.arange(n_tokens, n_tokens + len(t)), len(s)))
        n_tokens += len(t)
    if not n_tokens:
        empty = np.zeros(0, dtype=np.int64)
        return empty, empty, np.zeros(0)
    keys = np.concatenate(pair_src) * tgt_vocab + np.concatenate(pair_tgt)
    position = np.concatenate(position)
    pairs, entry_pair = np.unique(keys, return_inverse=True)
    del keys
    pair_s, pair_t = pairs // tgt_vocab, pairs % tgt_vocab
    prob = np.ones(len(pairs))  # uniform start: Model 1's likelihood has one optimum
    for _ in range(iterations):
        weight = prob[entry_pair]
        total = np.bincount(position, weights=weight, minlength=n_tokens)  # Σ over the sentence's source words
        counts = np.bincount(entry_pair, weights=weight / total[position], minlength=len(pairs))
        per_src = np.bincount(pair_s, weights=counts, minlength=src_vocab + 1)
        prob = counts / per_src[pair_s]
    keep = pair_s != null
    return pair_s[keep], pair_t[keep], prob[keep]


def lex_s2t_text(src, tgt, prob, pieces_src, pieces_tgt):
    """The lex.s2t text extract_lex writes and Marian's import reads: one "trg src prob" line per
    pair. prob is written as the float32 Marian will read it back into (9 significant digits
    round-trip a float32 exactly), so the text imports to the same file as select_shortlists."""
    p32 = np.asarray(prob, dtype=np.float32)
    return "".join(f"{pieces_tgt[t]} {pieces_src[s]} {float(p):.9g}\n" for s, t, p in zip(src, tgt, p32))


def select_shortlists(src, tgt, prob, src_vocab, best_num=50, threshold=0.0):
    """Per source id, the target ids BinaryShortlistGenerator::import keeps from the pairs
    (src, tgt, prob) of a lex.s2t (its "NULL" lines already left out), as it keeps them:
      - prob is read as a float32; a pair listed twice keeps its largest prob, and a pair is a
        candidate even when its prob is ≤ 0 (srcTgtProbTable[sId][tId] creates it at 0);
      - the threshold is compared with the *target id*, not the prob (`entry.first >= threshold`,
        entry being the (tId, prob) map entry): with the threshold 0 of "lex.50.50" every pair passes;
      - the best_num best by prob are popped from a std::priority_queue<pair<float, WordIndex>>:
        prob descending, a tie going to the larger target id;
      - each list is then sorted by target id.
    Returns a list of src_vocab lists of target ids."""
    src = np.asarray(src, dtype=np.int64)
    tgt = np.asarray(tgt, dtype=np.int64)
    p32 = np.asarray(prob, dtype=np.float32)
    if len(src) and (src.min() < 0 or src.max() >= src_vocab):
        raise ValueError(f"a source id outside the source vocabulary of {src_vocab}")
    # Largest prob per (src, tgt), floored at 0 by the map entry's 0.
    order = np.lexsort((-p32, tgt, src))
    src, tgt, p32 = src[order], tgt[order], p32[order]
    first = np.ones(len(src), dtype=bool)
    first[1:] = (src[1:] != src[:-1]) | (tgt[1:] != tgt[:-1])
    src, tgt, p32 = src[first], tgt[first], np.maximum(p32[first], np.float32(0))
    passes = tgt >= threshold
    src, tgt, p32 = src[passes], tgt[passes], p32[passes]
    # Priority-queue order within each source: prob descending, then target id descending.
    order = np.lexsort((-tgt, -p32, src))
    src, tgt = src[order], tgt[order]
    lists = [[] for _ in range(src_vocab)]
    starts = np.flatnonzero(np.r_[True, src[1:] != src[:-1]]) if len(src) else []
    ends = list(starts[1:]) + [len(src)]
    for a, b in zip(starts, ends):
        lists[int(src[a])] = sorted(int(t) for t in tgt[a:min(b, a + best_num)])
    return lists


def hash_std_uint64_wasm32(value):
    """std::hash<uint64_t> of libc++ on wasm32 (size_t of 32 bits): __scalar_hash<_, 2>, murmur2
    over the 8 bytes. Marian's hashMem calls std::hash, so Marian compiled to wasm (Bergamot)
    computes another checksum than Marian on x86-64 (libstdc++: the identity)."""
    m, mask = 0x5BD1E995, 0xFFFFFFFF
    h = 8
    for k in (value & mask, value >> 32):
        k = (k * m) & mask
        k ^= k >> 24
        k = (k * m) & mask
        h = ((h * m) & mask) ^ k
    h ^= h >> 13
    h = (h * m) & mask
    return h ^ (h >> 15)


def shortlist_checksum(data, platform="x86_64"):
    """Marian's checksum of a shortlist file's bytes: util::hashMem<uint64_t, uint64_t> (src/common/
    hash.h) over the uint64 words from firstNum (byte 16) on, (len - 16) // 8 of them (a trailing
    4-byte remainder is not hashed): seed = 0, then per word w
        seed ^= std::hash<uint64_t>(w) + 0x9e3779b9 + (seed << 6) + (seed >> 2)   (mod 2^64).
    platform "x86_64": std::hash is the identity (libstdc++, what marian-conv writes natively and
    what Firefox's files hold); "wasm32": libc++'s murmur2 (what Bergamot's wasm checks with
    check-bytearray)."""
    words = np.frombuffer(data, dtype="<u8", count=(len(data) - 16) // 8, offset=16).tolist()
    hash_word = hash_std_uint64_wasm32 if platform == "wasm32" else (lambda w: w)
    seed = 0
    for w in words:
        seed ^= (hash_word(w) + 0x9E3779B9 + ((seed << 6) & MASK64) + (seed >> 2)) & MASK64
    return seed


def shortlist_bytes(lists, first_num=50, best_num=50, platform="x86_64"):
    """The bytes of a binary shortlist, as BinaryShortlistGenerator::import lays it out and dump
    writes it (little-endian): the 48-byte header {magic, checksum, firstNum, bestNum,
    wordToOffsetSize = len(lists) + 1, shortListsSize}, uint64 wordToOffset[len(lists) + 1]
    (CSR offsets, the last = shortListsSize), uint32 shortLists[] (each source id's target ids,
    ascending). `lists` holds one list per source vocabulary id."""
    offsets = [0]
    flat = []
    for ids in lists:
        ids = sorted(int(t) for t in ids)
        if len(set(ids)) != len(ids) or (ids and (ids[0] < 0 or ids[-1] >= 1 << 32)):
            raise ValueError("a shortlist holds a target id twice or out of uint32")
        flat += ids
        offsets.append(len(flat))
    body = struct.pack("<QQQQ", first_num, best_num, len(offsets), len(flat))
    body += np.asarray(offsets, dtype="<u8").tobytes() + np.asarray(flat, dtype="<u4").tobytes()
    data = struct.pack("<QQ", MAGIC, 0) + body
    return struct.pack("<QQ", MAGIC, shortlist_checksum(data, platform)) + body


def read_shortlist(data):
    """(first_num, best_num, lists) of a binary shortlist's bytes, for tests: the layout and the
    checksum (either platform's) checked, nothing else."""
    magic, checksum, first_num, best_num, n_offsets, n_ids = struct.unpack_from("<6Q", data)
    if magic != MAGIC:
        raise ValueError("not a binary shortlist (magic)")
    if len(data) != HEADER_BYTES + 8 * n_offsets + 4 * n_ids:
        raise ValueError("size does not match the header")
    if checksum not in (shortlist_checksum(data), shortlist_checksum(data, "wasm32")):
        raise ValueError("checksum mismatch")
    offsets = np.frombuffer(data, dtype="<u8", count=n_offsets, offset=HEADER_BYTES)
    ids = np.frombuffer(data, dtype="<u4", count=n_ids, offset=HEADER_BYTES + 8 * n_offsets)
    return first_num, best_num, [ids[offsets[k]:offsets[k + 1]].tolist() for k in range(n_offsets - 1)]


def marian_content_check(lists, tgt_vocab):
    """Whether Marian's contentCheck (run with check on: Bergamot's check-bytearray, marian's
    second --shortlist value) accepts the file: every wordToOffset[i] for i < size-1 must be
    *below* shortListsSize, so a file whose last source id(s) have an empty list is refused
    ("shortlist indices are out of bounds") though it is well formed; and every id < tgt_vocab."""
    total = sum(len(ids) for ids in lists)
    offset = 0
    for ids in lists:
        if offset >= total or any(t >= tgt_vocab for t in ids):
            return False
        offset += len(ids)
    return True


def for_batch(lists, first_num, tgt_vocab, sources, eos_id, shared):
    """The target ids BinaryShortlistGenerator::generate gives a batch (the reference of
    MarianShortlist::for_batch): [0, firstNum), the lists of every source id in the batch (each
    source ends in EOS; padding is EOS too), with a shared vocabulary the source ids themselves,
    then the smallest unmarked ids from firstNum on until the count is a multiple of 8; ascending."""
    marked = set(range(min(first_num, tgt_vocab)))
    for ids in sources:
        for s in list(ids) + [eos_id]:
            if shared:
                marked.add(s)
            marked.update(lists[s])
    i = first_num
    while len(marked) % 8 and i < tgt_vocab:
        marked.add(i)
        i += 1
    return sorted(marked)
