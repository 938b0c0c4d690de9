// attend import: a Marian model (Firefox Translations', OPUS-MT's: .bin, float32 or intgemm8)
// and its SentencePiece vocabulary made into an Attend model file (core/src/import). The file is
// written under a temporary name beside OUT and renamed to it, so a failure leaves nothing.
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <iostream>
#include <system_error>

#include "attend/error.h"
#include "commands.h"
#include "files.h"
#include "import/marian_files.h"
#include "import/marian_import.h"
#include "marian_files.h"
#include "option_parser.h"
#include "usage_error.h"
#include "whole_file.h"

namespace attend::cli {
namespace {


void write_all(int fd, const std::string& bytes) {
  size_t done = 0;
  while (done < bytes.size()) {
    const ssize_t n = write(fd, bytes.data() + done, bytes.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) throw std::system_error(errno, std::generic_category());
    done += static_cast<size_t>(n);
  }
}

// `bytes` to a new file beside `path`, renamed to `path` once whole; on failure nothing is left.
void write_file(const std::string& path, const std::string& bytes) {
  const std::string temporary = path + ".partial-" + std::to_string(getpid());
  const int fd = open(temporary.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
  if (fd < 0) throw Error(ErrorCode::io, "cannot write '" + path + "': " + std::strerror(errno));
  bool open_fd = true;
  try {
    write_all(fd, bytes);
    if (fsync(fd) != 0) throw std::system_error(errno, std::generic_category());
    open_fd = false;  // close releases it even when it fails
    if (close(fd) != 0) throw std::system_error(errno, std::generic_category());
    if (std::rename(temporary.c_str(), path.c_str()) != 0) throw std::system_error(errno, std::generic_category());
  } catch (const std::system_error& error) {
    if (open_fd) close(fd);
    std::remove(temporary.c_str());
    throw Error(ErrorCode::io, "cannot write '" + path + "': " + std::strerror(error.code().value()));
  }
}

}  // namespace

int run_import(const std::vector<std::string>& args) {
  OptionParser parser("attend import", "PATH... -o OUT.safetensors [--languages en-de]");
  std::vector<std::string> paths;
  std::string out, languages;
  parser.add_string("-o", "OUT", "the Attend model file to write (.safetensors)", &out);
  parser.require("-o");
  parser.add_string("--languages", "SRC-TGT", "the languages it translates from and into, as 'en-de' (default: from "
                    "Firefox's file names, model.ende.*.bin with vocab.ende.spm, else from an OPUS-MT README's "
                    "'* source language(s): eng' and '* target language(s): deu' lines, ISO 639-3 codes written "
                    "as ISO 639-1 where one exists; one language a side)", &languages);
  parser.add_positionals("PATH", "a Marian model folder, or its files: model*.bin, vocab*.spm (or srcvocab*.spm and "
                         "trgvocab*.spm), lex*.bin, LICENSE*, README* (Firefox Translations); *.npz, source.spm, "
                         "target.spm, *vocab.yml, decoder.yml (OPUS-MT) (.gz read too)", &paths, 1, SIZE_MAX);
  parser.set_notes(
      "Reads the architecture from the model's special:model.yml and refuses, naming the key, what\n"
      "Attend does not run (docs/marian.md \"Importing\"). intgemm8 weights with their activation\n"
      "scales (Firefox's *.intgemm.alphas.bin) stay int8 and compute as Marian computes them; others\n"
      "are dequantized to f32 as Marian dequantizes them. A lexical shortlist (lex*.bin) goes in\n"
      "whole: each batch's output is then chosen among its words, as Marian chooses. An OPUS-MT\n"
      "vocab.yml numbers the pieces source.spm and target.spm cut text into, as Marian does. The file\n"
      "asks for Marian's search as Bergamot runs it, or as decoder.yml sets it (normalize,\n"
      "word-penalty, max-length-factor), and for no pass-through (attend translate --search,\n"
      "--pass-through). The licence and README files go into the file's attend.license. Prints the\n"
      "files read and the file written; writes nothing when anything fails.\n");
  if (!parser.parse(args)) {
    std::cout << parser.help();
    return 0;
  }
  struct stat existing {};
  if (stat(out.c_str(), &existing) == 0 && !S_ISREG(existing.st_mode)) {
    throw UsageError("-o '" + out + "' is not a regular file (it is replaced by a rename)");
  }
  const MarianPaths found = find_marian_files(paths);
  std::vector<std::string> license_bodies;  // LICENSE* and README*, kept whole (marian_license_text)
  for (const std::string& path : found.licenses) license_bodies.push_back(read_whole_file(path));
  std::vector<NamedBytes> licenses;
  for (size_t i = 0; i < found.licenses.size(); ++i) licenses.push_back({found.licenses[i], license_bodies[i]});
  std::string languages_from = languages.empty() ? "" : " (--languages)";
  if (languages.empty() && !(languages = languages_from_names(found)).empty()) languages_from = " (file names)";
  if (languages.empty() && !(languages = languages_from_readmes(licenses)).empty()) languages_from = " (README)";

  const std::string model = read_whole_file(found.model);
  const std::string source_vocab = read_whole_file(found.source_vocab);
  const std::string target_vocab = found.target_vocab.empty() ? "" : read_whole_file(found.target_vocab);
  const std::string shortlist = found.shortlist.empty() ? "" : read_whole_file(found.shortlist);
  const auto read_if = [](const std::string& path) { return path.empty() ? std::string() : read_whole_file(path); };
  const std::string source_pieces = read_if(found.source_pieces), target_pieces = read_if(found.target_pieces),
                    decoder_yml = read_if(found.decoder_yml);
  MarianFiles files;
  files.model = {found.model, model};
  files.source_vocab = {found.source_vocab, source_vocab};
  files.target_vocab = {found.target_vocab, target_vocab};
  files.languages = languages;
  files.license = marian_license_text(licenses);
  files.shortlist = {found.shortlist, shortlist};
  files.source_pieces = {found.source_pieces, source_pieces};
  files.target_pieces = {found.target_pieces, target_pieces};
  files.decoder_yml = {found.decoder_yml, decoder_yml};
  const std::string bytes = import_marian(files);
  write_file(out, bytes);

  std::cout << "model      " << found.model << "\n"
            << (found.target_vocab.empty() ? "vocabulary " : "source     ") << found.source_vocab << "\n";
  if (!found.target_vocab.empty()) std::cout << "target     " << found.target_vocab << "\n";
  if (!found.shortlist.empty()) std::cout << "shortlist  " << found.shortlist << "\n";
  if (!found.source_pieces.empty()) {
    std::cout << (found.target_pieces.empty() ? "ids        " : "source ids ") << found.source_pieces << "\n";
  }
  if (!found.target_pieces.empty()) std::cout << "target ids " << found.target_pieces << "\n";
  if (!found.decoder_yml.empty()) std::cout << "search     " << found.decoder_yml << "\n";
  for (const std::string& license : found.licenses) std::cout << "licence    " << license << "\n";
  std::cout << "languages  " << (languages.empty() ? "not named (give --languages)" : languages + languages_from) << "\n"
            << "wrote      " << out << " (" << bytes.size() << " bytes)\n";
  check_written(std::cout, "stdout");
  return 0;
}

}  // namespace attend::cli
