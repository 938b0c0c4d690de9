"""Seed corpora for the fuzz targets, from the tiny-model fixture: the model file's header
(and a libFuzzer dictionary of its JSON strings), the SentencePiece models, sentences to
translate, samples of what the text parsers read, and Marian .bin files.
    make_seeds.py FIXTURE_DIR OUT_DIR"""
import gzip
import json
import pathlib
import struct
import sys

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[2] / "training"))
from attend_ref.marian_binary import FLOAT32, INTGEMM8, marian_binary, model_yml_item  # noqa: E402


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
    document_seeds(out)
    marian_seeds(out)
    write(out / "text_parsers" / "head_spec", b"\x00cross:1:0")
    write(out / "text_parsers" / "nbest", b"\x010 ||| ein Hund ||| -1.5\n0 ||| Hund ||| -2.25\n1 ||| zwei ||| -0.5\n")
    write(out / "text_parsers" / "metrics", "\x02Ein Hund läuft.\nZwei Männer.\nEin Hund rennt.\nZwei Männer!\n".encode())


if __name__ == "__main__":
    main()
