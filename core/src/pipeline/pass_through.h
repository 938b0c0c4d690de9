// Source text the vocabulary lacks (SentencePiece's unknown pieces: emoji, CJK, Arabic, ...; names
// it spells out letter by letter, or after a title; numbers; web addresses; emoticons):
// the model reads the sentence without it, and it is carried into the translation at the
// place the cross-attention aligns with its neighbouring source word (pipeline/alignment.h).
#pragma once

#include <cstddef>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "attend/translator.h"
#include "caption/function_words.h"
#include "caption/recasing.h"
#include "text/letter_case.h"
#include "text/words.h"
#include "tokenizer/tokenizer.h"

namespace attend {

// The unreadable-script rule: more than half of the text's non-whitespace characters (code
// points) lie in unknown pieces. `tokens` are the text's, from Tokenizer::encode_with_offsets.
bool mostly_unknown(std::string_view text, const std::vector<TokenSpan>& tokens, int unk_id);

// The spans to pass through: each unknown piece, each web address (pipeline/web_addresses.h),
// each emoticon (text/emoticons.h) and each number (ASCII digits with single . , : - or / between
// them, two or more characters, or with a currency sign ($ € £ ¥) or # before, or a minus or plus
// opening a word ("-5°C"), the sign included); with the caption rules also each name the
// vocabulary spells out (caption/spelled_names.h: months and weekdays too), each title with the
// name after it (caption/titled_names.h), each number after a number word, one digit too
// (caption/number_words.h: "the number 7"), and each quotation (caption/quotations.h); each widened over the
// characters around it up to whitespace or ASCII punctuation (so "São" goes whole, "北京."
// leaves its full stop to the model) and over ASCII brackets or quotes holding nothing else
// ("(小明)"); spans with only whitespace and ASCII punctuation between them are merged
// ("مرحبا بكم", "555-0199"). In text order, disjoint. `knows`: as for spelled_names.
// `languages`: the model file's (titled names read in its source language).
std::vector<ByteRange> pass_through_spans(std::string_view text, const std::vector<TokenSpan>& tokens, int unk_id,
                                          const KnowsLowercase& knows, bool caption_rules = true,
                                          LanguagePair languages = {});

// `text` without `spans` (each taken out with the whitespace before it, or after it at the
// start of the text; or replaced by its stand-in, stand_ins[k] when not empty), and for each span
// the offset in that text where it stood (where its stand-in begins). When a span beginning with
// a digit or letter opens a text that does not open in lowercase, the word it leaves first takes
// the capital ("On Mondays a man plays." -> "A man plays."): the models read sentences so.
struct CutText {
  std::string text;
  std::vector<size_t> cut_at;
};
CutText cut_spans(std::string_view text, const std::vector<ByteRange>& spans, const std::vector<std::string>& stand_ins = {});

// The stand-in the model reads for a span of `text` that is a title and name
// (caption/titled_names.h, read in `language`): "someone", "jemand" or "quelqu'un" in that
// language, capitalised when it opens the text, or none when the language is unknown; for a
// quotation, "S" between its marks (caption/quotations.h); for digits after a number word, "4"
// or "6" (caption/number_words.h); empty for any other span. Read with
// "someone", the models translate the rest cleanly ("Jemand liest ein Buch.").
std::string stand_in_for(std::string_view text, ByteRange span, Language language);

// The PreparedSource of a sentence with `spans` to pass through (pass_through_spans of `text`;
// `tokens`: text's encode_with_offsets). `text` is `given` as the model reads it (re-cased with
// the same byte offsets: caption/recasing.h); the spans, and a sentence the rule finds
// unreadable, keep given's bytes ("https://example.com/ABOUT" stays so). With nothing but
// punctuation left for the model, its status is passed_through (its `written`: passed_through_text).
// With the caption rules, stand-ins in `languages.source` (stand_in_for).
PreparedSource prepare_with_pass_through(const Tokenizer& tokenizer, std::string_view given, std::string_view text,
                                         const std::vector<TokenSpan>& tokens, const std::vector<ByteRange>& spans,
                                         int eos_id, bool caption_rules = true, LanguagePair languages = {});

// A span of source text to put into a translation, before target piece `before_piece`
// (the number of pieces: at the end), in place of the pieces up to `replaces_until` (when
// greater: the translation of its stand-in).
struct Insertion {
  std::string text;
  int before_piece = 0;
  int replaces_until = 0;
  bool glued_before = false;  // no space before it (a closing quotation mark: "Bad“")
  bool glued_after = false;   // none after it (an opening one: "„Bad")
  bool lowers_next = false;   // the translation's word after it loses its capital ("Montags ein Mann")
};

// Where each of source.pass_through goes in a hypothesis: after the target word aligned with
// the source word it followed (before that word's trailing punctuation), or, for a span that
// opened the sentence, before the target word aligned with the first source word; a span after
// the sentence's final punctuation goes at the end, and so does one of faces that ends it
// (text/faces.h: "The boy is happy :)" -> "Der Junge ist glücklich. :)", not "glücklich :).").
// A span with a stand-in replaces the target word aligned with the stand-in's word, its trailing
// punctuation kept ("Jemand liest" -> "Mrs. Brown liest"). A span ending in dotted letters whose
// last dot was the source's full stop ("… from the U.S.") gets it back when placed inside the
// translation ("… aus U.S. einem Land."). source_pieces: of source.ids without eos; alignment:
// align_words() over their words and the hypothesis' target words.
// With the caption rules (source.caption_rules), titles before a name are written the translation's
// way (caption/titles.h, from `languages.source` into `languages.target`: "Frau Müller" -> "Ms.
// Müller", "mit Mr. Smith" -> "mit Herrn Smith"), a month or weekday in the translation's language
// ("Saturday" -> "samedi") and a lone quotation mark as the translation's language writes it;
// without them every span is written as the source wrote it.
// A span of words opening the translation lowers the model's first word when that is a function
// word of the translation's language, or, in English and French, a word `knows_word` says the
// target vocabulary holds whole in lowercase ("12 Dogs play" -> "12 dogs play"; not "I", nor a name
// it holds only capitalised; German capitalises its nouns).
std::vector<Insertion> place_pass_through(const PreparedSource& source, const std::vector<std::string>& source_pieces,
                                          const std::vector<std::string>& target_pieces, const std::vector<int>& alignment,
                                          LanguagePair languages = {},
                                          const std::function<bool(std::string_view)>& knows_word = nullptr);

// The text of target `ids` (with `pieces`) with the insertions, each set off by spaces
// (none before punctuation glued to the word before it, nor where an insertion is glued) and
// without the pieces they replace;
// insertions at one place keep their order. decode: the target tokenizer's decode of a run of ids.
std::string insert_spans(const std::vector<int>& ids, const std::vector<std::string>& pieces,
                         const std::vector<Insertion>& insertions,
                         const std::function<std::string(const std::vector<int>&)>& decode);

// Where each of `spans` stands in `text`, in order (the first place after the one before), or
// nullopt when one is not there.
std::optional<std::vector<ByteRange>> pass_through_ranges(std::string_view text, const std::vector<PassThrough>& spans);

// The translation of a source of which nothing but punctuation is left for the model
// (TranslationStatus::passed_through): its text with each span written as place_pass_through
// writes it into an empty translation (with the caption rules, a title the translation's way:
// "Frau Müller!" -> "Ms. Müller!"), the text between them as it is.
std::string passed_through_text(const PreparedSource& source, const Tokenizer& source_tokenizer,
                                const Tokenizer& target_tokenizer, LanguagePair languages = {});

// hypothesis.text made its ids' with source.pass_through inserted, aligned by maps (the
// cross-attention of that hypothesis, teacher-forced on source.ids); hypothesis.rewritten set
// where a span is written otherwise than the source wrote it, takes the place of the model's
// words or lowers the word after it (the caption rules only).
void put_pass_through(const PreparedSource& source, Hypothesis& hypothesis, const AttentionMaps& maps,
                      const Tokenizer& target_tokenizer, LanguagePair languages = {});

}  // namespace attend
