// Which files of a Marian model folder (Firefox Translations', OPUS-MT's) `attend import` reads,
// told apart by name alone, and what their names say: one implementation for every host. The
// CLI lists folders on disk (native/cli/marian_files.cpp); the page lists a folder a person
// chose or dropped (wasm/bindings.cpp, web/). No file is opened here.
#pragma once

#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "import/marian_import.h"

namespace attend {

// A file as the host found it: its path (for messages; "ssru-ende/model.ende.bin" in a browser),
// and the folder the person gave that holds it, or empty when the person named the file itself.
struct MarianFileEntry {
  std::string path;
  std::string folder;
};

struct MarianFileChoice {
  std::string model;
  std::string source_vocab;
  std::string target_vocab;           // empty: source_vocab serves both sides
  std::string shortlist;              // lex.50.50.ende.s2t.bin, or empty
  std::vector<std::string> licenses;  // LICENSE* and README*, in the order of their paths
  // OPUS-MT (MarianFiles::source_pieces, target_pieces, decoder_yml), or empty.
  std::string source_pieces;  // opus.spm32k-spm32k.vocab.yml, or opus.*.src.vocab.yml
  std::string target_pieces;  // opus.*.trg.vocab.yml
  std::string decoder_yml;    // decoder.yml
};

// The files to read among `entries`, by name (a trailing .gz ignored): model*.bin, vocab*.spm (one
// vocabulary) or srcvocab*.spm and trgvocab*.spm, lex*.bin (the lexical shortlist), LICENSE* and
// README* (Firefox Translations); *.npz, source.spm and target.spm, *vocab.yml (or *.src.vocab.yml
// and *.trg.vocab.yml) and decoder.yml (OPUS-MT). A folder's files are taken in the order of
// their paths; only those directly in it count (not its subfolders'), and those with other names
// are passed over (metadata, logs, preprocess.sh). A file named by itself counts whatever its
// name: any .bin but a lex.* shortlist, or any .npz, is the model, any other .spm or .model (as
// spm_train names them) the one vocabulary, *decoder.yml decoder.yml and any other .yml the
// pieces' ids, and any other name is an error. Throws Error(invalid_argument): no model or
// vocabulary, two of one, a vocab.yml without the .spm that cuts text into its pieces, a named
// file that is none.
MarianFileChoice choose_marian_files(std::vector<MarianFileEntry> entries);

// The language pair the file names give, as Firefox names them (model.ende.intgemm.alphas.bin
// and vocab.ende.spm: "en-de"; two three-letter codes as well): the model's and the
// vocabularies' names must all give it, else it is empty (one name alone, "model.base.bin", is
// no evidence). Throws Error(invalid_argument) when they give different pairs.
std::string marian_languages_from_names(const MarianFileChoice& choice);

// The languages an OPUS-MT release's README states, as OPUS-MT-train and Tatoeba-Challenge write
// them: lines "* source language(s): eng" and "* target language(s): deu fra" (ISO 639-3 codes,
// or 639-1 in OPUS-MT-train's 2020 releases; a script after an underscore, "srp_Cyrl", is dropped:
// one language). Each language once, in the order stated; both empty when the README states none
// (OPUS-MT-train's 2019 releases). Throws Error(invalid_argument) naming a code that is not two or
// three lowercase letters.
struct ReadmeLanguages {
  std::vector<std::string> source, target;
};
ReadmeLanguages marian_readme_languages(std::string_view readme, const std::string& name);

// What a README stating several source or target languages (a multilingual model) gives: refused,
// asking for the languages (`attend import`, JS importMarian), or no pair (the page and
// <attend-translator marian>, which have no place to give one: the person chooses the target among
// the model's >>xxx<< tokens).
enum class SeveralReadmeLanguages { refuse, unnamed };

// The pair ("en-de") the README* files among `licenses` state (the others are passed over), each
// code as `two_letter` gives it (the ISO 639-1 code where one exists; the CLI asks ICU, the
// browser Intl.getCanonicalLocales), or empty when none states its languages. Throws
// Error(invalid_argument) when they disagree, and asking for the languages when one states several
// source or target languages (a multilingual model) unless `several` is unnamed: then empty.
std::string marian_languages_from_readmes(const std::vector<NamedBytes>& licenses,
                                          const std::function<std::string(const std::string&)>& two_letter,
                                          SeveralReadmeLanguages several = SeveralReadmeLanguages::refuse);

// The text attend.license keeps of the licence files (MarianFiles::license): one file's as it
// is, several each under a `==> NAME <==` line naming the file without its folder.
std::string marian_license_text(const std::vector<NamedBytes>& licenses);

}  // namespace attend
