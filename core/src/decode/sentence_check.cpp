// model_sentence_check (attend/document.h): a sentence tokenized as Translator::translate does.
#include "attend/document.h"
#include "attend/error.h"

namespace attend {

SentenceCheck model_sentence_check(const Translator& translator) {
  return [&translator](std::string_view sentence) {
    try {
      translator.source_ids(sentence);
      return SentenceFit::whole;
    } catch (const Error& error) {
      if (error.code() == ErrorCode::empty_input) return SentenceFit::empty;
      // Valid UTF-8 (plan_document's input) is refused only for having more tokens than positions.
      if (error.code() == ErrorCode::invalid_input) return SentenceFit::too_long;
      throw;
    }
  };
}

}  // namespace attend
