// Documents: text of any length (paragraphs, lists, several sentences on a line) cut into the
// sentences a model translates one by one and the text kept as it is around them (line breaks,
// indentation, list markers, the whitespace between sentences), then put back together.
//
// The cut is the same natively and in the browser: the candidate sentence starts come from ICU's
// sentence BreakIterator (Unicode UAX #29) natively and from the browser's own ICU
// (Intl.Segmenter) in JavaScript, and plan_document, compiled into both, applies the rest
// (lines, list markers, abbreviations, sentences too long for the model).
#pragma once

#include <cstddef>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "attend/translator.h"

namespace attend {

struct DocumentSegment {
  size_t begin = 0, end = 0;  // bytes [begin, end) of the document's text
  bool translate = false;     // a sentence to translate; else text kept as it is
};

// What a model makes of a sentence: it takes it whole, it has more tokens than the model's
// positions, or it has none (invisible characters only).
enum class SentenceFit { whole, too_long, empty };
using SentenceCheck = std::function<SentenceFit(std::string_view sentence)>;

// The check of `translator`'s model: the sentence tokenized as translate() would.
SentenceCheck model_sentence_check(const Translator& translator);

// What the caption layer adds to a plan, for a model that takes its rules (caption/set_phrases.h):
// a label or greeting a sentence opens with is a sentence of its own ("Opening hours: …", "Hi
// Tom, thanks …"), and a letter's signature after its closing is kept as written ("Best
// regards,\nAnna"). Empty functions: none of that.
struct PlanPhrases {
  std::function<size_t(std::string_view sentence)> opening_length;  // its label or greeting, mark included; 0: none
  std::function<bool(std::string_view sentence)> closes_letter;
  std::function<bool(std::string_view text)> is_signature;
};

// How a document is planned for a model (plan_options).
struct PlanOptions {
  SentenceCheck check;   // none: every sentence fits whole
  std::string language;  // the text's BCP-47 code, for its abbreviations (text/abbreviations.h); empty: unknown
  PlanPhrases phrases;
};

// `translator`'s: its model's sentence check and source language (attend.languages), and the caption
// layer's phrases where `rules` are on for that model.
PlanOptions plan_options(const Translator& translator, CaptionRules rules = CaptionRules::as_model_asks);

// Segments covering `text` (valid UTF-8) in order, none empty. Every line (\n, \r\n) is cut on
// its own: its indentation, a list marker ("- ", "* ", "• ", "1. ", "2) ", "(3) ", "a) ", "# ")
// and its trailing whitespace are kept; so are an enumerator opening a sentence inside the line
// ("2) " of "1) … 2) A girl jumps.", text/list_marker.h), the whitespace between sentences, and any stretch
// without a letter ("...", "2024", "—"). `breaks` are candidate sentence starts (byte offsets,
// e.g. sentence_breaks(text)); a break right after an abbreviation of the options' language or
// initials ("Mr.", "e.g.", "St.", "J. P.", "No." before a number: text/false_break.h) is not taken,
// nor one before a lowercase letter; one is added before a capital that follows a face (":)", "😀":
// text/faces.h). A sentence the options' `check` finds too long is cut in two at the clause mark or
// space nearest its middle, and again, until each part fits; one it finds empty is kept. With the
// options' phrases, a label or greeting is a sentence of its own and a signature is kept.
// `context`: what a document that comes in parts (the CLI's lines, an HTML fragment's blocks)
// carries from one part's plan to the next; none for a whole document.
struct PlanContext {
  bool after_closing = false;  // the last sentence planned closed a letter
};
std::vector<DocumentSegment> plan_document(std::string_view text, const std::vector<size_t>& breaks,
                                           const PlanOptions& options = {}, PlanContext* context = nullptr);

// The document with every translated segment replaced by its translation (translations[k] for
// the k-th segment with translate set) and the others copied.
std::string assemble_document(std::string_view text, const std::vector<DocumentSegment>& segments,
                              const std::vector<std::string>& translations);

#ifndef __EMSCRIPTEN__
// Byte offsets in `text` (valid UTF-8) where ICU's sentence BreakIterator, in the locale of
// `language` (a BCP-47 code; empty: the root locale), starts a new sentence, 0 and text.size() left out. Native builds only: the WebAssembly module carries
// no ICU; wasm/attend.mjs takes the browser's Intl.Segmenter instead.
std::vector<size_t> sentence_breaks(std::string_view text, std::string_view language = "");

struct DocumentTranslation {
  std::string text;                       // the translated document
  std::vector<DocumentSegment> segments;  // of the source text
  std::vector<Translation> sentences;     // one per segment with translate set, in order
};

struct DocumentProgress {
  size_t sentences_done = 0, sentences = 0;
};

// Translates a document of any length (plan_document with sentence_breaks and plan_options, in
// the model's source language and with options.caption_rules): its sentences in groups of `batch_size`, shortest together, reporting progress
// after each group; on_progress returning false stops (Error(cancelled)). Throws invalid_input
// for invalid UTF-8 and empty_input for a document without anything to translate.
DocumentTranslation translate_document(Translator& translator, std::string_view text,
                                       const TranslateOptions& options = {}, int batch_size = 32,
                                       const std::function<bool(const DocumentProgress&)>& on_progress = {});
#endif

}  // namespace attend
