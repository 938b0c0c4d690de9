// Any bytes as the text to translate, with a tiny model ($ATTEND_FUZZ_MODEL, int8). The first
// byte picks the search (beam size, n-best, attention capture, int8 activations); the rest,
// cut at newlines, are the sentences of one batch. Each call either translates every sentence
// or throws invalid_input (invalid UTF-8, too long) or empty_input; what it returns keeps the
// API's shapes: a sentence in a script the model cannot read comes back unchanged and
// untranslated, a set phrase as the table writes it (caption/set_phrases.h) and a sentence of spans
// alone as they are written (passed_through), none read by the model, and the text the
// vocabulary lacks in the others (Translator::prepare's pass-through spans) is in every
// hypothesis' text (a title before a name may be written the translation's way). The first two
// sentences are also scored as a source and its translation (Translator::score): a
// log-probability that is finite and at most 0, or the same two errors.
#include <cmath>
#include <memory>
#include <string>

#include "attend/attend.h"
#include "fuzz_support.h"
#include "caption/titles.h"
#include "text/words.h"

namespace {

using attend::fuzz::require;

attend::Translator& translator(bool int8_activations) {
  static const std::vector<uint8_t> file = attend::fuzz::read_fixture("ATTEND_FUZZ_MODEL");
  static attend::Translator off(attend::Model::from_bytes(file, {attend::Int8Activations::off}));
  static attend::Translator on(attend::Model::from_bytes(file, {attend::Int8Activations::on}));
  return int8_activations ? on : off;
}

// A sentence the model did not run on: no model output, one hypothesis holding `text` (the
// sentence unchanged, or its set phrase's translation).
void check_not_decoded(const attend::Translation& t, const std::string& text) {
  require(t.source_ids.empty() && t.source_pieces.empty() && !t.attention, "a sentence not to decode went to the model");
  require(t.hypotheses.size() == 1 && t.hypotheses[0].text == text && t.hypotheses[0].ids.empty(),
          "a sentence not to decode does not hold its text");
}

bool is_title(std::string_view word) {
  for (const attend::Language language : {attend::Language::english, attend::Language::german, attend::Language::french}) {
    if (attend::addressed_by(word, language)) return true;
  }
  return false;
}

void check_pass_through(const attend::Translation& t, const attend::PreparedSource& source) {
  require(t.source_ids == source.ids, "the model read other ids than prepare() gave");
  for (const attend::Hypothesis& h : t.hypotheses) {
    for (const attend::PassThrough& span : source.pass_through) {
      // Its titles may be written the translation's way ("Mme Dupont" -> "Frau Dupont",
      // caption/titles.h): every other word of it is kept.
      for (const attend::ByteRange& word : attend::words_between_spaces(span.text)) {
        const std::string_view written = attend::slice(span.text, word);
        if (is_title(written)) continue;
        require(h.text.find(written) != std::string::npos, "a pass-through span is missing from a translation");
      }
    }
  }
}

void check_shapes(const attend::Translation& t, const attend::TranslateOptions& options) {
  require(!t.source_ids.empty() && t.source_ids.size() == t.source_pieces.size(), "source ids and pieces differ");
  require(t.hypotheses.size() == static_cast<size_t>(options.nbest), "not nbest hypotheses");
  for (const attend::Hypothesis& h : t.hypotheses) {
    require(h.ids.size() == h.pieces.size(), "hypothesis ids and pieces differ");
    require(h.ids.size() <= static_cast<size_t>(options.max_length), "a hypothesis outgrew max_length");
  }
  require(t.attention.has_value() == options.capture_attention, "attention captured when not asked, or missing");
  if (!t.attention) return;
  const attend::AttentionMaps& a = *t.attention;
  const size_t src = a.src_len, tgt = a.tgt_len, heads = a.heads;
  require(src == t.source_ids.size() && a.source_pieces.size() == src, "attention source length");
  require(a.target_pieces.size() == tgt && a.target_input_pieces.size() == tgt, "attention target length");
  require(a.encoder.size() == a.encoder_layers * heads * src * src, "encoder attention shape");
  require(a.decoder.size() == a.decoder_layers * heads * tgt * tgt, "decoder attention shape");
  require(a.cross.size() == a.decoder_layers * heads * tgt * src, "cross attention shape");
}

void check_score(attend::Translator& translator, const std::string& source, const std::string& target) {
  try {
    const attend::TargetScore score = translator.score(source, target);
    require(std::isfinite(score.log_prob) && score.log_prob <= 1e-4f, "a log-probability above 0 or not finite");
    require(score.tokens >= 1, "a score without eos");
  } catch (const attend::Error& e) {
    attend::fuzz::require_code(e, {attend::ErrorCode::invalid_input, attend::ErrorCode::empty_input}, "score");
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size == 0) return 0;
  const uint8_t choice = data[0];
  attend::TranslateOptions options;
  options.beam_size = 1 + (choice & 3);
  options.nbest = (choice & 4) ? options.beam_size : 1;
  options.capture_attention = (choice & 8) != 0;
  options.max_length = 16;
  const std::vector<std::string> texts =
      attend::fuzz::split_lines(std::string_view(reinterpret_cast<const char*>(data) + 1, size - 1));
  if (texts.empty()) return 0;
  try {
    attend::Translator& chosen = translator((choice & 16) != 0);
    const std::vector<attend::Translation> results = chosen.translate_batch(texts, options, 4);
    require(results.size() == texts.size(), "not one translation per text");
    for (size_t i = 0; i < texts.size(); ++i) {
      if (results[i].status == attend::TranslationStatus::unreadable_script) {
        check_not_decoded(results[i], texts[i]);
      } else if (results[i].status != attend::TranslationStatus::translated) {  // set_phrase, passed_through
        const std::string written = chosen.prepare(texts[i]).written;
        require(!written.empty(), "a translation written without the model is empty");
        check_not_decoded(results[i], written);
      } else {
        check_shapes(results[i], options);
        check_pass_through(results[i], chosen.prepare(texts[i]));
      }
    }
  } catch (const attend::Error& e) {
    attend::fuzz::require_code(e, {attend::ErrorCode::invalid_input, attend::ErrorCode::empty_input}, "translate_batch");
  }
  check_score(translator((choice & 16) != 0), texts[0], texts.size() > 1 ? texts[1] : std::string());
  return 0;
}
