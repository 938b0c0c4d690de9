#!/usr/bin/python3
"""training/attend_ref/marian_search.py against Bergamot (npm @browsermt/bergamot-translator 0.4.9,
tests/marian/bergamot.mjs, float32 GEMM) on Multi30k test lines: the chosen words must be equal on every
line, greedy (Bergamot's default beam 1) and beam 4 (docs/marian.md §6).

  /usr/bin/python3 tests/marian/compare_search.py MODEL.f32.safetensors MARIAN_DIR [LINES]
      [--beams 1,4] [--data FILE.gz] [--normalize A] [--word-penalty W] [--no-skip-cost]
      [--tie A:B,...] [--unk-bias X] [--no-explain]

MARIAN_DIR holds model.xxyy.bin and vocab.xxyy.spm; when it holds no .bin, training/export_marian.py
writes them there from MODEL first. LINES: the first LINES lines of the data (default all 1,000).
--normalize, --word-penalty, --no-skip-cost: Bergamot's options other than the worker's defaults.
--tie 9:1993,4:1988 gives token B token A's embedding row and logit bias, so their logits are equal to
the bit in both engines (B - A a multiple of 16 keeps them in the same GEMM lanes) and selections hold
exact ties: a test of partial_sort's and the priority queue's tie order. --unk-bias 30 adds 30 to unk's
logit bias: a test of the unk suppression. Both compare a changed copy of the model, exported to a
temporary folder (MARIAN_DIR's .bin is then not used).

Bergamot splits a line into sentences itself and batches a line's sentences together, so each line
runs through Bergamot's own API (the harness's loadBergamot/modelConfig, one service.translate per
line as --per-line does), which also reports each sentence's byte range in the source and in the
translation. Each source sentence is encoded with spm_encode (+ eos), searched with marian_search with
batch_width = the longest sentence of its batch (Bergamot's batching: buckets by length, shortest
first, while (n + 1)·length <= mini-batch-words 1024), decoded with spm_decode and compared with
Bergamot's translation of that sentence. Prints the number of identical lines per beam size and each
differing line with an explanation (the float64 oracle's choice and the score margin at the first step
where the two searches part); exits 1 if any line differs.
"""
import argparse
import glob
import gzip
import json
import os
import re
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
TOP = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, os.path.join(TOP, "training"))

import torch  # noqa: E402

from attend_ref.export import load_model, read_safetensors, write_safetensors  # noqa: E402
from attend_ref.marian_search import marian_search, normalized_score, score_words  # noqa: E402

MINI_BATCH_WORDS = 1024  # the worker's forced mini-batch-words
MAX_LENGTH_BREAK = 128   # the worker's forced max-length-break
MAX_LENGTH_FACTOR = 2.0  # the worker's forced max-length-factor

# One service.translate call per line (bergamot.mjs --per-line), keeping what the harness's
# createModel drops: each sentence's byte ranges in the source and in the translation.
NODE_SCRIPT = r"""
import {readFileSync} from 'node:fs';
import {loadBergamot, modelConfig, checkMarianBinary} from %(harness)s;
const [modelPath, vocabPath, beam, normalize, wordPenalty, skipCost, inputPath] = process.argv.slice(2);
const lines = readFileSync(inputPath, 'utf8').split('\n');
if (lines.at(-1) === '') lines.pop();
const bergamot = await loadBergamot();
const {Module, service} = bergamot;
const modelBytes = readFileSync(modelPath), vocabBytes = readFileSync(vocabPath);
checkMarianBinary(modelBytes);
const aligned = (bytes, alignment) => {
  const memory = new Module.AlignedMemory(bytes.byteLength, alignment);
  memory.getByteArrayView().set(new Int8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength));
  return memory;
};
const config = modelConfig({beamSize: Number(beam), normalize, wordPenalty: Number(wordPenalty),
                            skipCost: skipCost === 'true', gemmPrecision: 'float32'});
const memories = [aligned(modelBytes, 256), aligned(new Uint8Array(0), 64), aligned(vocabBytes, 64)];
const vocabs = new Module.AlignedMemoryList();
vocabs.push_back(memories[2]);
const model = new Module.TranslationModel(config, memories[0], memories[1], vocabs, null);
vocabs.delete();
memories.forEach((memory) => memory.delete());
const out = [];
for (const line of lines) {
  const input = new Module.VectorString();
  const options = new Module.VectorResponseOptions();
  input.push_back(line.replace(/\r$/, ''));
  options.push_back({qualityScores: false, alignment: false, html: false});
  const responses = service.translate(model, input, options);
  input.delete();
  options.delete();
  const response = responses.get(0);
  const src = [], tgt = [];
  for (let i = 0; i < response.size(); i++) {
    const s = response.getSourceSentence(i), t = response.getTranslatedSentence(i);
    src.push([s.begin, s.end]);
    tgt.push([t.begin, t.end]);
  }
  out.push(JSON.stringify({text: response.getTranslatedText(), src, tgt}));
  responses.delete();
}
model.delete();
process.stdout.write(out.map((line) => line + '\n').join(''));
"""


def run_bergamot(model_bin, vocab, beam, lines, normalize=1.0, word_penalty=0.0, skip_cost=True):
    """Per line: (translated text, [source sentence bytes], [translated sentence text])."""
    with tempfile.TemporaryDirectory() as tmp:
        script, data = os.path.join(tmp, "bergamot_ranges.mjs"), os.path.join(tmp, "lines.txt")
        harness = json.dumps("file://" + os.path.join(HERE, "bergamot.mjs"))
        with open(script, "w") as f:
            f.write(NODE_SCRIPT % {"harness": harness})
        with open(data, "w", encoding="utf-8") as f:
            f.write("".join(line + "\n" for line in lines))
        out = subprocess.run(["node", script, model_bin, vocab, str(beam), repr(float(normalize)), repr(float(word_penalty)),
                              "true" if skip_cost else "false", data], check=True, capture_output=True,
                             cwd=TOP).stdout.decode("utf-8").splitlines()
    if len(out) != len(lines):
        sys.exit(f"Bergamot returned {len(out)} lines for {len(lines)}")
    results = []
    for line, record in zip(lines, map(json.loads, out)):
        source, target = line.encode("utf-8"), record["text"].encode("utf-8")
        results.append((record["text"], [source[b:e] for b, e in record["src"]],
                        [target[b:e].decode("utf-8") for b, e in record["tgt"]]))
    return results


def spm(tool, vocab, items, fmt):
    """spm_encode --output_format=id / spm_decode --input_format=id over many items at once."""
    text = "".join(item + "\n" for item in items)
    args = [tool, f"--model={vocab}", f"--{'output' if tool == 'spm_encode' else 'input'}_format={fmt}"]
    out = subprocess.run(args, input=text.encode("utf-8"), check=True, capture_output=True).stdout.decode("utf-8")
    got = out.split("\n")[:len(items)]
    if len(got) != len(items):
        sys.exit(f"{tool} returned {len(got)} lines for {len(items)}")
    return got


def encode(vocab, texts):
    return [[int(x) for x in line.split()] for line in spm("spm_encode", vocab, texts, "id")]


def decode(vocab, ids):
    return spm("spm_decode", vocab, [" ".join(map(str, s)) for s in ids], "id")


def batch_widths(lengths):
    """BatchingPool::generateBatch for one request's sentences: by length (then index), a batch grows while
    (size + 1)·length <= mini-batch-words. Returns each sentence's batch width (its longest length)."""
    order = sorted(range(len(lengths)), key=lambda i: (lengths[i], i))
    batches, current = [], []
    for i in order:
        if current and (len(current) + 1) * lengths[i] > MINI_BATCH_WORDS:
            batches.append(current)
            current = []
        current.append(i)
    if current:
        batches.append(current)
    width = [0] * len(lengths)
    for batch in batches:
        for i in batch:
            width[i] = max(lengths[j] for j in batch)
    return width


def explain(model, vocab, src, width, beam, ours, theirs_text, search):
    """Why our words differ from Bergamot's text: the float64 oracle's choice, and the margin at the first
    step where Bergamot's hypothesis (its text re-encoded) leaves our search, or at the final ranking."""
    eos = model.cfg.eos_id
    theirs = encode(vocab, [theirs_text])[0]
    notes = []
    if decode(vocab, [theirs])[0] != theirs_text:
        notes.append("Bergamot's text does not re-encode to itself; margins below are approximate")
    oracle, _ = marian_search(model, src, beam_size=beam, batch_width=width, dtype=torch.float64, **search)
    notes.append("float64 oracle picks " + ("ours" if oracle == ours else "Bergamot's" if oracle == theirs else
                                             "a third: " + decode(vocab, [oracle])[0]))
    limit = MAX_LENGTH_FACTOR * width
    their_eos = len(theirs) + 1 <= limit  # Bergamot's output ended with eos unless it hit the limit
    skip_cost, alpha, wp = search["skip_cost"], search["normalize"], search["word_penalty"]
    their_path = score_words(model, src, theirs, skip_cost=skip_cost, with_eos=their_eos)
    trace = []
    marian_search(model, src, beam_size=beam, batch_width=width, trace=trace, **search)
    for step in trace[:len(their_path)]:
        t = step["t"]
        prefix = (theirs + [eos])[:t + 1]
        kept = dict((tuple(w), s) for w, s in step["kept"])
        if tuple(prefix) not in kept:
            worst = min(s for _, s in step["kept"])
            notes.append(f"step {t}: Bergamot's prefix scores {their_path[t]:.7g} (float32 here), our beam's "
                         f"lowest kept {worst:.7g}: margin {worst - their_path[t]:.3g}")
            break
    else:  # Bergamot's hypothesis stayed in our beam to its end: the final ranking differs
        length = len(their_path)
        mine = score_words(model, src, ours, skip_cost=skip_cost, with_eos=len(ours) + 1 <= limit)
        ours_n = normalized_score(mine[-1], len(mine), alpha, wp)
        theirs_n = normalized_score(their_path[-1], length, alpha, wp)
        notes.append(f"both finished; normalized scores here: ours {ours_n:.7g}, Bergamot's {theirs_n:.7g}: "
                     f"margin {ours_n - theirs_n:.3g}")
    return notes


def changed_model(path, tie, unk_bias, folder):
    """A copy of the model file with tied tokens (--tie) or a raised unk bias (--unk-bias), in folder."""
    tensors, metadata = read_safetensors(path)
    tensors = {name: array.copy() for name, array in tensors.items()}
    cfg = load_model(path)[0].cfg
    bias = tensors.get("decoder.final_logits_bias")
    rows = [tensors[name] for name in ("encoder.embed_tokens.weight", "decoder.embed_tokens.weight",
                                       "decoder.output_projection.weight") if name in tensors]
    for pair in filter(None, tie.split(",")):
        a, b = (int(x) for x in pair.split(":"))
        for table in rows:
            table[b] = table[a]
        if bias is not None:
            bias[b] = bias[a]
    if unk_bias:
        if bias is None:
            sys.exit("--unk-bias needs a model with final_logits_bias")
        bias[cfg.unk_id] += unk_bias
    out = os.path.join(folder, "model.f32.safetensors")
    write_safetensors(out, tensors, metadata)
    return out


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("model", help="the Attend model file (f32 safetensors, Marian's architecture)")
    p.add_argument("marian_dir", help="folder with model.xxyy.bin and vocab.xxyy.spm (written from MODEL if absent)")
    p.add_argument("lines", nargs="?", type=int, default=0, help="compare the first LINES lines (default all)")
    p.add_argument("--beams", default="1,4", help="beam sizes to compare (default 1,4)")
    p.add_argument("--data", default=os.path.join(TOP, "..", "shared", "data", "multi30k", "test_2016_flickr.en.gz"))
    p.add_argument("--normalize", type=float, default=1.0, help="Bergamot's normalize (the worker's default 1.0)")
    p.add_argument("--word-penalty", type=float, default=0.0, help="word-penalty (the worker's default 0)")
    p.add_argument("--no-skip-cost", action="store_true", help="skip-cost false (log-softmax scores; the worker's "
                   "setting with a QE model)")
    p.add_argument("--tie", default="", help="A:B,...: token B copies token A's embedding and bias (exact ties)")
    p.add_argument("--unk-bias", type=float, default=0.0, help="add this to unk's logit bias (suppression test)")
    p.add_argument("--no-explain", action="store_true", help="list differing lines without the float64 analysis")
    args = p.parse_args()

    tmp = tempfile.TemporaryDirectory()
    if args.tie or args.unk_bias:
        args.model = changed_model(args.model, args.tie, args.unk_bias, tmp.name)
        args.marian_dir = os.path.join(tmp.name, "marian")
    float_bins = lambda: [path for path in glob.glob(os.path.join(args.marian_dir, "model.*.bin"))
                          if re.fullmatch(r"model\.[a-z]+\.bin", os.path.basename(path))]  # not *.intgemm*.bin
    bins = float_bins()
    if not bins:
        subprocess.run([sys.executable, os.path.join(TOP, "training", "export_marian.py"), args.model,
                        "--out", args.marian_dir], check=True)
        bins = float_bins()
    vocabs = glob.glob(os.path.join(args.marian_dir, "vocab.*.spm"))
    if len(bins) != 1 or len(vocabs) != 1:
        sys.exit(f"{args.marian_dir}: want one model.*.bin and one vocab.*.spm, found {bins} {vocabs}")
    model_bin, vocab = bins[0], vocabs[0]

    opener = gzip.open if args.data.endswith(".gz") else open
    with opener(args.data, "rt", encoding="utf-8") as f:
        lines = f.read().split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    if args.lines:
        lines = lines[:args.lines]

    torch.set_num_threads(1)
    model, _ = load_model(args.model)
    eos = model.cfg.eos_id
    all_same = True
    search = dict(normalize=args.normalize, word_penalty=args.word_penalty, skip_cost=not args.no_skip_cost)
    for beam in [int(b) for b in args.beams.split(",")]:
        bergamot = run_bergamot(model_bin, vocab, beam, lines, args.normalize, args.word_penalty, not args.no_skip_cost)
        sentences = [s.decode("utf-8") for _, srcs, _ in bergamot for s in srcs]
        ids = [s + [eos] for s in encode(vocab, sentences)]
        words, widths, k = [], [], 0
        for _, srcs, _ in bergamot:
            line_ids = ids[k:k + len(srcs)]
            k += len(srcs)
            if any(len(s) > MAX_LENGTH_BREAK for s in line_ids):
                sys.exit("a sentence longer than max-length-break: Bergamot wraps it, not handled here")
            widths.extend(batch_widths([len(s) for s in line_ids]))
        for src, width in zip(ids, widths):
            words.append(marian_search(model, src, beam_size=beam, batch_width=width, **search)[0])
        texts = decode(vocab, words)
        same, differing, k = 0, [], 0
        for n, (line, (text, srcs, tgts)) in enumerate(zip(lines, bergamot)):
            mine = texts[k:k + len(srcs)]
            if mine == tgts:
                same += 1
            else:
                differing.append((n, [(k + i, m, t) for i, (m, t) in enumerate(zip(mine, tgts)) if m != t]))
            k += len(srcs)
        multi = sum(len(srcs) > 1 for _, srcs, _ in bergamot)
        print(f"beam {beam}: {same}/{len(lines)} lines identical ({multi} of them split into several sentences)")
        for n, diffs in differing:
            print(f"  line {n + 1}: {lines[n]}")
            for i, mine, theirs in diffs:
                print(f"    ours:     {mine}\n    Bergamot: {theirs}")
                if not args.no_explain:
                    for note in explain(model, vocab, ids[i], widths[i], beam, words[i], theirs, search):
                        print(f"    - {note}")
        all_same &= not differing
    sys.exit(0 if all_same else 1)


if __name__ == "__main__":
    main()
