#include "marian_files.h"

#include <unicode/uloc.h>

#include <filesystem>

#include "attend/error.h"
#include "usage_error.h"

namespace attend::cli {
namespace {

namespace fs = std::filesystem;

// What core refuses in the files given is a wrong command line.
template <typename Call>
auto as_usage_error(Call&& call) {
  try {
    return call();
  } catch (const Error& e) {
    if (e.code() != ErrorCode::invalid_argument) throw;
    throw UsageError(e.what());
  }
}

}  // namespace

MarianPaths find_marian_files(const std::vector<std::string>& paths) {
  std::vector<MarianFileEntry> entries;
  for (const std::string& path : paths) {
    std::error_code error;
    if (!fs::is_directory(path, error)) {
      if (!fs::exists(path, error)) throw UsageError("'" + path + "' does not exist");
      entries.push_back({path, ""});
      continue;
    }
    const std::string folder = fs::path(path).string();
    for (const fs::directory_entry& entry : fs::directory_iterator(path, error)) {
      if (entry.is_regular_file(error)) entries.push_back({entry.path().string(), folder});
    }
    if (error) throw UsageError("cannot list the folder '" + path + "': " + error.message());
  }
  return as_usage_error([&] { return choose_marian_files(std::move(entries)); });
}

std::string languages_from_names(const MarianPaths& paths) {
  return as_usage_error([&] { return marian_languages_from_names(paths); });
}

std::string two_letter_code(const std::string& code) {
  char canonical[ULOC_FULLNAME_CAPACITY] = {};
  char language[ULOC_LANG_CAPACITY] = {};
  UErrorCode status = U_ZERO_ERROR;
  uloc_canonicalize(code.c_str(), canonical, sizeof canonical, &status);
  uloc_getLanguage(canonical, language, sizeof language, &status);
  if (U_FAILURE(status) || status == U_STRING_NOT_TERMINATED_WARNING) return code;
  const std::string two(language);
  return two.size() == 2 ? two : code;
}

std::string languages_from_readmes(const std::vector<NamedBytes>& licenses) {
  try {
    return marian_languages_from_readmes(licenses, two_letter_code);
  } catch (const Error& e) {
    if (e.code() != ErrorCode::invalid_argument) throw;
    throw UsageError(std::string(e.what()) + " (--languages)");
  }
}

}  // namespace attend::cli
