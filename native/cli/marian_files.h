// Which files `attend import` reads: a Marian model folder (Firefox Translations', OPUS-MT's)
// or the files named one by one. The folders are listed here; the files are told apart by name
// in core (import/marian_files.h), as the page tells apart those of a folder it is given.
#pragma once

#include <string>
#include <vector>

#include "import/marian_files.h"

namespace attend::cli {

using MarianPaths = attend::MarianFileChoice;

// choose_marian_files over the paths: a folder's regular files, or a file named by itself.
// Throws UsageError: a path that does not exist or a folder that cannot be listed, and what
// choose_marian_files refuses (no model or vocabulary, two of one, a path that is none of them).
MarianPaths find_marian_files(const std::vector<std::string>& paths);

// marian_languages_from_names; throws UsageError when the names give different pairs.
std::string languages_from_names(const MarianPaths& paths);

// The ISO 639-1 code of an ISO 639-2/T or 639-3 code where one exists, as ICU's uloc_canonicalize
// gives it ("eng" -> "en", "nob" -> "nb"); the code itself otherwise ("gil", "cmn", "en").
std::string two_letter_code(const std::string& code);

// marian_languages_from_readmes of the licence files' texts (an OPUS-MT README's "* source
// language(s): eng"), the codes by two_letter_code; throws UsageError asking for --languages
// when they state several languages a side.
std::string languages_from_readmes(const std::vector<NamedBytes>& licenses);

}  // namespace attend::cli
