// Which files `attend import` reads: a Marian model folder (Firefox Translations', OPUS-MT's)
// or the files named one by one, told apart by name (a trailing .gz ignored): model*.bin,
// vocab*.spm (one vocabulary) or srcvocab*.spm and trgvocab*.spm, lex*.bin (the lexical
// shortlist), LICENSE* and README*.
#pragma once

#include <string>
#include <vector>

namespace attend::cli {

struct MarianPaths {
  std::string model;
  std::string source_vocab;
  std::string target_vocab;           // empty: source_vocab serves both sides
  std::string shortlist;              // lex.50.50.ende.s2t.bin, or empty
  std::vector<std::string> licenses;  // LICENSE* and README*, by name
};

// In a folder, files with other names are passed over (metadata); named one by one, any .bin
// but a lex.* shortlist is the model and any other .spm or .model (as spm_train names them) the
// one vocabulary.
// Throws UsageError: no model or vocabulary, two of one, a path that is none of them.
MarianPaths find_marian_files(const std::vector<std::string>& paths);

// The language pair the file names give, as Firefox names them (model.ende.intgemm.alphas.bin
// and vocab.ende.spm: "en-de"; two three-letter codes as well): the model's and the
// vocabularies' names must all give it, else it is empty (one name alone, "model.base.bin", is
// no evidence). Throws UsageError when they give different pairs.
std::string languages_from_names(const MarianPaths& paths);

}  // namespace attend::cli
