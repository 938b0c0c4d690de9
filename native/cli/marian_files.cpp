#include "marian_files.h"

#include <algorithm>
#include <filesystem>

#include "usage_error.h"

namespace attend::cli {
namespace {

namespace fs = std::filesystem;

enum class Kind { none, model, vocab, source_vocab, target_vocab, license, shortlist };

bool starts_with(const std::string& s, const std::string& prefix) { return s.rfind(prefix, 0) == 0; }

bool ends_with(const std::string& s, const std::string& suffix) {
  return s.size() >= suffix.size() && s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0;
}

// The file's name without its folder and a trailing .gz.
std::string plain_name(const std::string& path) {
  std::string name = fs::path(path).filename().string();
  return ends_with(name, ".gz") ? name.substr(0, name.size() - 3) : name;
}

std::string upper(std::string s) {
  std::transform(s.begin(), s.end(), s.begin(), [](unsigned char c) { return static_cast<char>(std::toupper(c)); });
  return s;
}

// `named`: the user gave this file, so any .bin or .spm counts.
Kind kind_of(const std::string& path, bool named) {
  const std::string name = plain_name(path);
  if (starts_with(upper(name), "LICENSE") || starts_with(upper(name), "README")) return Kind::license;
  if (ends_with(name, ".bin")) {
    if (starts_with(name, "lex.")) return Kind::shortlist;
    return named || starts_with(name, "model") ? Kind::model : Kind::none;
  }
  if (ends_with(name, ".spm") || (named && ends_with(name, ".model"))) {  // .model: spm_train's own name
    if (starts_with(name, "srcvocab")) return Kind::source_vocab;
    if (starts_with(name, "trgvocab")) return Kind::target_vocab;
    return named || starts_with(name, "vocab") ? Kind::vocab : Kind::none;
  }
  return Kind::none;
}

void set_once(std::string& slot, const std::string& path, const char* what) {
  if (!slot.empty()) throw UsageError("two " + std::string(what) + " files, '" + slot + "' and '" + path + "': name the one to import");
  slot = path;
}

void add(MarianPaths& out, std::string& shared_vocab, const std::string& path, Kind kind) {
  switch (kind) {
    case Kind::model: return set_once(out.model, path, "model");
    case Kind::vocab: return set_once(shared_vocab, path, "vocabulary");
    case Kind::source_vocab: return set_once(out.source_vocab, path, "source vocabulary");
    case Kind::target_vocab: return set_once(out.target_vocab, path, "target vocabulary");
    case Kind::license: out.licenses.push_back(path); return;
    case Kind::shortlist: return set_once(out.shortlist, path, "shortlist");
    case Kind::none:
      throw UsageError("'" + path + "' is none of model*.bin, vocab*.spm, srcvocab*.spm, trgvocab*.spm, lex*.bin, LICENSE*, README*");
  }
}

// "ende" -> "en-de", "engfra" -> "eng-fra"; else empty.
std::string pair_of(const std::string& token) {
  if ((token.size() != 4 && token.size() != 6) || !std::all_of(token.begin(), token.end(), [](char c) { return c >= 'a' && c <= 'z'; })) {
    return "";
  }
  return token.substr(0, token.size() / 2) + "-" + token.substr(token.size() / 2);
}

}  // namespace

MarianPaths find_marian_files(const std::vector<std::string>& paths) {
  MarianPaths out;
  std::string shared_vocab;
  for (const std::string& path : paths) {
    std::error_code error;
    if (!fs::is_directory(path, error)) {
      if (!fs::exists(path, error)) throw UsageError("'" + path + "' does not exist");
      add(out, shared_vocab, path, kind_of(path, true));
      continue;
    }
    std::vector<std::string> entries;
    for (const fs::directory_entry& entry : fs::directory_iterator(path, error)) {
      if (entry.is_regular_file(error)) entries.push_back(entry.path().string());
    }
    if (error) throw UsageError("cannot list the folder '" + path + "': " + error.message());
    std::sort(entries.begin(), entries.end());
    for (const std::string& entry : entries) {
      const Kind kind = kind_of(entry, false);
      if (kind != Kind::none) add(out, shared_vocab, entry, kind);
    }
  }
  if (out.model.empty()) throw UsageError("no model file (model*.bin or model*.bin.gz) among the paths given");
  if (!shared_vocab.empty() && (!out.source_vocab.empty() || !out.target_vocab.empty())) {
    throw UsageError("both one vocabulary '" + shared_vocab + "' and " + (out.source_vocab.empty() ? "a target" : "a source") +
                     " vocabulary '" + (out.source_vocab.empty() ? out.target_vocab : out.source_vocab) + "': name the ones to import");
  }
  if (!shared_vocab.empty()) {
    out.source_vocab = shared_vocab;
  } else if (out.source_vocab.empty() != out.target_vocab.empty()) {
    throw UsageError(out.source_vocab.empty() ? "a target vocabulary '" + out.target_vocab + "' without its srcvocab*.spm"
                                              : "a source vocabulary '" + out.source_vocab + "' without its trgvocab*.spm");
  } else if (out.source_vocab.empty()) {
    throw UsageError("no vocabulary (vocab*.spm, or srcvocab*.spm and trgvocab*.spm) among the paths given");
  }
  return out;
}

std::string languages_from_names(const MarianPaths& paths) {
  std::string languages;
  for (const std::string& path : {paths.model, paths.source_vocab, paths.target_vocab}) {
    if (path.empty()) continue;
    const std::string name = plain_name(path);
    const size_t first = name.find('.');
    const std::string pair =
        first == std::string::npos ? "" : pair_of(name.substr(first + 1, name.find('.', first + 1) - first - 1));
    if (pair.empty()) return "";  // a name that gives none: no guess from the others
    if (!languages.empty() && pair != languages) {
      throw UsageError("'" + paths.model + "' names " + languages + ", '" + path + "' " + pair + ": say which with --languages");
    }
    languages = pair;
  }
  return languages;
}

}  // namespace attend::cli
