// sentence_breaks (attend/document.h): ICU's sentence BreakIterator over the UTF-8 text itself
// (a UText), so its offsets are byte offsets.
#include <limits>
#include <memory>
#include <string>

#include <unicode/brkiter.h>
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

}  // namespace

std::vector<size_t> sentence_breaks(std::string_view text) {
  if (text.size() > static_cast<size_t>(std::numeric_limits<int32_t>::max())) {
    throw Error(ErrorCode::invalid_input, "a document of " + std::to_string(text.size()) +
                                              " bytes is over ICU's limit of 2^31 - 1; split it");
  }
  UErrorCode status = U_ZERO_ERROR;
  std::unique_ptr<icu::BreakIterator> iterator(icu::BreakIterator::createSentenceInstance(icu::Locale::getRoot(), status));
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
