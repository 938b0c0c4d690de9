// A request's texts translated as `attend translate` translates its input, through the batcher:
// plain text line by line, each line cut into sentences as the CLI cuts it (cli::plan_line),
// the sentences of all the request's texts decoded in one batcher call and the lines put back;
// HTML whole, as `attend translate --html` does, on a worker in its turn.
#pragma once

#include <string>
#include <vector>

#include "sentence_batcher.h"
#include "served_models.h"

namespace attend::server {

struct TranslatedSentence {
  std::string source;
  Translation translation;  // no hypotheses: nothing was translated (no letters, only invisible characters)
};

struct TextTranslation {
  std::string text;  // the best hypotheses' text
  // The next best: alternatives[k] puts in each sentence's hypothesis k + 1 (its best when it has
  // fewer); as many as the sentences' longest n-best list gives.
  std::vector<std::string> alternatives;
  std::vector<TranslatedSentence> sentences;  // in order
};

class TextTranslator {
 public:
  // max_sentences: a request cutting into more is ApiError 413.
  TextTranslator(const ServedModels& models, SentenceBatcher& batcher, size_t max_sentences);

  // whole_lines: each line one sentence, as the CLI's --no-split (its --nbest and --attention
  // do the same). Throws ApiError 400 naming the text and line the model refuses, 413 past
  // max_sentences, and what SentenceBatcher::translate throws.
  std::vector<TextTranslation> translate(size_t model, const std::vector<std::string>& texts, const SearchAsk& ask,
                                         bool whole_lines) const;
  // An HTML fragment translated with its markup (attend/html.h), a multilingual model's
  // `target_token` (SearchAsk::target_token) read before each sentence. Throws ApiError 400 for
  // invalid UTF-8, 413 past max_sentences.
  std::string translate_html(size_t model, const std::string& html, const std::string& target_token = "") const;

 private:
  const ServedModels& models_;
  SentenceBatcher& batcher_;
  size_t max_sentences_;
};

}  // namespace attend::server
