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
  NamedBytes model;         // model.ende.intgemm.alphas.bin, or OPUS-MT's opus.*.npz (read by its bytes: a zip is an .npz)
  NamedBytes source_vocab;  // vocab.ende.spm, or srcvocab.enja.spm, or OPUS-MT's source.spm
  NamedBytes target_vocab;  // trgvocab.enja.spm or target.spm; no bytes: the source's vocabulary serves both sides
  std::string languages;    // "en-de" (attend.languages), or empty
  std::string license;      // the text the model came with (attend.license), or empty
  NamedBytes shortlist;     // lex.50.50.ende.s2t.bin (model/marian_shortlist.h), or no bytes
  // OPUS-MT: Marian's vocab.yml numbers the pieces the .spm files segment (import/marian_yml.h
  // read_marian_vocab_yml); no bytes: the .spm files' own ids.
  NamedBytes source_pieces;  // opus.spm32k-spm32k.vocab.yml, or opus.*.src.vocab.yml
  NamedBytes target_pieces;  // opus.*.trg.vocab.yml; no bytes: source_pieces numbers both sides
  // OPUS-MT's decoder.yml, the options marian-decoder runs the model with: its beam-size,
  // normalize, word-penalty and max-length-factor become the file's attend.search (Marian's own
  // defaults where it names none). No bytes: Bergamot's worker's settings (greedy), as for
  // Firefox's models.
  NamedBytes decoder_yml;
};

// The Attend model file's bytes: the architecture from the model's `special:model.yml`
// (kept whole as `marian.model.yml`), weights mapped, transposed and dequantized
// (import/marian_tensors.h), the vocabularies inside as `tokenizer.src` (and `tokenizer.tgt`
// when there are two), a vocab.yml's pieces as `tokenizer.src.pieces` (and `tokenizer.tgt.pieces`;
// tokenizer/piece_list.h). The same weights as .bin or .npz make the same file. Throws Error(invalid_model) with one line naming the file and the field
// (an architecture Attend does not run, a missing or misshapen item, a vocabulary of another
// size than the model's), Error(invalid_argument) for `languages` not as "en-de".
std::string import_marian(const MarianFiles& files);

}  // namespace attend
