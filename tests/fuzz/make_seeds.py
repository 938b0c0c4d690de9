"""Seed corpora for the fuzz targets, from the tiny-model fixture: the model file's header
(and a libFuzzer dictionary of its JSON strings), the SentencePiece models, sentences to
translate, samples of what the text parsers read, Marian .bin files (read, and imported) and
Marian shortlists.
    make_seeds.py FIXTURE_DIR OUT_DIR"""
import gzip
import json
import pathlib
import random
import struct
import sys

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[2] / "training"))
from attend_ref.marian_binary import FLOAT32, INT8, INTGEMM8, marian_binary, model_yml_item  # noqa: E402
from attend_ref.marian_shortlist import shortlist_bytes  # noqa: E402
from attend_ref.marian_export import vocab_yml  # noqa: E402
from attend_ref.marian_npz import marian_npz, npy_header  # noqa: E402


def write(path, data):
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(data)


def header_seeds(model, out):
    blob = model.read_bytes()
    (length,) = struct.unpack("<Q", blob[:8])
    header = blob[8:8 + length]
    write(out / "model_header" / "tiny.int8.json", header)
    parsed = json.loads(header)
    config = json.loads(parsed.get("__metadata__", {}).get("attend.config", "{}"))
    # Dictionary tokens: the header's strings quoted as JSON, the config's as escaped inside its
    # JSON string, and a few values a parser must weigh.
    tokens = {json.dumps(s) for s in json_strings(parsed)}
    tokens |= {json.dumps(s).replace('"', '\\"') for s in json_strings(config)}
    tokens |= {"-1", "0", "1e309", "NaN", "[]", "{}", "null", "true", '"F16"', '"I32"'}
    (out / "model_header.dict").write_text("".join(f"{json.dumps(t)}\n" for t in sorted(tokens)))


def json_strings(node):
    """The keys and short string values of a parsed JSON document."""
    if isinstance(node, dict):
        for key, value in node.items():
            yield key
            yield from json_strings(value)
    elif isinstance(node, list):
        for value in node:
            yield from json_strings(value)
    elif isinstance(node, str) and len(node) < 64:
        yield node


def html_seeds(out, sentences):
    """HTML fragments (the html fuzzer; a first byte 'T' also translates them) and a dictionary of markup."""
    words = sentences[0].split()
    marked = " ".join(["<b>" + words[0] + "</b>"] + words[1:-1] + ['<a href="/x?a=1&amp;b">' + words[-1] + "</a>"])
    fragments = {
        "inline": "<p>" + marked + "</p>\n<ul><li>" + sentences[1] + "</li></ul>",
        "nested": "<div><p>A <b>red <i>car</i> drives</b> past.<br>" + sentences[2] + " <img src=x> &amp; &#233;</p></div>",
        "raw": "<script>if (a < b) x = '</p>';</script><style>p > b {}</style><!-- c --><pre> x </pre><p>t <code>ls</code></p>",
        "malformed": "<b>x<i>y</b>z</i></q><p>a < b <a href='x",
        "pass_through": "<p>" + words[0] + " <b>\U0001F600 2024</b> " + " ".join(words[1:]) + " <i>北京</i>. 12 " + sentences[1] + "</p>",
    }
    for name, html in fragments.items():
        write(out / "html" / name, html.encode())
        write(out / "html" / ("translate_" + name), ("T" + html).encode())
    tokens = ["<p>", "</p>", "<b>", "</b>", "<i>", "</i>", "<a href=\"x\">", "</a>", "<br>", "<img src=x>", "<li>", "<ul>",
              "<!--", "-->", "<script>", "</script>", "<style>", "<code>", "</code>", "<pre>", "<template>", "&amp;",
              "&lt;", "&nbsp;", "&#x", "&#", ";", "<!DOCTYPE html>", "</", "/>", "=\"", "'"]
    (out / "html.dict").write_text("".join(f"{json.dumps(t)}\n" for t in tokens))


def document_seeds(out):
    """The splitting corpus's texts (tests/data/real_text/splitting.json), each with ICU's breaks
    (first byte 0) and with breaks read from its own bytes (1)."""
    corpus = pathlib.Path(__file__).resolve().parents[1] / "data" / "real_text" / "splitting.json"
    for index, case in enumerate(json.loads(corpus.read_text(encoding="utf-8"))):
        for choice in (0, 1):
            write(out / "document" / f"case{index}_{choice}", bytes([choice]) + case["text"].encode())


def marian_seeds(out):
    """Small Marian .bin files: float32 and intgemm8 items (the multiplier after the int8 values)
    and the model.yml item."""
    embedding = ("Wemb", FLOAT32, [2, 3], struct.pack("<6f", 1, 2, 3, 4, 5, 6))
    quantized = ("decoder_l1_rnn_W", INTGEMM8, [3, 2], bytes([1, 127, 129, 0, 5, 6]) + struct.pack("<f", 0.5))
    yml = model_yml_item("type: transformer\ndim-emb: 256\ndec-cell: ssru\n")
    write(out / "marian_binary" / "float32", marian_binary([embedding]))
    write(out / "marian_binary" / "intgemm8_yml", marian_binary([embedding, quantized, yml]))



def opus_seeds(out):
    """OPUS-MT's files: a small .npz as Marian's cnpy writes it (marian_npz_fuzzer's byte 0: as it is),
    its entries for the fuzzer to zip (byte 1 stored, 3 deflated), and vocab.yml texts."""
    embedding = ("Wemb", FLOAT32, [2, 3], struct.pack("<6f", 1, 2, 3, 4, 5, 6))
    bias = ("decoder_ff_logit_out_b", FLOAT32, [1, 2], struct.pack("<2f", 0.5, -1))
    yml = model_yml_item("type: transformer\ndim-emb: 4\n")
    items = [embedding, bias, (yml[0], INT8, yml[2], yml[3])]
    write(out / "marian_npz" / "stored", bytes([0]) + marian_npz(items))
    entries = b"\n--\n".join((name + ".npy").encode() + b"\0" + npy_header("<i1" if code == INT8 else "<f4", shape) + data
                              for name, code, shape, data in items)
    write(out / "marian_npz" / "entries_stored", bytes([1]) + entries)
    write(out / "marian_npz" / "entries_deflated", bytes([3]) + entries)
    write(out / "marian_vocab_yml" / "plain", vocab_yml(["</s>", "<unk>", "\u2581the", ".", "\u2581Hund"]).encode())
    write(out / "marian_vocab_yml" / "quoted",
          ('# marian-vocab\n---\n"</s>": 0\n\'<unk>\': 1\n"\\x41\\u00e9\\"": 3\n\u2581:: 2\n"true": 4\n').encode())


MARIAN_YML = """dec-cell: {cell}
dec-depth: 1
dim-emb: 4
dim-vocabs:
  - {src}
  - {tgt}
enc-depth: 1
layer-normalization: false
output-omit-bias: false
tied-embeddings: {tied}
tied-embeddings-all: {tied_all}
transformer-decoder-autoreg: {autoreg}
transformer-dim-ffn: 8
transformer-ffn-activation: relu
transformer-ffn-depth: 2
transformer-heads: 2
transformer-postprocess: dan
transformer-postprocess-emb: d
transformer-preprocess: ""
transformer-tied-layers:
  []
transformer-train-position-embeddings: false
type: transformer
"""


def marian_item(name, rows, cols, rng, intgemm8):
    """A random [rows, cols] item: float32, or intgemm8 as Marian packs it (§8.1): round(w·qB),
    transposed unless an embedding, then qB."""
    values = [[rng.uniform(-1, 1) for _ in range(cols)] for _ in range(rows)]
    w = name.find("_W")
    if not (intgemm8 and (w in (len(name) - 3, len(name) - 2) or "Wemb" in name)):
        return (name, FLOAT32, [rows, cols], struct.pack(f"<{rows * cols}f", *(v for row in values for v in row)))
    multiplier = 127 / max(abs(v) for row in values for v in row)
    order = values if "Wemb" in name else [list(column) for column in zip(*values)]
    data = bytes(max(-127, min(127, round(v * multiplier))) & 0xFF for row in order for v in row)
    return (name, INTGEMM8, [rows, cols], data + struct.pack("<f", multiplier))


def marian_import_seeds(model, out):
    """Marian models the import fuzzer turns into Attend files, sized for the tiny fixture's
    vocabularies (first byte 0: its source vocabulary for both sides, 1: source and target): an
    intgemm8 SSRU model with one embedding, and a float32 self-attention one with two; and a
    dictionary of model.yml's keys and values."""
    blob = model.read_bytes()
    (length,) = struct.unpack("<Q", blob[:8])
    config = json.loads(json.loads(blob[8:8 + length])["__metadata__"]["attend.config"])
    src, tgt = config["src_vocab_size"], config["tgt_vocab_size"]
    d, f = 4, 8
    for name, ssru, choice in (("ssru_intgemm8", True, 0), ("self_attention", False, 1)):
        rng = random.Random(65)
        shapes = {"Wemb": (src, d)} if ssru else {"encoder_Wemb": (src, d), "decoder_Wemb": (tgt, d)}
        for prefix in ["encoder_l1_self", "decoder_l1_context"] + ([] if ssru else ["decoder_l1_self"]):
            for x in "qkvo":
                shapes[f"{prefix}_W{x}"], shapes[f"{prefix}_b{x}"] = (d, d), (1, d)
            shapes[f"{prefix}_Wo_ln_scale"] = shapes[f"{prefix}_Wo_ln_bias"] = (1, d)
        for prefix in ("encoder_l1_ffn", "decoder_l1_ffn"):
            shapes.update({f"{prefix}_W1": (d, f), f"{prefix}_b1": (1, f), f"{prefix}_W2": (f, d), f"{prefix}_b2": (1, d),
                           f"{prefix}_ffn_ln_scale": (1, d), f"{prefix}_ffn_ln_bias": (1, d)})
        if ssru:
            shapes.update({"decoder_l1_rnn_W": (d, d), "decoder_l1_rnn_Wf": (d, d), "decoder_l1_rnn_bf": (1, d),
                           "decoder_l1_rnn_ffn_ln_scale": (1, d), "decoder_l1_rnn_ffn_ln_bias": (1, d)})
        shapes["decoder_ff_logit_out_b"] = (1, src if ssru else tgt)
        items = [marian_item(n, r, c, rng, ssru) for n, (r, c) in sorted(shapes.items())]
        if ssru:
            items.append(("decoder_l1_rnn_Wf_QuantMultA", FLOAT32, [1, 1], struct.pack("<f", 12.5)))
        yml = MARIAN_YML.format(cell="ssru" if ssru else "gru", src=src, tgt=src if ssru else tgt, tied="true",
                                tied_all="true" if ssru else "false", autoreg="rnn" if ssru else "self-attention")
        write(out / "marian_import" / name, bytes([choice]) + marian_binary(sorted(items) + [model_yml_item(yml)]))
    tokens = {line.split(":")[0] for line in MARIAN_YML.splitlines() if ":" in line}
    tokens |= {"average-attention", "self-attention", "rnn", "ssru", "gru", "swish", "gelu", "dan", "true", "false",
               "tied-embeddings-src", "transformer-no-projection", "transformer-decoder-dim-ffn", "[]", "- ", ": ",
               "\n  - ", '""', "decoder_ff_logit_out_Wt", "_QuantMultA", "encoder_l2_self_Wq"}
    quoted = ("".join(c if " " <= c <= "~" and c not in '"\\' else f"\\x{ord(c):02x}" for c in t) for t in tokens)
    (out / "marian_import.dict").write_text("".join(f'"{t}"\n' for t in sorted(quoted)))  # libFuzzer's \xNN escapes


def shortlist_seeds(out):
    """Marian binary shortlists behind marian_shortlist_fuzzer's 8-byte prefix (flags, target
    vocabulary - 1 as uint16, source vocabulary - 1, four source ids): as written (checksum right,
    vocabularies given), with the checksum remade and the source vocabulary read from the file,
    and a shared vocabulary."""
    small = shortlist_bytes([[3, 1], [], [0, 2, 5], [4], [6]], first_num=2, best_num=3)
    write(out / "marian_shortlist" / "as_written", bytes([0, 7, 0, 4, 0, 2, 3, 9]) + small)
    write(out / "marian_shortlist" / "rehashed", bytes([3, 7, 0, 0, 1, 2, 3, 4]) + small)
    lists = [[30], [10, 20]] + [[]] * 22 + [[1, 2, 39]] + [[]] * 15
    write(out / "marian_shortlist" / "shared", bytes([7, 39, 0, 39, 25, 1, 33, 0]) + shortlist_bytes(lists, 3, 50))


def serve_routes_seeds(out, sentences):
    """Requests to attend serve's routes: a byte for the route (serve_routes_fuzzer.cpp's kTargets),
    one for the body's kind (0 JSON, 1 form), the body; and a dictionary of the API's words."""
    requests = {
        "translate": (0, 0, {"q": sentences[0], "source": "en", "target": "de", "alternatives": 2}),
        "translate_array": (0, 0, {"q": sentences[:3], "source": "auto", "target": "de"}),
        "translate_html": (0, 0, {"q": "<p>" + sentences[1] + " <b>x</b></p>", "source": "en", "target": "de",
                                  "format": "html"}),
        "detect": (1, 0, {"q": sentences[2]}),
        "nbest": (2, 0, {"q": sentences[0], "source": "en", "target": "de", "n": 3}),
        "confidence": (3, 0, {"q": " ".join(sentences[:2]), "source": "en", "target": "de"}),
        "attention": (4, 0, {"q": sentences[1], "source": "en", "target": "de"}),
    }
    for name, (route, kind, body) in requests.items():
        write(out / "serve_routes" / name, bytes([route, kind]) + json.dumps(body, ensure_ascii=False).encode())
    write(out / "serve_routes" / "form", bytes([0, 1]) + ("q=" + sentences[0] + "&q=x&source=en&target=de").encode())
    tokens = ['"q"', '"source"', '"target"', '"format"', '"html"', '"text"', '"auto"', '"alternatives"', '"n"',
              '"api_key"', '"en"', '"de"', "q=", "&", "source=", "target=", "[", "]", "{", "}", ":", ",", "null"]
    (out / "serve_routes.dict").write_text("".join(f"{json.dumps(t)}\n" for t in tokens))


def main():
    fixture, out = pathlib.Path(sys.argv[1]), pathlib.Path(sys.argv[2])
    header_seeds(fixture / "tiny.int8.safetensors", out)
    for name in ("src.model", "tgt.model"):
        write(out / "tokenizer_model" / name, (fixture / name).read_bytes())
    sentences = (fixture / "src.txt").read_text(encoding="utf-8").splitlines()
    for choice, count in ((0, 1), (9, 3), (31, 5)):
        write(out / "translate_text" / f"choice{choice}", bytes([choice]) + "\n".join(sentences[:count]).encode())
    # Everyday text for the pass-through rules: emoticons, addresses, names, titles (read as
    # "someone"), signs, ranges, capitals, faces ending sentences, acronyms, initials, clock times.
    write(out / "translate_text" / "real_text",
          bytes([9]) + ("A dog :) runs ;-) to https://x.org <3\nMr. Leo's cat ^_^ costs $5 :'(, VERY cute 😀 "
                        "Then Dr. J. Smith talks to Mme Dupont (aged 5-7)\nIBM in the U.S. opens at 8 a.m. or 5 P.M").encode())
    # Set phrases (caption/set_phrases.h): greetings, a salutation with a title, closings and a signature.
    write(out / "translate_text" / "set_phrases",
          bytes([9]) + "Dear Mr Smith,\nVielen Dank!\nHello, Anne-Marie O\u2019Neill!\nBest regards,\nAnna\nBonjour\u00a0!".encode())
    write(out / "line_reader" / "plain", "Ein Hund.\r\nZwei Männer\n\nlast line".encode())
    write(out / "line_reader" / "text.gz", gzip.compress("\n".join(sentences).encode(), mtime=0))
    for name, options in (("greedy", {}), ("beam", {"beam": 3, "nbest": 2, "attention": True, "alpha": 0.6}),
                          ("masked", {"maskedHeads": [{"kind": "cross", "layer": 1, "head": 0}], "maxLength": 9,
                                      "maxLengthRatio": 1.5})):
        write(out / "wasm_bindings" / name, "\n".join([json.dumps(options)] + sentences[:3]).encode())
    names = ["beam", "alpha", "maxLength", "maxLengthRatio", "nbest", "attention", "maskedHeads", "kind", "layer",
             "head", "encoder", "decoder", "cross", "rerank", "reverseWeight"]
    (out / "wasm_bindings.dict").write_text("".join(f"{json.dumps(json.dumps(n))}\n" for n in names))
    html_seeds(out, sentences)
    serve_routes_seeds(out, sentences)
    document_seeds(out)
    marian_seeds(out)
    opus_seeds(out)
    shortlist_seeds(out)
    marian_import_seeds(fixture / "tiny.int8.safetensors", out)
    write(out / "text_parsers" / "head_spec", b"\x00cross:1:0")
    write(out / "text_parsers" / "nbest", b"\x010 ||| ein Hund ||| -1.5\n0 ||| Hund ||| -2.25\n1 ||| zwei ||| -0.5\n")
    write(out / "text_parsers" / "metrics", "\x02Ein Hund läuft.\nZwei Männer.\nEin Hund rennt.\nZwei Männer!\n".encode())


if __name__ == "__main__":
    main()
