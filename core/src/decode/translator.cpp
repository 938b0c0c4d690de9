#include "attend/translator.h"

// The engine's half of Translator: token ids in; ids, scores and (on request) attention out.
// The text-level calls (translate, prepare, translate_prepared) are the text pipeline's
// (pipeline/text_translation.cpp).
#include "attend/translator.h"

#include <algorithm>
#include <cstring>

#include "attend/error.h"
#include "decode/checks.h"
#include "decode/chunking.h"
#include "decode/cpu_step_scorer.h"
#include "decode/device_step_scorer.h"
#include "decode/ensemble_step_scorer.h"
#include "decode/forced_scores.h"
#include "decode/reverse_rerank.h"
#include "decode/search.h"
#include "model/device_model.h"
#include "model/encoder.h"

namespace attend {

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

  // Whether the model's lexical shortlist is used: it has one, the options ask for it, and one
  // model decodes on the CPU (a device or an ensemble uses the whole vocabulary).
  bool shortlist_in_use(const TranslateOptions& o) const { return impl.shortlist && o.shortlist && !device && others.empty(); }

  // [V] the tokens the model's lexical shortlist allows a batch of `sources`, as Marian builds it
  // (the union over the batch); empty when it is not used.
  std::vector<uint8_t> shortlisted(const std::vector<std::vector<int>>& sources, const TranslateOptions& o) const {
    if (!shortlist_in_use(o)) return {};
    std::vector<uint8_t> allowed(static_cast<size_t>(impl.config.tgt_vocab_size), 0);
    for (int id : impl.shortlist->for_batch(sources, impl.config.eos_id, impl.config.shared_vocab)) allowed[id] = 1;
    return allowed;
  }

  // With the shortlist in use the sentences are one of Marian's batches (chunks_by_length's), so
  // each may run to the batch's length limit, as Marian's search does (its max-length-factor
  // times the batch's widest source), not to its own.
  std::vector<Translation> translate_chunk(const std::vector<std::vector<int>>& sources, const TranslateOptions& o,
                                           const HeadMask& mask) {
    const ModelConfig& c = impl.config;
    TranslateOptions searched = o;
    if (o.reverse_model) searched.nbest = o.beam_size;  // reranking weighs every finished hypothesis
    std::vector<int> ids, offsets{0};
    std::vector<int> limits;
    size_t widest = 0;
    for (const auto& s : sources) {
      ids.insert(ids.end(), s.begin(), s.end());
      offsets.push_back(static_cast<int>(ids.size()));
      limits.push_back(decode_limit(c, static_cast<int>(s.size()), o));
      widest = std::max(widest, s.size());
    }
    if (shortlist_in_use(o)) limits.assign(sources.size(), decode_limit(c, static_cast<int>(widest), o));
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
      found = search(SearchRequest{impl, searched, encoder.x.data(), offsets, std::move(limits), shortlisted(sources, o)},
                     scorer);
    }

    std::vector<Translation> out(sources.size());
    for (size_t i = 0; i < sources.size(); ++i) {
      Translation& t = out[i];
      t.source_ids = sources[i];
      t.source_pieces = impl.src_tokenizer->pieces(sources[i]);
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

std::vector<int> Translator::source_ids(std::string_view text) const {
  return sentence_ids(state_->impl, state_->impl.src_tokenizer->encode(text));
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
  // A batch's shortlist is the union of its sentences' (shortlisted above): with one in use the
  // chunks are Bergamot's batches, so that a sentence's company, and so its translation (its
  // shortlist and its length limit), is Marian's.
  for (const std::vector<size_t>& members :
       chunks_by_length(c, options, lengths, static_cast<size_t>(batch_size), state_->shortlist_in_use(options))) {
    std::vector<std::vector<int>> chunk;
    chunk.reserve(members.size());
    for (const size_t i : members) chunk.push_back(sources[i]);
    // The search numbers the chunk's sentences from 0; on_step hears their index in `sources`.
    std::vector<Translation> translated = state_->translate_chunk(chunk, renumbered(options, members), mask);
    for (size_t k = 0; k < members.size(); ++k) out[members[k]] = std::move(translated[k]);
  }
  return out;
}

AttentionMaps Translator::attention(const std::vector<int>& source_ids, const Hypothesis& hypothesis,
                                    const std::vector<HeadRef>& masked_heads) {
  State& view = state_->view();
  check_source(view.impl.config, source_ids);
  check_target(view.impl.config, hypothesis.ids);
  return view.attention_for(source_ids, hypothesis, HeadMask::from_refs(view.impl.config, masked_heads));
}

void Translator::capture_attention(Translation& t, const std::vector<HeadRef>& masked_heads) {
  if (t.hypotheses.empty()) throw Error(ErrorCode::invalid_argument, "a translation without hypotheses has no attention");
  State& view = state_->view();
  check_source(view.impl.config, t.source_ids);
  check_target(view.impl.config, t.hypotheses[0].ids);
  t.member_attention.clear();
  state_->capture_attention(t.source_ids, HeadMask::from_refs(view.impl.config, masked_heads), t);
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
