#include "import/marian_files.h"

#include <algorithm>
#include <cctype>
#include <sstream>
#include <utility>

#include "attend/error.h"

namespace attend {
namespace {

enum class Kind { none, model, vocab, source_vocab, target_vocab, license, shortlist, pieces, source_pieces, target_pieces, decoder };

[[noreturn]] void refuse(const std::string& message) { throw Error(ErrorCode::invalid_argument, message); }

bool starts_with(const std::string& s, const std::string& prefix) { return s.rfind(prefix, 0) == 0; }

bool ends_with(const std::string& s, const std::string& suffix) {
  return s.size() >= suffix.size() && s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0;
}

// The path without its folders.
std::string base_name(const std::string& path) {
  const size_t slash = path.find_last_of('/');
  return slash == std::string::npos ? path : path.substr(slash + 1);
}

// The file's name without its folders and a trailing .gz.
std::string plain_name(const std::string& path) {
  const std::string name = base_name(path);
  return ends_with(name, ".gz") ? name.substr(0, name.size() - 3) : name;
}

std::string upper(std::string s) {
  std::transform(s.begin(), s.end(), s.begin(), [](unsigned char c) { return static_cast<char>(std::toupper(c)); });
  return s;
}

// `named`: the person gave this file, so any .bin or .spm counts.
Kind kind_of(const std::string& path, bool named) {
  const std::string name = plain_name(path);
  if (starts_with(upper(name), "LICENSE") || starts_with(upper(name), "README")) return Kind::license;
  if (ends_with(name, ".bin")) {
    if (starts_with(name, "lex.")) return Kind::shortlist;
    return named || starts_with(name, "model") ? Kind::model : Kind::none;
  }
  if (ends_with(name, ".npz")) return Kind::model;  // OPUS-MT's opus.*.npz.best-perplexity.npz
  if (ends_with(name, ".spm") || (named && ends_with(name, ".model"))) {  // .model: spm_train's own name
    if (starts_with(name, "srcvocab") || name == "source.spm") return Kind::source_vocab;
    if (starts_with(name, "trgvocab") || name == "target.spm") return Kind::target_vocab;
    return named || starts_with(name, "vocab") ? Kind::vocab : Kind::none;
  }
  if (ends_with(name, "decoder.yml")) return Kind::decoder;  // OPUS-MT's decoder.yml, Marian's model.npz.decoder.yml
  if (ends_with(name, ".src.vocab.yml")) return Kind::source_pieces;
  if (ends_with(name, ".trg.vocab.yml")) return Kind::target_pieces;
  if (ends_with(name, "vocab.yml") || (named && ends_with(name, ".yml"))) return Kind::pieces;
  return Kind::none;
}

void set_once(std::string& slot, const std::string& path, const char* what) {
  if (!slot.empty()) refuse("two " + std::string(what) + " files, '" + slot + "' and '" + path + "': name the one to import");
  slot = path;
}

void add(MarianFileChoice& out, std::string& shared_vocab, std::string& shared_pieces, const std::string& path, Kind kind) {
  switch (kind) {
    case Kind::model: return set_once(out.model, path, "model");
    case Kind::vocab: return set_once(shared_vocab, path, "vocabulary");
    case Kind::source_vocab: return set_once(out.source_vocab, path, "source vocabulary");
    case Kind::target_vocab: return set_once(out.target_vocab, path, "target vocabulary");
    case Kind::license: out.licenses.push_back(path); return;
    case Kind::shortlist: return set_once(out.shortlist, path, "shortlist");
    case Kind::pieces: return set_once(shared_pieces, path, "vocab.yml");
    case Kind::source_pieces: return set_once(out.source_pieces, path, "source vocab.yml");
    case Kind::target_pieces: return set_once(out.target_pieces, path, "target vocab.yml");
    case Kind::decoder: return set_once(out.decoder_yml, path, "decoder.yml");
    case Kind::none:
      refuse("'" + path + "' is none of model*.bin, vocab*.spm, srcvocab*.spm, trgvocab*.spm, lex*.bin, LICENSE*, README* "
             "(Firefox Translations), *.npz, source.spm, target.spm, *vocab.yml, decoder.yml (OPUS-MT)");
  }
}

// Directly in `folder`: "folder/name", not "folder/sub/name".
bool directly_in(const MarianFileEntry& entry) {
  const std::string& folder = entry.folder;
  const bool slash = !folder.empty() && folder.back() == '/';
  const size_t prefix = folder.size() + (slash ? 0 : 1);
  return entry.path.size() > prefix && entry.path.compare(0, folder.size(), folder) == 0 &&
         (slash || entry.path[folder.size()] == '/') && entry.path.find('/', prefix) == std::string::npos;
}

// "ende" -> "en-de", "engfra" -> "eng-fra"; else empty.
std::string pair_of(const std::string& token) {
  if ((token.size() != 4 && token.size() != 6) || !std::all_of(token.begin(), token.end(), [](char c) { return c >= 'a' && c <= 'z'; })) {
    return "";
  }
  return token.substr(0, token.size() / 2) + "-" + token.substr(token.size() / 2);
}

}  // namespace

MarianFileChoice choose_marian_files(std::vector<MarianFileEntry> entries) {
  // Each folder's files in the order of their paths, where the folder was given.
  for (auto begin = entries.begin(); begin != entries.end();) {
    auto end = std::find_if(begin, entries.end(), [&](const MarianFileEntry& e) { return e.folder != begin->folder; });
    if (!begin->folder.empty()) {
      std::stable_sort(begin, end, [](const MarianFileEntry& a, const MarianFileEntry& b) { return a.path < b.path; });
    }
    begin = end;
  }
  MarianFileChoice out;
  std::string shared_vocab, shared_pieces;
  for (const MarianFileEntry& entry : entries) {
    const bool named = entry.folder.empty();
    if (!named && !directly_in(entry)) continue;  // a subfolder's
    const Kind kind = kind_of(entry.path, named);
    if (named || kind != Kind::none) add(out, shared_vocab, shared_pieces, entry.path, kind);
  }
  if (out.model.empty()) refuse("no model file (model*.bin or *.npz, gzipped or not) among the files given");
  if (!shared_pieces.empty() && (!out.source_pieces.empty() || !out.target_pieces.empty())) {
    refuse("both one vocab.yml '" + shared_pieces + "' and " + (out.source_pieces.empty() ? "a target" : "a source") + " one '" +
           (out.source_pieces.empty() ? out.target_pieces : out.source_pieces) + "': name the ones to import");
  }
  if (!shared_pieces.empty()) {
    out.source_pieces = shared_pieces;
  } else if (out.source_pieces.empty() != out.target_pieces.empty()) {
    refuse(out.source_pieces.empty() ? "a target vocab.yml '" + out.target_pieces + "' without its *.src.vocab.yml"
                                     : "a source vocab.yml '" + out.source_pieces + "' without its *.trg.vocab.yml");
  }
  if (!out.source_pieces.empty() && shared_vocab.empty() && out.source_vocab.empty()) {
    refuse("the vocab.yml '" + out.source_pieces + "' numbers pieces, but no SentencePiece model (source.spm) cuts text into them");
  }
  if (!shared_vocab.empty() && (!out.source_vocab.empty() || !out.target_vocab.empty())) {
    refuse("both one vocabulary '" + shared_vocab + "' and " + (out.source_vocab.empty() ? "a target" : "a source") +
           " vocabulary '" + (out.source_vocab.empty() ? out.target_vocab : out.source_vocab) + "': name the ones to import");
  }
  if (!shared_vocab.empty()) {
    out.source_vocab = shared_vocab;
  } else if (out.source_vocab.empty() != out.target_vocab.empty()) {
    refuse(out.source_vocab.empty() ? "a target vocabulary '" + out.target_vocab + "' without its srcvocab*.spm (or source.spm)"
                                    : "a source vocabulary '" + out.source_vocab + "' without its trgvocab*.spm (or target.spm)");
  } else if (out.source_vocab.empty()) {
    refuse("no vocabulary (vocab*.spm, or srcvocab*.spm and trgvocab*.spm, or source.spm and target.spm) among the files given");
  }
  return out;
}

std::string marian_languages_from_names(const MarianFileChoice& choice) {
  std::string languages;
  for (const std::string& path : {choice.model, choice.source_vocab, choice.target_vocab}) {
    if (path.empty()) continue;
    const std::string name = plain_name(path);
    const size_t first = name.find('.');
    const std::string pair =
        first == std::string::npos ? "" : pair_of(name.substr(first + 1, name.find('.', first + 1) - first - 1));
    if (pair.empty()) return "";  // a name that gives none: no guess from the others
    if (!languages.empty() && pair != languages) {
      refuse("'" + choice.model + "' names " + languages + ", '" + path + "' " + pair + ": say which languages it translates");
    }
    languages = pair;
  }
  return languages;
}

ReadmeLanguages marian_readme_languages(std::string_view readme, const std::string& name) {
  ReadmeLanguages out;
  for (size_t at = 0; at < readme.size();) {
    const size_t end = std::min(readme.find('\n', at), readme.size());
    std::string_view line = readme.substr(at, end - at);
    at = end + 1;
    line.remove_prefix(std::min(line.find_first_not_of(" \t"), line.size()));
    std::vector<std::string>* side = nullptr;
    for (const auto& [label, list] : {std::pair<std::string_view, std::vector<std::string>*>{"* source language(s):", &out.source},
                                      {"* target language(s):", &out.target}}) {
      if (line.substr(0, label.size()) == label) {
        side = list;
        line.remove_prefix(label.size());
      }
    }
    if (side == nullptr) continue;
    std::istringstream words{std::string(line)};
    for (std::string code; words >> code;) {
      const std::string language = code.substr(0, code.find('_'));  // "srp_Cyrl": Serbian in Cyrillic
      const bool iso639 = (language.size() == 2 || language.size() == 3) &&
                          std::all_of(language.begin(), language.end(), [](char c) { return c >= 'a' && c <= 'z'; });
      if (!iso639) {
        refuse("'" + name + "' states the language '" + code.substr(0, 40) +
               "', not an ISO 639 code: give the languages it translates, as 'en-de'");
      }
      if (std::find(side->begin(), side->end(), language) == side->end()) side->push_back(language);
    }
  }
  return out;
}

std::string marian_languages_from_readmes(const std::vector<NamedBytes>& licenses,
                                          const std::function<std::string(const std::string&)>& two_letter,
                                          SeveralReadmeLanguages several) {
  std::string languages, stated_by, several_stated;  // several_stated: "'README.md' states 2 target languages (deu fra)"
  for (const NamedBytes& file : licenses) {
    if (!starts_with(upper(plain_name(file.name)), "README")) continue;
    const ReadmeLanguages stated = marian_readme_languages(file.bytes, file.name);
    if (stated.source.empty() && stated.target.empty()) continue;
    const auto count = [&](const std::vector<std::string>& codes, const char* side) -> std::string {
      if (codes.size() == 1) return "";
      std::string list;
      for (const std::string& code : codes) list += (list.empty() ? "" : " ") + code;
      return "'" + file.name + "' states " +
             (codes.empty() ? std::string("no ") + side + " language" : std::to_string(codes.size()) + " " + side + " languages (" + list + ")");
    };
    std::string not_one = count(stated.source, "source");
    if (not_one.empty()) not_one = count(stated.target, "target");
    if (!not_one.empty()) {
      if (several == SeveralReadmeLanguages::refuse) refuse(not_one + ": give the pair to import it as, as 'en-de'");
      several_stated = not_one;
      continue;
    }
    const auto one = [&](const std::string& code) {
      const std::string given = two_letter(code);
      const bool iso639 = (given.size() == 2 || given.size() == 3) &&
                          std::all_of(given.begin(), given.end(), [](char c) { return c >= 'a' && c <= 'z'; });
      return iso639 ? given : code;
    };
    const std::string pair = one(stated.source[0]) + "-" + one(stated.target[0]);
    if (!languages.empty() && pair != languages) {
      refuse("'" + stated_by + "' states " + languages + ", '" + file.name + "' " + pair + ": give the languages it translates");
    }
    languages = pair;
    stated_by = file.name;
  }
  if (!several_stated.empty() && !languages.empty()) {
    refuse("'" + stated_by + "' states " + languages + ", " + several_stated + ": give the languages it translates");
  }
  return several_stated.empty() ? languages : "";
}

std::string marian_license_text(const std::vector<NamedBytes>& licenses) {
  if (licenses.size() == 1) return std::string(licenses[0].bytes);
  std::string text;
  for (const NamedBytes& license : licenses) {
    text += (text.empty() ? "" : "\n") + std::string("==> ") + base_name(license.name) + " <==\n" + std::string(license.bytes);
  }
  return text;
}

}  // namespace attend
