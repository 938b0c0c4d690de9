// `attend import`'s core: a Marian model (.bin, float32 and intgemm8 items, docs/marian.md §7-§8)
// and its SentencePiece vocabulary made into an ordinary Attend model file (safetensors,
// docs/DESIGN.md "The model file"), in memory: natively and in WebAssembly alike.
#pragma once

#include <string>
#include <string_view>

namespace attend {

// A file's name (for messages) and its bytes, which the caller keeps alive.
struct NamedBytes {
  std::string name;
  std::string_view bytes;
};

struct MarianFiles {
  NamedBytes model;         // model.ende.intgemm.alphas.bin
  NamedBytes source_vocab;  // vocab.ende.spm, or srcvocab.enja.spm
  NamedBytes target_vocab;  // trgvocab.enja.spm; no bytes: the source's vocabulary serves both sides
  std::string languages;    // "en-de" (attend.languages), or empty
  std::string license;      // the text the model came with (attend.license), or empty
  NamedBytes shortlist;     // lex.50.50.ende.s2t.bin (model/marian_shortlist.h), or no bytes
};

// The Attend model file's bytes: the architecture from the model's `special:model.yml`
// (kept whole as `marian.model.yml`), weights mapped, transposed and dequantized
// (import/marian_tensors.h), the vocabularies inside as `tokenizer.src` (and `tokenizer.tgt`
// when there are two). Throws Error(invalid_model) with one line naming the file and the field
// (an architecture Attend does not run, a missing or misshapen item, a vocabulary of another
// size than the model's), Error(invalid_argument) for `languages` not as "en-de".
std::string import_marian(const MarianFiles& files);

}  // namespace attend
