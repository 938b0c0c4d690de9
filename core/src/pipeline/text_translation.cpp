// The text pipeline's half of Translator: text in, the sentence prepared for the model (pass-through
// spans set aside; with the caption rules, a set phrase written from its table), the engine's
// translate_ids, then the spans put back where the cross-attention aligns them. The caption rules
// run only where the model file or the call asks for them (CaptionRules).
#include "attend/translator.h"

#include <optional>

#include "caption/final_mark.h"
#include "caption/opening_case.h"
#include "caption/recasing.h"
#include "caption/set_phrases.h"
#include "caption/spelled_names.h"
#include "decode/checks.h"
#include "decode/chunking.h"
#include "decode/search.h"
#include "model/model_impl.h"
#include "pipeline/caption_switch.h"
#include "pipeline/pass_through.h"
#include "pipeline/target_token.h"
#include "tokenizer/pieces.h"
#include "text/letters.h"

namespace attend {
namespace {

// A sentence the model does not run on: kept as it is, or its translation written without it.
Translation not_decoded(const PreparedSource& source) {
  Translation t;
  t.status = source.status;
  Hypothesis hypothesis;
  hypothesis.text = source.status == TranslationStatus::unreadable_script ? source.text : source.written;
  t.hypotheses.push_back(std::move(hypothesis));
  return t;
}

// `text` as a set phrase of one of the model's languages, written in the other. The model file
// names its languages, or the target is the language its target vocabulary holds the function
// words of (caption/function_words.h other_language). A phrase already in the target language
// ("Danke!" given to en-de), or one both languages write alike ("Date:" for en-fr), is its own
// translation.
std::optional<PreparedSource> as_set_phrase(std::string_view text, const Tokenizer& source_tokenizer,
                                            const Tokenizer& target_tokenizer, LanguagePair named) {
  const std::optional<SetPhrase> phrase = set_phrase_in(text, knows_whole_word(source_tokenizer));
  if (!phrase) return std::nullopt;
  const auto knows = knows_whole_word(target_tokenizer);
  // The language a phrase of `language` is translated into; `language` itself when it is the target's.
  const auto translated_into = [&](Language language) {
    if (named.target == Language::unknown) return other_language(language, knows);
    if (language == Language::unknown) return Language::unknown;
    return language == named.source || language == named.target ? named.target : Language::unknown;
  };
  const Language target = translated_into(phrase->language);
  const Language target_of_also = translated_into(phrase->also);
  if (target == Language::unknown && target_of_also == Language::unknown) return std::nullopt;
  PreparedSource source;
  source.text = std::string(text);
  source.status = TranslationStatus::set_phrase;
  const bool already_translated = target == phrase->language ||
                                  (target_of_also != Language::unknown && target_of_also == phrase->also) ||
                                  (target != Language::unknown && target_of_also != Language::unknown);
  if (already_translated) {
    source.written = source.text;
  } else {
    SetPhrase read = *phrase;
    if (target == Language::unknown) read.language = read.also;
    source.written = written_in(read, target != Language::unknown ? target : target_of_also);
  }
  return source;
}

// A translation written without the model opens in lowercase where its source does
// (caption/opening_case.h: "how are you?" after "Hello Anna," -> "wie geht es Ihnen?").
void open_like_source(PreparedSource& source, const Tokenizer& target, Language language) {
  if (first_letter(source.text) == Letter::lower) source.written = opened_in_lowercase(source.written, target, language);
}

// The caption rules on a sentence the model translated: its source's final "?" or "!" and its
// opening in lowercase kept (caption/final_mark.h, caption/opening_case.h), each hypothesis at most
// `max_ids` ids. Whether the best hypothesis' ids changed.
// `source_ids`: the sentence's own, without a target token put before them (TranslateOptions::target_token).
bool keep_mark_and_opening_case(Translation& t, const std::vector<int>& source_ids, const Model::Impl& impl, size_t max_ids,
                                Language target_language) {
  const Tokenizer& source = *impl.src_tokenizer;
  const Tokenizer& target = *impl.tgt_tokenizer;
  const std::vector<int> best_before = t.hypotheses.empty() ? std::vector<int>{} : t.hypotheses[0].ids;
  end_with_mark(t.hypotheses, final_mark(source_ids, impl.config.eos_id, source), target, max_ids);
  if (opens_in_lowercase(source_ids, source)) open_in_lowercase(t.hypotheses, target, target_language);
  for (Hypothesis& h : t.hypotheses) {
    std::vector<std::string> pieces = target.pieces(h.ids);
    if (pieces == h.pieces) continue;
    h.rewritten = true;
    h.pieces = std::move(pieces);
    h.text = target.decode(h.ids);
  }
  return !t.hypotheses.empty() && t.hypotheses[0].ids != best_before;
}

}  // namespace

Translation Translator::translate(std::string_view text, const TranslateOptions& options) {
  return std::move(translate_batch({std::string(text)}, options, 1)[0]);
}

std::vector<Translation> Translator::translate_batch(const std::vector<std::string>& texts,
                                                     const TranslateOptions& options, int batch_size) {
  std::vector<PreparedSource> sources;
  sources.reserve(texts.size());
  for (const std::string& text : texts) sources.push_back(prepare(text, options.caption_rules, options.pass_through));
  return translate_prepared(sources, options, batch_size);
}

PreparedSource Translator::prepare(std::string_view given, CaptionRules rules, PassThroughSpans pass) const {
  const Model::Impl& impl = model().impl();
  const Tokenizer& tokenizer = *impl.src_tokenizer;
  const KnowsLowercase knows = knows_lowercase(tokenizer);
  const bool caption_rules = caption_rules_on(impl, rules);
  // What the model reads best: with the caption rules, capitals in sentence case.
  const std::string text = caption_rules ? lowercase_shouted_words(sentence_case_if_all_caps(given), knows) : std::string(given);
  const std::vector<TokenSpan> tokens = tokenizer.encode_with_offsets(text);  // refuses invalid UTF-8
  const Tokenizer& target = *impl.tgt_tokenizer;
  const LanguagePair named = model_languages(impl);
  if (caption_rules) {
    if (std::optional<PreparedSource> phrase = as_set_phrase(given, tokenizer, target, named)) {
      open_like_source(*phrase, target, named.target);
      return *std::move(phrase);
    }
  }
  const std::vector<ByteRange> spans = pass_through_on(impl, pass) ? pass_through_spans(
      text, tokens, tokenizer.unk_id(), knows, caption_rules, named) : std::vector<ByteRange>{};
  if (!spans.empty()) {
    PreparedSource source =
        prepare_with_pass_through(tokenizer, given, text, tokens, spans, impl.config.eos_id, caption_rules, named);
    if (source.status == TranslationStatus::passed_through) {
      source.written = passed_through_text(source, tokenizer, target, named);
      if (caption_rules) open_like_source(source, target, named.target);
    }
    return source;
  }
  PreparedSource source;
  source.caption_rules = caption_rules;
  source.text = std::string(given);
  for (const TokenSpan& token : tokens) source.ids.push_back(token.id);
  source.ids = sentence_ids(impl, std::move(source.ids));
  return source;
}

std::vector<Translation> Translator::translate_prepared(const std::vector<PreparedSource>& sources,
                                                        const TranslateOptions& options, int batch_size) {
  const int token = options.target_token.empty() ? -1 : target_token_id(model(), options.target_token);
  std::vector<std::vector<int>> readable;  // the ids of the sentences the model reads
  std::vector<size_t> positions;           // of readable[k] in sources
  for (size_t i = 0; i < sources.size(); ++i) {
    if (sources[i].status != TranslationStatus::translated) continue;
    readable.push_back(with_target_token(sources[i].ids, token));
    positions.push_back(i);
  }
  std::vector<Translation> translated = translate_ids(readable, renumbered(options, positions), batch_size);
  std::vector<Translation> out(sources.size());
  for (size_t i = 0; i < sources.size(); ++i) {
    if (sources[i].status != TranslationStatus::translated) out[i] = not_decoded(sources[i]);
  }
  const Model::Impl& impl = model().impl();
  const LanguagePair languages = model_languages(impl);
  for (size_t k = 0; k < positions.size(); ++k) {
    Translation& t = out[positions[k]] = std::move(translated[k]);
    const PreparedSource& source = sources[positions[k]];
    const std::vector<int>& read = readable[k];
    const bool token_put_before = read.size() != source.ids.size();  // source.ids: the sentence's own
    if (source.caption_rules) {
      const int limit = decode_limit(impl.config, static_cast<int>(read.size()), options);  // eos included
      const bool best_changed = keep_mark_and_opening_case(t, source.ids, impl, static_cast<size_t>(limit - 1), languages.target);
      if (best_changed && options.capture_attention) capture_attention(t, options.masked_heads);
    }
    if (source.pass_through.empty()) continue;
    for (size_t h = 0; h < t.hypotheses.size(); ++h) {  // each hypothesis' spans placed by its own attention
      Hypothesis& hypothesis = t.hypotheses[h];
      std::optional<AttentionMaps> computed;  // the best hypothesis' maps may be captured already
      const AttentionMaps& maps =
          h == 0 && t.attention ? *t.attention : computed.emplace(attention(read, hypothesis, options.masked_heads));
      // The spans follow the sentence's own pieces (PassThrough::after_piece), not the token before them.
      put_pass_through(source, hypothesis, token_put_before ? without_first_source(maps) : maps, *impl.tgt_tokenizer, languages);
    }
  }
  return out;
}

}  // namespace attend
