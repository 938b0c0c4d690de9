#include "attend/translator.h"

#include <algorithm>
#include <cmath>
#include <cstring>

#include "attend/error.h"
#include "decode/chunking.h"
#include "decode/cpu_step_scorer.h"
#include "decode/device_step_scorer.h"
#include "decode/ensemble_step_scorer.h"
#include "decode/final_mark.h"
#include "decode/forced_scores.h"
#include "decode/opening_case.h"
#include "decode/pass_through.h"
#include "decode/reverse_rerank.h"
#include "decode/spelled_names.h"
#include "decode/search.h"
#include "model/device_model.h"
#include "model/encoder.h"
#include "text/letter_case.h"
#include "text/letters.h"
#include "text/set_phrases.h"

namespace attend {
namespace {

void check_options(const TranslateOptions& o) {
  auto fail = [](const std::string& m) { throw Error(ErrorCode::invalid_argument, m); };
  if (o.beam_size < 1 || o.beam_size > kMaxBeamSize) {
    fail("beam size must be in [1, " + std::to_string(kMaxBeamSize) + "], got " + std::to_string(o.beam_size));
  }
  if (o.nbest < 1 || o.nbest > o.beam_size) {
    fail("nbest must be in [1, beam size " + std::to_string(o.beam_size) + "], got " + std::to_string(o.nbest));
  }
  if (o.max_length < 1) fail("max length must be at least 1, got " + std::to_string(o.max_length));
  if (!std::isfinite(o.length_penalty) || o.length_penalty < 0) {
    fail("length penalty (alpha) must be a finite number ≥ 0, got " + std::to_string(o.length_penalty));
  }
  if (!std::isfinite(o.max_length_ratio) || o.max_length_ratio < 0) {
    fail("max length ratio must be a finite number ≥ 0, got " + std::to_string(o.max_length_ratio));
  }
  if (o.max_repeats < 0) fail("max repeats must be at least 0 (0 = off), got " + std::to_string(o.max_repeats));
  if (o.reverse_model && o.beam_size < 2) {
    fail("reranking by a reverse model needs beam search (beam size ≥ 2): greedy search finds one hypothesis");
  }
  if (!std::isfinite(o.reverse_weight) || o.reverse_weight < 0) {
    fail("reverse weight must be a finite number ≥ 0, got " + std::to_string(o.reverse_weight));
  }
}

void check_source(const ModelConfig& c, const std::vector<int>& ids) {
  if (ids.empty() || ids.back() != c.eos_id) {
    throw Error(ErrorCode::invalid_argument, "source ids must end with eos (" + std::to_string(c.eos_id) + ")");
  }
  if (static_cast<int>(ids.size()) > c.max_positions) {
    throw Error(ErrorCode::invalid_input, "the sentence has " + std::to_string(ids.size()) +
                                              " tokens; this model takes at most " + std::to_string(c.max_positions));
  }
  for (int id : ids) {
    if (id < 0 || id >= c.src_vocab_size) {
      throw Error(ErrorCode::invalid_argument, "source id " + std::to_string(id) + " is outside the vocabulary [0, " +
                                                   std::to_string(c.src_vocab_size) + ")");
    }
  }
}

// Target ids fed to the decoder after bos (and scored, then eos): in the vocabulary, and with
// bos fitting the model's positions.
void check_target(const ModelConfig& c, const std::vector<int>& ids) {
  for (int id : ids) {
    if (id < 0 || id >= c.tgt_vocab_size) {
      throw Error(ErrorCode::invalid_argument, "target id " + std::to_string(id) + " is outside the vocabulary");
    }
  }
  if (static_cast<int>(ids.size()) + 1 > c.max_positions) {
    throw Error(ErrorCode::invalid_input, "the target has " + std::to_string(ids.size() + 1) +
                                              " positions with bos; this model takes at most " + std::to_string(c.max_positions));
  }
}

// `options` for a call given some of the sentences, the k-th being positions[k] of the caller's:
// on_step hears the caller's index.
TranslateOptions renumbered(const TranslateOptions& options, const std::vector<size_t>& positions) {
  TranslateOptions renumbered = options;
  if (options.on_step) {
    renumbered.on_step = [&options, &positions](const StepEvent& event) {
      StepEvent in_caller = event;
      in_caller.sentence = static_cast<int>(positions[static_cast<size_t>(event.sentence)]);
      return options.on_step(in_caller);
    };
  }
  return renumbered;
}

// A sentence the model cannot read, passed through unchanged.
// The ids of a sentence's tokens with eos, refused as translate() refuses them.
std::vector<int> sentence_ids(const ModelConfig& c, std::vector<int> ids) {
  if (ids.empty()) throw Error(ErrorCode::empty_input, "nothing to translate: the text is empty or only whitespace");
  ids.push_back(c.eos_id);
  check_source(c, ids);
  return ids;
}

// A sentence the model does not run on: kept as it is, or its translation written without it.
Translation not_decoded(const PreparedSource& source) {
  Translation t;
  t.status = source.status;
  Hypothesis hypothesis;
  hypothesis.text = source.status == TranslationStatus::unreadable_script ? source.text : source.written;
  t.hypotheses.push_back(std::move(hypothesis));
  return t;
}

// The languages a model file names (attend.languages); unknown both when it names none.
struct NamedLanguages {
  Language source = Language::unknown, target = Language::unknown;
};

NamedLanguages named_languages(const Model::Impl& impl) {
  return {language_of_code(impl.source_language), language_of_code(impl.target_language)};
}

// `text` as a set phrase of one of the model's languages, written in the other. The model file
// names its languages, or the target is the language its target vocabulary holds the function
// words of (text/function_words.h other_language). A phrase already in the target language
// ("Danke!" given to en-de), or one both languages write alike ("Date:" for en-fr), is its own
// translation.
std::optional<PreparedSource> as_set_phrase(std::string_view text, const Tokenizer& source_tokenizer,
                                            const Tokenizer& target_tokenizer, NamedLanguages named) {
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
// (decode/opening_case.h: "how are you?" after "Hello Anna," -> "wie geht es Ihnen?").
void open_like_source(PreparedSource& source, const Tokenizer& target, Language language) {
  if (first_letter(source.text) == Letter::lower) source.written = opened_in_lowercase(source.written, target, language);
}

// Whether a call with `rules` runs the caption rules on `impl`'s model.
bool caption_rules_on(const Model::Impl& impl, CaptionRules rules) {
  return rules == CaptionRules::on || (rules == CaptionRules::as_model_asks && impl.asks_for_caption_rules);
}

}  // namespace

struct Translator::State {
  std::shared_ptr<const Model> model;
  const Model::Impl& impl;
  const KernelTable& kernels;
  EncoderWorkspace encoder;
  DecoderWorkspace decoder;
  std::unique_ptr<DeviceSession> device;  // when the model was loaded on a device (ModelOptions::device)
  std::vector<std::unique_ptr<State>> others;  // an ensemble's members after the first (this State)
  std::unique_ptr<Translator> reverse;         // of the last TranslateOptions::reverse_model given

  explicit State(std::shared_ptr<const Model> m)
      : model(std::move(m)), impl(model->impl()), kernels(kernels::best_kernels()),
        device(impl.device ? impl.device->new_session() : nullptr) {
    for (size_t i = 1; i < model->members().size(); ++i) others.push_back(std::make_unique<State>(model->members()[i]));
  }

  Translator& reverse_translator(const std::shared_ptr<const Model>& reverse_model) {
    if (!reverse || &reverse->model() != reverse_model.get()) reverse = std::make_unique<Translator>(reverse_model);
    return *reverse;
  }

  size_t member_count() const { return 1 + others.size(); }
  State& member(size_t m) { return m == 0 ? *this : *others[m - 1]; }
  // The member whose attention a Translation shows (EnsembleOptions::attention_member).
  State& view() { return member(static_cast<size_t>(model->attention_member())); }

  // An ensemble's search: the sentences encoded by every member, decoded together.
  std::vector<std::vector<SearchHypothesis>> search_ensemble(const std::vector<int>& ids, const std::vector<int>& offsets,
                                                             std::vector<int> limits, const TranslateOptions& o,
                                                             const HeadMask& view_mask) {
    const size_t view_index = static_cast<size_t>(model->attention_member());
    std::vector<HeadMask> masks;  // the view's heads are masked, the other members' are not
    for (size_t m = 0; m < member_count(); ++m) {
      masks.push_back(m == view_index ? view_mask : HeadMask::from_refs(member(m).impl.config, {}));
    }
    std::vector<EnsembleMember> members;
    for (size_t m = 0; m < member_count(); ++m) {
      State& s = member(m);
      encode(s.impl, kernels, ids, offsets, masks[m], s.encoder);
      members.push_back(EnsembleMember{&s.impl, &masks[m], &s.decoder, s.encoder.x.data(), model->member_weights()[m]});
    }
    EnsembleStepScorer scorer(std::move(members), kernels, static_cast<int>(view_index));
    return search(SearchRequest{view().impl, o, nullptr, offsets, std::move(limits)}, scorer);
  }

  // Feeds bos + targets one step at a time through the same decoder step the search uses,
  // for one sentence; after each step calls on_step(step) with ws.logits / ws.capture_* set
  // (on a device: copied back into them).
  template <typename OnStep>
  void teacher_forced(const std::vector<int>& source, const std::vector<int>& targets, const HeadMask& mask,
                      bool capture, float* encoder_capture, OnStep&& on_step) {
    const ModelConfig& c = impl.config;
    const std::vector<int> offsets{0, static_cast<int>(source.size())};
    const int steps = static_cast<int>(targets.size()) + 1;  // callers check it fits the positions
    if (device) {
      device->encode(source, offsets, mask, encoder_capture, 0);
      device->begin_decode(1, 1, steps, 1, capture);
    } else {
      encode(impl, kernels, source, offsets, mask, encoder, encoder_capture, 0);
    }
    decoder.reserve(c, 1, 1, steps, offsets, capture, 1);
    if (!device) prepare_cross_attention(impl, kernels, encoder.x.data(), decoder);
    const int zero = 0;
    for (int t = 0; t < steps; ++t) {
      const int token = t == 0 ? c.bos_id : targets[t - 1];
      const StepInput input{&token, &zero, &zero, 1, t};
      if (device) {
        device->step(input, mask);
        device->copy_logits(decoder.logits.data());
        if (capture) device->copy_captured_row(0, decoder.capture_self.data(), decoder.capture_cross.data());
      } else {
        decoder_step(impl, kernels, input, mask, decoder);
      }
      on_step(t);
    }
  }

  AttentionMaps attention_for(const std::vector<int>& source, const Hypothesis& best, const HeadMask& mask) {
    const ModelConfig& c = impl.config;
    const Tokenizer& tgt = *impl.tgt_tokenizer;
    AttentionMaps maps;
    maps.encoder_layers = c.encoder_layers;
    maps.decoder_layers = c.decoder_layers;
    maps.heads = c.num_heads;
    const size_t src_len = source.size();
    const size_t tgt_len = best.ids.size() + (best.ended_with_eos ? 1 : 0);
    maps.src_len = static_cast<int>(src_len);
    maps.tgt_len = static_cast<int>(tgt_len);
    maps.source_pieces = impl.src_tokenizer->pieces(source);
    maps.target_pieces = best.pieces;
    if (best.ended_with_eos) maps.target_pieces.push_back(tgt.id_to_piece(c.eos_id));
    maps.target_input_pieces.push_back(tgt.id_to_piece(c.bos_id));
    for (size_t t = 0; t + 1 < tgt_len; ++t) maps.target_input_pieces.push_back(best.pieces[t]);

    const size_t lh = static_cast<size_t>(c.decoder_layers) * c.num_heads;
    maps.encoder.resize(static_cast<size_t>(c.encoder_layers) * c.num_heads * src_len * src_len);
    maps.decoder.assign(lh * tgt_len * tgt_len, 0.f);
    maps.cross.resize(lh * tgt_len * src_len);
    const std::vector<int> fed(best.ids.begin(), best.ids.begin() + (tgt_len - 1));
    teacher_forced(source, fed, mask, true, maps.encoder.data(), [&](int t) {
      for (size_t m = 0; m < lh; ++m) {  // capture rows [L·H][T_max] / [L·H][S_max] -> row t of each map
        std::memcpy(maps.decoder.data() + (m * tgt_len + t) * tgt_len,
                    decoder.capture_self.data() + m * decoder.max_steps, (t + 1) * sizeof(float));
        std::memcpy(maps.cross.data() + (m * tgt_len + t) * src_len,
                    decoder.capture_cross.data() + m * decoder.max_source_len, src_len * sizeof(float));
      }
    });
    return maps;
  }

  // Puts source.pass_through into the text of each hypothesis of t, placed by its cross-attention.
  void carry_pass_through(const PreparedSource& source, Translation& t, const HeadMask& mask) {
    for (size_t h = 0; h < t.hypotheses.size(); ++h) {
      Hypothesis& hypothesis = t.hypotheses[h];
      std::optional<AttentionMaps> computed;  // the best hypothesis' maps may be captured already
      const AttentionMaps& maps =
          h == 0 && t.attention ? *t.attention : computed.emplace(attention_for(source.ids, hypothesis, mask));
      hypothesis.text = text_with_pass_through(source, hypothesis, maps, *impl.tgt_tokenizer);
    }
  }

  std::vector<Translation> translate_chunk(const std::vector<std::vector<int>>& sources, const TranslateOptions& o,
                                           const HeadMask& mask) {
    const ModelConfig& c = impl.config;
    TranslateOptions searched = o;
    if (o.reverse_model) searched.nbest = o.beam_size;  // reranking weighs every finished hypothesis
    std::vector<int> ids, offsets{0};
    std::vector<int> limits;
    for (const auto& s : sources) {
      ids.insert(ids.end(), s.begin(), s.end());
      offsets.push_back(static_cast<int>(ids.size()));
      limits.push_back(decode_limit(c, static_cast<int>(s.size()), o));
    }
    std::vector<std::vector<SearchHypothesis>> found;
    if (device) {  // the encoder output stays on the device
      device->encode(ids, offsets, mask, nullptr, 0);
      DeviceStepScorer scorer(*device, c, mask, o.beam_size == 1 ? 1 : 2 * o.beam_size);
      found = search(SearchRequest{impl, searched, nullptr, offsets, std::move(limits)}, scorer);
    } else if (!others.empty()) {
      found = search_ensemble(ids, offsets, std::move(limits), searched, mask);
    } else {
      encode(impl, kernels, ids, offsets, mask, encoder);
      CpuStepScorer scorer(impl, kernels, mask, decoder);
      found = search(SearchRequest{impl, searched, encoder.x.data(), offsets, std::move(limits)}, scorer);
    }

    std::vector<Translation> out(sources.size());
    const Language target_language = named_languages(impl).target;
    const bool caption_rules = caption_rules_on(impl, o.caption_rules);  // else the search's ids, unchanged
    for (size_t i = 0; i < sources.size(); ++i) {
      Translation& t = out[i];
      t.source_ids = sources[i];
      t.source_pieces = impl.src_tokenizer->pieces(sources[i]);
      const int limit = decode_limit(c, static_cast<int>(sources[i].size()), o);  // generated tokens, eos included
      if (caption_rules) {
        end_with_mark(found[i], final_mark(sources[i], c.eos_id, *impl.src_tokenizer), *impl.tgt_tokenizer,
                      static_cast<size_t>(limit - 1));
        if (opens_in_lowercase(sources[i], *impl.src_tokenizer)) {
          open_in_lowercase(found[i], *impl.tgt_tokenizer, target_language);
        }
      }
      for (SearchHypothesis& h : found[i]) {
        Hypothesis hyp;
        hyp.pieces = impl.tgt_tokenizer->pieces(h.ids);
        hyp.text = impl.tgt_tokenizer->decode(h.ids);
        hyp.ids = std::move(h.ids);
        hyp.score = h.score;
        hyp.log_prob = h.log_prob;
        hyp.tokens = h.tokens;
        hyp.ended_with_eos = h.ended_with_eos;
        t.hypotheses.push_back(std::move(hyp));
      }
    }
    if (o.reverse_model) {
      Translator& reverse = reverse_translator(o.reverse_model);
      constexpr int kPairsTogether = 32;  // score_ids' default; 64 and 160 were slower (en-de val, beam 5)
      rerank_by_reverse(out, *impl.src_tokenizer, reverse,
                        [&reverse](const std::vector<std::vector<int>>& sources, const std::vector<std::vector<int>>& targets,
                                   const KeepScoring& keep) {
                          return reverse.state_->score_pairs(sources, targets, kPairsTogether, keep);
                        },
                        o);
    }
    if (o.capture_attention) {
      for (size_t i = 0; i < sources.size(); ++i) capture_attention(sources[i], mask, out[i]);
    }
    return out;
  }

  // Translator::score_ids; with `keep`, pair i stops once keep(i, its sum so far) is false
  // (decode/forced_scores.h), its log_prob then the sum so far. An ensemble scores every pair whole:
  // its members score one after another.
  std::vector<TargetScore> score_pairs(const std::vector<std::vector<int>>& source_ids,
                                       const std::vector<std::vector<int>>& target_ids, int batch_size,
                                       const KeepScoring& keep) {
    const ModelConfig& c = impl.config;
    if (source_ids.size() != target_ids.size()) {
      throw Error(ErrorCode::invalid_argument, std::to_string(source_ids.size()) + " sources but " +
                                                   std::to_string(target_ids.size()) + " targets to score");
    }
    if (batch_size < 1) throw Error(ErrorCode::invalid_argument, "batch size must be at least 1, got " + std::to_string(batch_size));
    for (size_t i = 0; i < source_ids.size(); ++i) {
      check_source(c, source_ids[i]);
      check_target(c, target_ids[i]);
    }
    std::vector<TargetScore> out;
    out.reserve(source_ids.size());
    for (size_t start = 0; start < source_ids.size(); start += batch_size) {  // consecutive groups
      const size_t end = std::min(source_ids.size(), start + static_cast<size_t>(batch_size));
      std::vector<int> ids, offsets{0};
      for (size_t i = start; i < end; ++i) {
        ids.insert(ids.end(), source_ids[i].begin(), source_ids[i].end());
        offsets.push_back(static_cast<int>(ids.size()));
      }
      const std::vector<std::vector<int>> targets(target_ids.begin() + start, target_ids.begin() + end);
      KeepScoring keep_in_group;  // numbers the group's pairs as the caller does
      if (keep && member_count() == 1) {
        keep_in_group = [&keep, start](int pair, double sum) { return keep(static_cast<int>(start) + pair, sum); };
      }
      std::vector<double> sums(targets.size(), 0.0);  // an ensemble's: Σ_m w_m · member m's sum
      for (size_t m = 0; m < member_count(); ++m) {
        State& s = member(m);
        const HeadMask no_mask = HeadMask::from_refs(s.impl.config, {});
        std::vector<double> member_sums;
        if (s.device) {  // the encoder output stays on the device
          s.device->encode(ids, offsets, no_mask, nullptr, 0);
          member_sums = forced_log_probs(*s.device, s.impl.config, no_mask, targets, keep_in_group);
        } else {
          encode(s.impl, s.kernels, ids, offsets, no_mask, s.encoder);
          member_sums =
              forced_log_probs(s.impl, s.kernels, no_mask, s.encoder.x.data(), offsets, targets, s.decoder, keep_in_group);
        }
        const double weight = member_count() == 1 ? 1.0 : model->member_weights()[m];
        for (size_t i = 0; i < sums.size(); ++i) sums[i] += weight * member_sums[i];
      }
      for (size_t i = 0; i < targets.size(); ++i) {
        out.push_back(TargetScore{static_cast<float>(sums[i]), static_cast<int>(targets[i].size()) + 1});
      }
    }
    return out;
  }

  // The best hypothesis' maps: the attention member's with `mask` (the only member masked, as in
  // search_ensemble); for an ensemble every member's too.
  void capture_attention(const std::vector<int>& source, const HeadMask& mask, Translation& t) {
    const Hypothesis& best = t.hypotheses[0];
    if (others.empty()) {
      t.attention = attention_for(source, best, mask);
      return;
    }
    const size_t view_index = static_cast<size_t>(model->attention_member());
    for (size_t m = 0; m < member_count(); ++m) {
      State& s = member(m);
      t.member_attention.push_back(
          s.attention_for(source, best, m == view_index ? mask : HeadMask::from_refs(s.impl.config, {})));
    }
    t.attention = t.member_attention[view_index];
  }
};

Translator::Translator(std::shared_ptr<const Model> model) {
  if (!model) throw Error(ErrorCode::invalid_argument, "Translator needs a model, got null");
  state_ = std::make_unique<State>(std::move(model));
}
Translator::~Translator() = default;
Translator::Translator(Translator&&) noexcept = default;
Translator& Translator::operator=(Translator&&) noexcept = default;

const Model& Translator::model() const { return *state_->model; }

Translation Translator::translate(std::string_view text, const TranslateOptions& options) {
  return std::move(translate_batch({std::string(text)}, options, 1)[0]);
}

std::vector<int> Translator::source_ids(std::string_view text) const {
  return sentence_ids(state_->impl.config, state_->impl.src_tokenizer->encode(text));
}

std::vector<Translation> Translator::translate_batch(const std::vector<std::string>& texts,
                                                     const TranslateOptions& options, int batch_size) {
  std::vector<PreparedSource> sources;
  sources.reserve(texts.size());
  for (const std::string& text : texts) sources.push_back(prepare(text, options.caption_rules));
  return translate_prepared(sources, options, batch_size);
}

PreparedSource Translator::prepare(std::string_view given, CaptionRules rules) const {
  const Tokenizer& tokenizer = *state_->impl.src_tokenizer;
  const KnowsLowercase knows = knows_lowercase(tokenizer);
  const bool caption_rules = caption_rules_on(state_->impl, rules);
  // What the model reads best: with the caption rules, capitals in sentence case.
  const std::string text = caption_rules ? lowercase_shouted_words(sentence_case_if_all_caps(given), knows) : std::string(given);
  const std::vector<TokenSpan> tokens = tokenizer.encode_with_offsets(text);  // refuses invalid UTF-8
  const Tokenizer& target = *state_->impl.tgt_tokenizer;
  const NamedLanguages named = named_languages(state_->impl);
  if (caption_rules) {
    if (std::optional<PreparedSource> phrase = as_set_phrase(given, tokenizer, target, named)) {
      open_like_source(*phrase, target, named.target);
      return *std::move(phrase);
    }
  }
  const std::vector<ByteRange> spans = pass_through_spans(text, tokens, tokenizer.unk_id(), knows, caption_rules);
  if (!spans.empty()) {
    PreparedSource source =
        prepare_with_pass_through(tokenizer, given, text, tokens, spans, state_->impl.config.eos_id, caption_rules);
    if (source.status == TranslationStatus::passed_through) {
      source.written = passed_through_text(source, tokenizer, target);
      if (caption_rules) open_like_source(source, target, named.target);
    }
    return source;
  }
  PreparedSource source;
  source.caption_rules = caption_rules;
  source.text = std::string(given);
  for (const TokenSpan& token : tokens) source.ids.push_back(token.id);
  source.ids = sentence_ids(state_->impl.config, std::move(source.ids));
  return source;
}

std::vector<Translation> Translator::translate_prepared(const std::vector<PreparedSource>& sources,
                                                        const TranslateOptions& options, int batch_size) {
  std::vector<std::vector<int>> readable;  // the ids of the sentences the model reads
  std::vector<size_t> positions;           // of readable[k] in sources
  for (size_t i = 0; i < sources.size(); ++i) {
    if (sources[i].status != TranslationStatus::translated) continue;
    readable.push_back(sources[i].ids);
    positions.push_back(i);
  }
  std::vector<Translation> translated = translate_ids(readable, renumbered(options, positions), batch_size);
  std::vector<Translation> out(sources.size());
  for (size_t i = 0; i < sources.size(); ++i) {
    if (sources[i].status != TranslationStatus::translated) out[i] = not_decoded(sources[i]);
  }
  const HeadMask mask = HeadMask::from_refs(state_->view().impl.config, options.masked_heads);
  for (size_t k = 0; k < positions.size(); ++k) {
    out[positions[k]] = std::move(translated[k]);
    const PreparedSource& source = sources[positions[k]];
    if (!source.pass_through.empty()) state_->view().carry_pass_through(source, out[positions[k]], mask);
  }
  return out;
}

std::vector<Translation> Translator::translate_ids(const std::vector<std::vector<int>>& sources,
                                                   const TranslateOptions& options, int batch_size) {
  check_options(options);
  if (batch_size < 1) throw Error(ErrorCode::invalid_argument, "batch size must be at least 1, got " + std::to_string(batch_size));
  const ModelConfig& c = state_->impl.config;
  for (const auto& s : sources) check_source(c, s);
  const HeadMask mask = HeadMask::from_refs(state_->view().impl.config, options.masked_heads);
  std::vector<size_t> lengths;
  for (const auto& s : sources) lengths.push_back(s.size());
  std::vector<Translation> out(sources.size());
  for (const std::vector<size_t>& members : chunks_by_length(c, options, lengths, static_cast<size_t>(batch_size))) {
    std::vector<std::vector<int>> chunk;
    chunk.reserve(members.size());
    for (const size_t i : members) chunk.push_back(sources[i]);
    // The search numbers the chunk's sentences from 0; on_step hears their index in `sources`.
    std::vector<Translation> translated = state_->translate_chunk(chunk, renumbered(options, members), mask);
    for (size_t k = 0; k < members.size(); ++k) out[members[k]] = std::move(translated[k]);
  }
  return out;
}

std::vector<float> Translator::logits(const std::vector<int>& source_ids, const std::vector<int>& target_ids,
                                      const std::vector<HeadRef>& masked_heads) {
  const ModelConfig& c = state_->impl.config;
  check_source(c, source_ids);
  check_target(c, target_ids);
  const HeadMask mask = HeadMask::from_refs(c, masked_heads);
  const size_t vocab = c.tgt_vocab_size;
  std::vector<float> out((target_ids.size() + 1) * vocab);  // [T + 1, V]
  state_->teacher_forced(source_ids, target_ids, mask, false, nullptr, [&](int t) {
    std::memcpy(out.data() + t * vocab, state_->decoder.logits.data(), vocab * sizeof(float));
  });
  return out;
}

TargetScore Translator::score(std::string_view source, std::string_view target) {
  return score_ids({source_ids(source)}, {target_ids(target)}, 1)[0];
}

std::vector<int> Translator::target_ids(std::string_view text) const {
  const ModelConfig& c = state_->impl.config;
  std::vector<int> ids = state_->impl.tgt_tokenizer->encode(text);
  check_target(c, ids);
  return ids;
}

std::vector<TargetScore> Translator::score_ids(const std::vector<std::vector<int>>& source_ids,
                                               const std::vector<std::vector<int>>& target_ids, int batch_size) {
  return state_->score_pairs(source_ids, target_ids, batch_size, {});
}

}  // namespace attend
