#!/usr/bin/python3
"""Trains an Attend model on Multi30k end to end and exports it.

  /usr/bin/python3 training/train.py --pair en-de --out runs/en-de

Steps: (with --distill-from, a trained model's translations of the training source, or several models'
consensus, or with --distill-rerank-with their reranked best, added to the training pairs; with --back-translate-from, a reverse model's translations of
the training target; with --pivot-from, a model's translations of the training set's third language into the source)
-> SentencePiece vocabulary (spm_train; with --init-from, the model file's) -> (with --subword-alpha,
new segmentations of the training text every epoch) -> length-bucketed batches -> Adam (β2 0.98)
with linear warm-up and cosine decay to zero at --max-steps -> label smoothing 0.1 -> checkpoints
(resumable) -> average of the last checkpoints -> model files (f32 and int8) in --out.
--init-from MODEL fine-tunes: the run starts from an Attend model file's weights (int8 ones dequantized),
with its architecture and vocabulary, and a fresh optimizer (warm-up and decay as for a new run).
--workers N trains data-parallel in N processes (a step is one batch per worker, gradients summed).
"""
import argparse
import glob
import json
import math
import os
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from attend_ref import distill, openblas  # noqa: E402  (neither imports torch)

DEFAULT_THREADS = 2
# The options a run directory may be resumed with other values of: where the data is, how fast to
# go, and when to stop (--max-steps only with --schedule inverse-sqrt: a cosine decay reaches zero
# at --max-steps, so going on past it would restart the decay from mid-height on a settled run).
# Resumed with any other option changed, or another teacher file behind the same path, a run would
# mix two recipes (or train on its old vocabulary, or, at its last step, train nothing) and be
# labelled with the new one.
RESUMABLE_CHANGES = ("out", "data_dir", "threads", "time_budget_min")


def _limit_blas_threads():
    """OpenBLAS runs its own thread pool beside torch's OpenMP one. Without a limit, --threads 1
    still kept two OpenBLAS threads spinning per process; with --threads 2, OpenMP's idle threads
    spinning between parallel regions starved OpenBLAS's (bench/train_step.py --threads 2:
    1.68 s per step, 1.02 s with a passive wait). Must be set before torch is imported."""
    pre = argparse.ArgumentParser(add_help=False)
    pre.add_argument("--threads", type=int, default=DEFAULT_THREADS)
    threads = str(pre.parse_known_args()[0].threads)
    os.environ["OPENBLAS_NUM_THREADS"] = os.environ["OMP_NUM_THREADS"] = threads
    os.environ.setdefault("OMP_WAIT_POLICY", "PASSIVE")
    openblas.choose_core()


_limit_blas_threads()
import torch  # noqa: E402

from attend_ref import data, data_parallel  # noqa: E402
from attend_ref.config import ModelConfig  # noqa: E402
from attend_ref.export import checked_languages, export_model, load_model, read_safetensors  # noqa: E402
from attend_ref.loss import smoothed_cross_entropy  # noqa: E402
from attend_ref.model import Transformer  # noqa: E402


def parse_args(argv=None):
    p = argument_parser()
    args = p.parse_args(argv)
    if args.workers < 1:
        p.error("--workers must be at least 1")
    for option, layers in (("--layers", args.layers), ("--encoder-layers", args.encoder_layers),
                           ("--decoder-layers", args.decoder_layers)):
        if layers is not None and layers < 1:
            p.error(f"{option} must be at least 1, got {layers}")
    if not 1 <= args.back_translate_nbest <= distill.TEACHER_BEAM:
        p.error(f"--back-translate-nbest must be from 1 to {distill.TEACHER_BEAM} (the beam), "
                f"got {args.back_translate_nbest}")
    if args.back_translate_nbest > 1 and not args.back_translate_from:
        p.error("--back-translate-nbest needs --back-translate-from")
    if bool(args.pivot_from) != bool(args.pivot_lang):
        p.error("--pivot-from and --pivot-lang go together")
    try:
        checked_languages(args.pair)  # the model file names them
    except ValueError as error:
        p.error(str(error))
    if args.pivot_lang and args.pivot_lang in args.pair.split("-"):
        p.error(f"--pivot-lang must be a third language, not one of the pair's ({args.pair}), got {args.pivot_lang}")
    if args.distill_rerank_with and not args.distill_from:
        p.error("--distill-rerank-with needs --distill-from")
    if not math.isfinite(args.distill_rerank_weight) or args.distill_rerank_weight < 0:
        p.error(f"--distill-rerank-weight must be a finite number >= 0, got {args.distill_rerank_weight}")
    if args.vocab_from and args.init_from:
        p.error("--vocab-from and --init-from exclude each other (--init-from takes the model's vocabulary too)")
    if args.subword_nbest == 0 or args.subword_nbest < -1:
        p.error(f"--subword-nbest must be a count of segmentations or -1 (all of them), got {args.subword_nbest}")
    if args.workers > 1 and args.time_budget_min > 0:
        p.error("--time-budget-min needs --workers 1 (workers would stop at different steps)")
    return args


def argument_parser():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--pair", default="en-de", help="source-target, e.g. en-de, en-fr, de-en")
    p.add_argument("--data-dir", default=os.path.join(os.path.dirname(__file__), "../../shared/data/multi30k"))
    p.add_argument("--out", required=True, help="run directory: vocabulary, checkpoints, model files")
    p.add_argument("--vocab-size", type=int, default=8000)
    p.add_argument("--separate-vocab", action="store_true", help="one vocabulary per language (default: joint)")
    p.add_argument("--d-model", type=int, default=128)
    p.add_argument("--heads", type=int, default=4)
    p.add_argument("--d-ff", type=int, default=512)
    p.add_argument("--layers", type=int, default=4, help="encoder and decoder layers each")
    p.add_argument("--encoder-layers", type=int, help="encoder layers, instead of --layers")
    p.add_argument("--decoder-layers", type=int, help="decoder layers, instead of --layers")
    p.add_argument("--activation", choices=("relu", "swish"), default="relu", help="the FFN's activation")
    p.add_argument("--marian", action="store_true",
                   help="the architecture and vocabulary as Marian writes them (docs/marian.md): positions sin | cos, "
                        "a zero vector as the decoder's first input, LayerNorm eps 1e-6, an output bias, "
                        "SentencePiece ids eos 0, unk 1 and no bos or pad; for training/export_marian.py")
    p.add_argument("--decoder-autoreg", choices=("self_attention", "ssru"), default="self_attention",
                   help="the decoder's self-attention, or Marian's SSRU in its place (Firefox Translations' students)")
    p.add_argument("--dropout", type=float, default=0.1)
    p.add_argument("--label-smoothing", type=float, default=0.1)
    p.add_argument("--subword-alpha", type=float, default=0.0,
                   help="subword regularization: every epoch draws new segmentations of the training text, "
                        "smoothed by this alpha (smaller = more varied; 0: always the most likely one)")
    p.add_argument("--subword-nbest", type=int, default=64,
                   help="with --subword-alpha: draw from this many most likely segmentations of each line "
                        "(-1: from all of them, which at alpha 0.1 cuts the text nearly into characters)")
    p.add_argument("--distill-from", metavar="MODEL", nargs="+",
                   help="sequence-level distillation: also train on this Attend model's beam-5 translations of the "
                        "training source; with several models, on their consensus (MBR over their n-best lists, "
                        "attend_ref/distill.py)")
    p.add_argument("--distill-rerank-with", metavar="MODEL",
                   help="distillation: choose each source's translation from the --distill-from models' n-best lists "
                        "by their mean score plus --distill-rerank-weight x this reverse model's score of the source "
                        "given the translation (attend_ref/distill.py), instead of by consensus")
    p.add_argument("--distill-rerank-weight", metavar="W", type=float, default=distill.DEFAULT_RERANK_WEIGHT,
                   help="the reverse model's weight for --distill-rerank-with")
    p.add_argument("--back-translate-from", metavar="MODEL",
                   help="back-translation: also train on this Attend model's beam-5 translations of the training "
                        "target as sources of that target (MODEL translates the other way, e.g. de-en for en-de)")
    p.add_argument("--back-translate-nbest", metavar="N", type=int, default=1,
                   help="back-translation: the N best distinct beam-5 translations of each target, each a source "
                        "of it (1 to 5)")
    p.add_argument("--pivot-from", metavar="MODEL",
                   help="pivot translation: also train on this Attend model's beam-5 translations of the training "
                        "set's --pivot-lang side as sources of its targets (MODEL translates that third language into "
                        "the source language, e.g. models/de-en for en-fr: new wordings of the same sources)")
    p.add_argument("--pivot-lang", metavar="LANG",
                   help="with --pivot-from: the training set's third language (de for en-fr, fr for en-de)")
    p.add_argument("--init-from", metavar="MODEL",
                   help="fine-tuning: start from this Attend model file's weights, architecture and vocabulary "
                        "(--d-model, --heads, --d-ff, the layers, --vocab-size and --separate-vocab must match it)")
    p.add_argument("--vocab-from", metavar="MODEL",
                   help="a new model (random weights) over this Attend model file's vocabulary instead of one trained "
                        "here, so that the two can decode as an ensemble (--vocab-size and --separate-vocab must match it)")
    p.add_argument("--max-tokens", type=int, default=2500, help="tokens per batch (padding included)")
    p.add_argument("--lr", type=float, default=1.5e-3, help="peak learning rate")
    p.add_argument("--warmup", type=int, default=800)
    p.add_argument("--schedule", choices=("cosine", "inverse-sqrt"), default="cosine",
                   help="decay after the warm-up (cosine reaches zero at --max-steps)")
    p.add_argument("--max-steps", type=int, default=6500)
    p.add_argument("--time-budget-min", type=float, default=0, help="stop after this many minutes (0: none)")
    p.add_argument("--checkpoint-every", type=int, default=200)
    p.add_argument("--average-last", type=int, default=5)
    p.add_argument("--threads", type=int, default=DEFAULT_THREADS, help="threads of each worker")
    p.add_argument("--workers", type=int, default=1,
                   help="data-parallel processes; a step trains one batch on each (see attend_ref/data_parallel.py)")
    p.add_argument("--seed", type=int, default=1234)
    return p


def model_config(args, src_vocab_size, tgt_vocab_size):
    """The architecture --d-model/--heads/--d-ff/--layers (or --encoder-layers, --decoder-layers)
    describe, over the given vocabularies (one joint vocabulary, shared by both embeddings and the
    output layer, unless --separate-vocab)."""
    shared = not args.separate_vocab
    marian = dict(positions="sinusoidal_half", decoder_start="zeros", layer_norm_eps=1e-6,
                  final_logits_bias=True) if args.marian else {}
    return ModelConfig(src_vocab_size=src_vocab_size, tgt_vocab_size=tgt_vocab_size, d_model=args.d_model,
                       num_heads=args.heads, d_ff=args.d_ff, encoder_layers=encoder_layers(args),
                       decoder_layers=decoder_layers(args), activation=args.activation,
                       decoder_autoreg=args.decoder_autoreg, shared_vocab=shared, share_embeddings=shared,
                       tie_output=True, **marian, **special_ids(args))


def special_ids(args):
    return data.MARIAN_IDS if args.marian else data.SPECIAL_IDS


def encoder_layers(args):
    return args.layers if args.encoder_layers is None else args.encoder_layers


def decoder_layers(args):
    return args.layers if args.decoder_layers is None else args.decoder_layers


def model_file_setup(path):
    """(config, tokenizer bytes {"src": ..., "tgt": ...}) of an Attend model file."""
    tensors, metadata = read_safetensors(path)
    tokenizers = {side: tensors[f"tokenizer.{side}"].tobytes() for side in ("src", "tgt") if f"tokenizer.{side}" in tensors}
    return ModelConfig.from_json(metadata["attend.config"]), tokenizers


def check_model_file(args, cfg, option, path):
    """Exits if the model file given to `option` does not fit the options: its vocabulary (size,
    joint or separate, special ids) always, its whole architecture for --init-from."""
    joint = lambda separate: "separate vocabularies" if separate else "one joint vocabulary"
    wanted = {"--vocab-size": (args.vocab_size, cfg.src_vocab_size)}
    if option == "--init-from":
        wanted |= {"--d-model": (args.d_model, cfg.d_model), "--heads": (args.heads, cfg.num_heads),
                   "--d-ff": (args.d_ff, cfg.d_ff), "--encoder-layers": (encoder_layers(args), cfg.encoder_layers),
                   "--decoder-layers": (decoder_layers(args), cfg.decoder_layers)}
    if cfg.src_vocab_size != cfg.tgt_vocab_size:
        sys.exit(f"{path}: {option} takes models with one vocabulary size")
    if any(getattr(cfg, name) != value for name, value in special_ids(args).items()):
        sys.exit(f"{path}: {option} takes models whose special ids are {special_ids(args)}")
    differ = [f"{name} {given} (the model's: {own})" for name, (given, own) in wanted.items() if given != own]
    if args.separate_vocab == cfg.shared_vocab:
        differ.append(f"{joint(args.separate_vocab)} (the model has {joint(not cfg.shared_vocab)})")
    if differ:
        sys.exit(f"{path} is not what the options ask for: {', '.join(differ)}")


def write_vocabularies(args, src_lang, tgt_lang, tokenizers, source):
    """The SentencePiece models of the model file `source` (--init-from or --vocab-from), written to --out (kept there for a resumed run);
    returns their paths (src, tgt)."""
    names = {"src": f"spm.{src_lang}{tgt_lang}.model"} if "tgt" not in tokenizers else {
        "src": f"spm.{src_lang}.model", "tgt": f"spm.{tgt_lang}.model"}
    paths = {side: os.path.join(args.out, name) for side, name in names.items()}
    for side, path in paths.items():
        if not os.path.exists(path):
            with open(path, "wb") as f:
                f.write(tokenizers[side])
        elif read_bytes(path) != tokenizers[side]:
            sys.exit(f"{path} is another vocabulary than {source}'s; use another --out")
    return paths["src"], paths.get("tgt", paths["src"])


def read_bytes(path):
    with open(path, "rb") as f:
        return f.read()


def prepare_data(args, src_lang, tgt_lang):
    """Vocabulary (trained once, or the --init-from or --vocab-from model's; reused on resume) and the corpus: (spm
    models (src, tgt), training texts (src, tgt), training pairs, val pairs), the pairs in their most
    likely segmentation."""
    os.makedirs(args.out, exist_ok=True)
    refuse_other_recipe(args)
    vocab_option, vocab_source = ("--init-from", args.init_from) if args.init_from else ("--vocab-from", args.vocab_from)
    if vocab_source:  # before any teacher translates
        cfg, tokenizers = model_file_setup(vocab_source)
        check_model_file(args, cfg, vocab_option, vocab_source)
    train_src = data.read_lines(data.corpus_path(args.data_dir, "train", src_lang))
    train_tgt = data.read_lines(data.corpus_path(args.data_dir, "train", tgt_lang))
    added_src, added_tgt = [], []
    if args.distill_from:
        cache = os.path.join(args.out, f"train.distilled.{tgt_lang}")
        added_src += train_src
        added_tgt += distill.teacher_translations(args.distill_from, train_src, cache, rerank_with=args.distill_rerank_with,
                                                  rerank_weight=args.distill_rerank_weight)
    if args.back_translate_from:
        cache = os.path.join(args.out, f"train.back-translated.{src_lang}")
        back_translations = distill.distinct_translations(args.back_translate_from, train_tgt, cache,
                                                          args.back_translate_nbest)
        for target, sources in zip(train_tgt, back_translations):
            added_src += sources
            added_tgt += [target] * len(sources)
    if args.pivot_from:
        cache = os.path.join(args.out, f"train.pivot-translated.{src_lang}")
        pivot = data.read_lines(data.corpus_path(args.data_dir, "train", args.pivot_lang))
        added_src += distill.teacher_translations([args.pivot_from], pivot, cache)
        added_tgt += train_tgt
    train_src, train_tgt = train_src + added_src, train_tgt + added_tgt
    if vocab_source:
        src_model, tgt_model = write_vocabularies(args, src_lang, tgt_lang, tokenizers, vocab_source)
    elif args.separate_vocab:
        spm = {lang: os.path.join(args.out, f"spm.{lang}") for lang in (src_lang, tgt_lang)}
        for lang, texts in ((src_lang, train_src), (tgt_lang, train_tgt)):
            if not os.path.exists(spm[lang] + ".model"):
                data.train_spm(spm[lang], texts, args.vocab_size, ids=special_ids(args))
        src_model, tgt_model = spm[src_lang] + ".model", spm[tgt_lang] + ".model"
    else:
        prefix = os.path.join(args.out, f"spm.{src_lang}{tgt_lang}")
        if not os.path.exists(prefix + ".model"):
            data.train_spm(prefix, train_src + train_tgt, args.vocab_size, ids=special_ids(args))
        src_model = tgt_model = prefix + ".model"
    val_src = data.read_lines(data.corpus_path(args.data_dir, "val", src_lang))
    val_tgt = data.read_lines(data.corpus_path(args.data_dir, "val", tgt_lang))
    models, train_texts, eos = (src_model, tgt_model), (train_src, train_tgt), special_ids(args)["eos_id"]
    return models, train_texts, encode_pairs(models, train_texts, eos=eos), encode_pairs(models, (val_src, val_tgt), eos=eos)


def model_file_digests(args):
    """{path: SHA-256} of the --distill-from, --distill-rerank-with, --back-translate-from, --pivot-from, --init-from
    and --vocab-from model files (saved as config.json's "teachers")."""
    paths = (args.distill_from or []) + [path for path in (args.distill_rerank_with, args.back_translate_from,
                                                           args.pivot_from, args.init_from, args.vocab_from) if path]
    return {path: distill.file_sha256(path) for path in paths}


def refuse_other_recipe(args):
    """Exits if --out holds a run started with other options than args (but RESUMABLE_CHANGES; an
    option newer than the run counts as its default), or with other contents of its model files."""
    path = os.path.join(args.out, "config.json")
    if not os.path.exists(path):
        return
    with open(path, encoding="utf-8") as f:
        saved_config = json.load(f)
    saved = saved_config["train"]
    resumable = RESUMABLE_CHANGES + (("max_steps",) if args.schedule == "inverse-sqrt" else ())
    defaults = argument_parser()
    was_set = {name: saved.get(name, defaults.get_default(name)) for name in vars(args)}
    changed = [name for name, value in vars(args).items() if name not in resumable and was_set[name] != value]
    if changed:
        was = ", ".join(f"--{name.replace('_', '-')} {was_set[name]}" for name in changed)
        sys.exit(f"{args.out} holds a run started with other options ({was}); resume it with those, or use another --out")
    saved_teachers = saved_config.get("teachers", {})
    replaced = [path for path, digest in model_file_digests(args).items() if saved_teachers.get(path, digest) != digest]
    if replaced:
        sys.exit(f"{args.out} holds a run trained on other contents of {', '.join(replaced)} (the file changed since); "
                 "use another --out")


def encode_pairs(models, texts, sample_alpha=0.0, seed=0, nbest=64, eos=data.SPECIAL_IDS["eos_id"]):
    """(src ids + eos, tgt ids) of parallel texts; sample_alpha > 0 draws the segmentations (data.encode)."""
    (src_model, tgt_model), (src, tgt) = models, texts
    return list(zip([s + [eos] for s in data.encode(src_model, src, sample_alpha, seed, nbest)],
                    data.encode(tgt_model, tgt, sample_alpha, seed, nbest)))


def learning_rate(step, args):
    """Linear warm-up to --lr over --warmup steps, then
      cosine:       lr·(1 + cos(π·(step - warmup) / (max_steps - warmup))) / 2, zero at --max-steps;
      inverse-sqrt: lr·sqrt(warmup / step) (the paper's schedule with the peak set directly)."""
    step = max(step, 1)
    if step < args.warmup:
        return args.lr * step / args.warmup
    if args.schedule == "inverse-sqrt":
        return args.lr * math.sqrt(args.warmup / step)
    progress = min((step - args.warmup) / max(args.max_steps - args.warmup, 1), 1.0)
    return args.lr * 0.5 * (1.0 + math.cos(math.pi * progress))


def train_step(model, optimizer, batch, label_smoothing, distributed=False):
    """One update on batch (src, tgt_in, tgt_out): per-token loss, gradient clipped to norm 1, Adam.
    distributed: the update is on the union of every worker's batch. Returns the summed loss and the
    number of target tokens (of all workers' batches)."""
    loss, tokens = smoothed_cross_entropy(model, *batch, label_smoothing)
    optimizer.zero_grad(set_to_none=True)
    if distributed:
        loss.backward()
        loss, tokens = data_parallel.sum_gradients(model, loss, tokens)
    else:
        (loss / tokens).backward()
    torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
    optimizer.step()
    return loss, tokens


@torch.no_grad()
def validation_loss(model, val_batches):
    model.eval()
    total, tokens = 0.0, 0
    for batch in val_batches:
        loss, n = smoothed_cross_entropy(model, *batch, 0.0)
        total, tokens = total + float(loss), tokens + n
    model.train()
    return total / max(tokens, 1)


def checkpoint_step(path):
    return int(path.rsplit("_", 1)[1][:-3])


def checkpoints(out):
    return sorted(glob.glob(os.path.join(out, "checkpoint_*.pt")), key=checkpoint_step)


def average_checkpoints(paths):
    states = [torch.load(p, map_location="cpu")["model"] for p in paths]
    return {k: sum(s[k] for s in states) / len(states) if states[0][k].is_floating_point() else states[-1][k]
            for k in states[0]}


def format_eta(seconds):
    seconds = int(max(seconds, 0))
    return f"{seconds // 3600}:{seconds // 60 % 60:02d}:{seconds % 60:02d}"


def main():
    args = parse_args()
    prepared = prepare_data(args, *args.pair.split("-"))
    data_parallel.run_workers(train, args.workers, (args, prepared))


def train(rank, workers, args, prepared):
    """The training loop of worker `rank` of `workers`; worker 0 also reports, validates, checkpoints
    and exports."""
    lead = rank == 0
    report = (lambda *a: print(*a, file=sys.stderr, flush=True)) if lead else (lambda *a: None)
    torch.manual_seed(args.seed)
    torch.set_num_threads(args.threads)
    models, train_texts, pairs, val = prepared
    src_model, tgt_model = models
    if args.init_from:
        initial, _ = load_model(args.init_from)  # int8 weights dequantized
        cfg = initial.cfg
    elif args.vocab_from:
        vocab_cfg, _ = model_file_setup(args.vocab_from)
        cfg = model_config(args, vocab_cfg.src_vocab_size, vocab_cfg.tgt_vocab_size)
    else:
        vocab = lambda path: sum(1 for _ in open(path.replace(".model", ".vocab"), encoding="utf-8"))
        cfg = model_config(args, vocab(src_model), vocab(tgt_model))
    model = Transformer(cfg, dropout=args.dropout)  # the same initial weights in every worker
    if args.init_from:
        model.load_state_dict(initial.state_dict())
    optimizer = torch.optim.Adam(model.parameters(), lr=args.lr, betas=(0.9, 0.98), eps=1e-9)
    if workers > 1:
        torch.manual_seed(args.seed + 1 + rank)  # but each its own dropout masks
    step, epoch, done_in_epoch = resume(args, model, optimizer, rank, workers, report)
    first_step = step
    if lead:
        with open(os.path.join(args.out, "config.json"), "w") as f:
            json.dump({"model": json.loads(cfg.to_json()), "train": vars(args), "teachers": model_file_digests(args)},
                      f, indent=1)
    n_params = sum(p.numel() for p in model.parameters())
    report(f"{args.pair}: {len(pairs)} pairs, vocab {cfg.src_vocab_size}/{cfg.tgt_vocab_size}, "
           f"{n_params / 1e6:.2f}M parameters, {workers} worker(s) x {args.threads} thread(s)")
    val_batches = data.make_batches(val, 4000, seed=0, ids=special_ids(args))

    def checkpoint():  # collective: every worker's random state goes into the checkpoint
        rng = data_parallel.gather_rng_states() if workers > 1 else torch.get_rng_state()
        if lead:
            save_checkpoint(args, model, optimizer, step, epoch, done_in_epoch, rng)

    model.train()
    started, window_tokens, window_start = time.time(), 0, time.time()
    deadline = started + args.time_budget_min * 60 if args.time_budget_min > 0 else math.inf
    running = lambda: step < args.max_steps and time.time() < deadline
    while running():
        epoch_pairs = pairs if args.subword_alpha <= 0 else encode_pairs(  # the same in every worker
            models, train_texts, args.subword_alpha, seed=args.seed + epoch, nbest=args.subword_nbest,
            eos=special_ids(args)["eos_id"])
        batches = data.make_batches(epoch_pairs, args.max_tokens, seed=args.seed + epoch, ids=special_ids(args))
        while done_in_epoch + workers <= len(batches) and running():
            step += 1
            lr = learning_rate(step, args)
            for group in optimizer.param_groups:
                group["lr"] = lr
            loss, tokens = train_step(model, optimizer, batches[done_in_epoch + rank], args.label_smoothing,
                                      distributed=workers > 1)
            done_in_epoch += workers
            window_tokens += tokens
            if step % 50 == 0:
                now = time.time()
                rate = window_tokens / (now - window_start)
                remaining = min((args.max_steps - step) * (now - started) / max(step - first_step, 1),
                                deadline - now)
                report(f"step {step}/{args.max_steps} epoch {epoch} | {rate:,.0f} tgt tok/s | "
                       f"loss {float(loss) / tokens:.3f} | lr {lr:.2e} | eta {format_eta(remaining)}")
                window_tokens, window_start = 0, now
            if step % args.checkpoint_every == 0:
                checkpoint()
        if done_in_epoch + workers > len(batches):  # the epoch's batches are used up (a last few < workers skipped)
            epoch, done_in_epoch = epoch + 1, 0
            if lead:
                report(f"epoch {epoch} done at step {step}: val loss {validation_loss(model, val_batches):.3f}")
    checkpoint()
    if lead:
        export(args, cfg, model, val_batches, src_model, tgt_model)
        report(f"trained {step} steps, {epoch} epochs in {format_eta(time.time() - started)}")


def resume(args, model, optimizer, rank, workers, report):
    """Restores the newest checkpoint in --out, if any; returns (step, epoch, batches done in the epoch)."""
    existing = checkpoints(args.out)
    if not existing:
        return 0, 0, 0
    state = torch.load(existing[-1], map_location="cpu")  # from a run with these --workers (refuse_other_recipe)
    model.load_state_dict(state["model"])
    optimizer.load_state_dict(state["optimizer"])
    torch.set_rng_state(state["rng"][rank] if workers > 1 else state["rng"])
    report(f"resumed from {existing[-1]} at step {state['step']}")
    return state["step"], state["epoch"], state.get("done_in_epoch", 0)


def export(args, cfg, model, val_batches, src_model, tgt_model):
    """Averages the last --average-last checkpoints into model and writes the f32 and int8 model files."""
    final = checkpoints(args.out)[-args.average_last:]
    model.load_state_dict(average_checkpoints(final))
    print(f"averaged {len(final)} checkpoints; val loss {validation_loss(model, val_batches):.3f}", file=sys.stderr)
    model.eval()
    src_bytes = open(src_model, "rb").read()
    tgt_bytes = None if cfg.shared_vocab else open(tgt_model, "rb").read()
    for dtype in ("f32", "int8"):
        path = os.path.join(args.out, f"model.{dtype}.safetensors")
        export_model(model, path, src_bytes, tgt_bytes, dtype, languages=args.pair,
                     text_rules=None if args.marian else "caption")
        print(f"wrote {path} ({os.path.getsize(path) / 1e6:.2f} MB)", file=sys.stderr)


def save_checkpoint(args, model, optimizer, step, epoch, done_in_epoch, rng):
    """Everything a resumed run needs to continue where this one stopped (same batches next);
    rng: the random state, or a list of every worker's. Written whole or not at all (a run killed
    while saving leaves the previous checkpoint newest). Keeps the last --average-last; one saved
    between two --checkpoint-every steps (a --time-budget-min stop) is kept only while it is the
    newest, so a stopped and resumed run averages the checkpoints an uninterrupted one would."""
    path = os.path.join(args.out, f"checkpoint_{step}.pt")
    torch.save({"model": model.state_dict(), "optimizer": optimizer.state_dict(), "step": step, "epoch": epoch,
                "done_in_epoch": done_in_epoch, "rng": rng}, path + ".tmp")
    os.replace(path + ".tmp", path)
    for old in checkpoints(args.out)[:-1]:
        if checkpoint_step(old) % args.checkpoint_every != 0:
            os.remove(old)
    for old in checkpoints(args.out)[: -max(args.average_last, 1)]:
        os.remove(old)


if __name__ == "__main__":
    main()
