// sentence_breaks (attend/document.h): ICU's sentence BreakIterator, in the text's locale, over the UTF-8 text itself
// (a UText), so its offsets are byte offsets.
#include <limits>
#include <memory>
#include <string>

#include <unicode/brkiter.h>
#include <unicode/locid.h>
#include <unicode/utext.h>

#include "attend/document.h"
#include "attend/error.h"

namespace attend {
namespace {

void check(UErrorCode status, const char* what) {
  if (U_FAILURE(status)) {
    throw Error(ErrorCode::invalid_input, std::string("ICU could not ") + what + ": " + u_errorName(status));
  }
}

// ICU's locale of a BCP-47 code; the root locale for none.
icu::Locale locale_of(std::string_view language) {
  if (language.empty()) return icu::Locale::getRoot();
  UErrorCode status = U_ZERO_ERROR;
  icu::Locale locale = icu::Locale::forLanguageTag(icu::StringPiece(language.data(), static_cast<int32_t>(language.size())), status);
  if (U_FAILURE(status) || locale.isBogus()) {
    throw Error(ErrorCode::invalid_argument, "\"" + std::string(language) + "\" is no BCP-47 language code");
  }
  return locale;
}

}  // namespace

std::vector<size_t> sentence_breaks(std::string_view text, std::string_view language) {
  if (text.size() > static_cast<size_t>(std::numeric_limits<int32_t>::max())) {
    throw Error(ErrorCode::invalid_input, "a document of " + std::to_string(text.size()) +
                                              " bytes is over ICU's limit of 2^31 - 1; split it");
  }
  UErrorCode status = U_ZERO_ERROR;
  std::unique_ptr<icu::BreakIterator> iterator(icu::BreakIterator::createSentenceInstance(locale_of(language), status));
  check(status, "create a sentence BreakIterator");
  std::unique_ptr<UText, decltype(&utext_close)> utext(
      utext_openUTF8(nullptr, text.data(), static_cast<int64_t>(text.size()), &status), &utext_close);
  check(status, "open the text");
  iterator->setText(utext.get(), status);
  check(status, "set the text");
  std::vector<size_t> breaks;
  for (int32_t at = iterator->next(); at != icu::BreakIterator::DONE; at = iterator->next()) {
    if (at > 0 && static_cast<size_t>(at) < text.size()) breaks.push_back(static_cast<size_t>(at));
  }
  return breaks;
}

}  // namespace attend
