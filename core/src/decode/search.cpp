#include "decode/search.h"

#include <algorithm>
#include <cmath>
#include <cstring>

#include "attend/error.h"
#include "decode/live_rows.h"
#include "decode/log_probs.h"
#include "decode/repeat_guard.h"

namespace attend {
namespace {

float length_penalty(int length, float alpha) {
  return std::pow((5.f + static_cast<float>(length)) / 6.f, alpha);  // GNMT, Wu et al. 2016
}

int max_limit(const SearchRequest& r) { return *std::max_element(r.limits.begin(), r.limits.end()); }

// Calls options.on_step for one row; stops the search if it returns false.
class StepReporter {
 public:
  StepReporter(const SearchRequest& r, const DecoderWorkspace& ws) : request_(r), ws_(ws) {
    const ModelConfig& c = r.model.config;
    if (ws.capturing) cross_.resize(static_cast<size_t>(c.decoder_layers) * c.num_heads * ws.max_source_len);
  }

  bool active() const { return static_cast<bool>(request_.options.on_step); }

  void report(int sentence, int row, int step, int token, float log_prob) {
    const ModelConfig& c = request_.model.config;
    const std::string piece = request_.model.tgt_tokenizer->id_to_piece(token);
    StepEvent event;
    event.sentence = sentence;
    event.step = step;
    event.token = token;
    event.piece = piece;
    event.log_prob = log_prob;
    if (ws_.capturing) {
      const int len = request_.source_offsets[sentence + 1] - request_.source_offsets[sentence];
      const size_t maps = static_cast<size_t>(c.decoder_layers) * c.num_heads;
      const float* src = ws_.capture_cross.data() + static_cast<size_t>(row) * maps * ws_.max_source_len;
      for (size_t m = 0; m < maps; ++m) {  // [L·H][S_max] -> [L·H][S]
        std::memcpy(cross_.data() + m * len, src + m * ws_.max_source_len, len * sizeof(float));
      }
      event.cross_attention = cross_.data();
      event.src_len = len;
    }
    if (!request_.options.on_step(event)) throw Error(ErrorCode::cancelled, "translation cancelled by the caller");
  }

 private:
  const SearchRequest& request_;
  const DecoderWorkspace& ws_;
  std::vector<float> cross_;
};

}  // namespace

int decode_limit(const ModelConfig& c, int source_len, const TranslateOptions& o) {
  int limit = std::min(o.max_length, c.max_positions);
  if (o.max_length_ratio > 0) {
    const double by_ratio = std::ceil(static_cast<double>(o.max_length_ratio) * source_len);
    limit = std::min(limit, std::max(1, static_cast<int>(std::min(by_ratio, 1e9))));
  }
  return limit;
}

std::vector<std::vector<SearchHypothesis>> greedy_search(const SearchRequest& r, DecoderWorkspace& ws) {
  const ModelConfig& c = r.model.config;
  const int sentences = static_cast<int>(r.limits.size()), vocab = c.tgt_vocab_size;
  const bool capture = r.options.capture_attention && r.options.on_step;
  ws.reserve(c, sentences, sentences, max_limit(r), r.source_offsets, capture);
  prepare_cross_attention(r.model, r.kernels, r.memory, ws);
  StepReporter reporter(r, ws);

  std::vector<std::vector<SearchHypothesis>> results(sentences, std::vector<SearchHypothesis>(1));
  for (int s = 0; s < sentences; ++s) results[s][0].ids.reserve(r.limits[s]);
  LiveRows live(sentences, c.bos_id);
  for (int step = 0; !live.empty(); ++step) {
    decoder_step(r.model, r.kernels, live.step_input(step), r.mask, ws);
    for (int i = 0; i < live.size(); ++i) {
      const int s = live.sentence(i);
      float* logits = ws.logits.data() + static_cast<size_t>(i) * vocab;
      SearchHypothesis& h = results[s][0];
      int token = argmax(logits, vocab);
      const float lse = log_sum_exp(r.kernels, logits, vocab, token);
      const BannedTokens banned = repeat_banned(h.ids.data(), static_cast<int>(h.ids.size()), r.options.max_repeats);
      if (banned.contains(token)) {
        banned.mask(logits);
        token = argmax(logits, vocab);
      }
      const float log_prob = logits[token] - lse;
      h.log_prob += log_prob;
      h.score = h.log_prob;  // greedy ranks nothing: its score is Σ log p
      ++h.tokens;
      if (reporter.active()) reporter.report(s, i, step, token, log_prob);
      if (token == c.eos_id) continue;
      h.ids.push_back(token);
      if (step + 1 >= r.limits[s]) {
        h.ended_with_eos = false;
        continue;
      }
      live.keep(s, token);
    }
    live.end_step();
  }
  return results;
}

namespace {

struct Beam {
  int slot;
  float score;  // Σ log p
};

struct Finished {
  std::vector<int> ids;
  float score;      // Σ log p
  int length;       // generated tokens, eos included
  bool ended_with_eos;
};

}  // namespace

std::vector<std::vector<SearchHypothesis>> beam_search(const SearchRequest& r, DecoderWorkspace& ws) {
  const ModelConfig& c = r.model.config;
  const TranslateOptions& o = r.options;
  const int sentences = static_cast<int>(r.limits.size()), vocab = c.tgt_vocab_size, width = o.beam_size;
  const int steps = max_limit(r);
  const bool capture = o.capture_attention && o.on_step;
  ws.reserve(c, sentences * width, sentences * width, steps, r.source_offsets, capture);
  prepare_cross_attention(r.model, r.kernels, r.memory, ws);
  StepReporter reporter(r, ws);

  // history[slot][t]: token chosen at step t by the hypothesis living in `slot`.
  std::vector<int> history(static_cast<size_t>(sentences) * width * steps);
  std::vector<std::vector<Beam>> beams(sentences);
  std::vector<std::vector<Finished>> finished(sentences);
  std::vector<bool> done(sentences, false);
  for (int s = 0; s < sentences; ++s) {
    beams[s].reserve(width);
    beams[s].push_back(Beam{s * width, 0.f});
  }
  std::vector<int> tokens, slots, row_sentence;
  tokens.reserve(sentences * width);
  slots.reserve(sentences * width);
  row_sentence.reserve(sentences * width);
  std::vector<Candidate> candidates;
  candidates.reserve(static_cast<size_t>(width) * 2 * width);
  std::vector<Beam> next;
  next.reserve(width);
  std::vector<int> next_tokens(width), parent_slot(width), claimed(width);
  std::vector<float> row_lse(width);  // log Σ exp of each beam's logits, before the repeat guard

  for (int step = 0; step < steps; ++step) {
    tokens.clear();
    slots.clear();
    row_sentence.clear();
    for (int s = 0; s < sentences; ++s) {
      if (done[s]) continue;
      for (const Beam& b : beams[s]) {
        tokens.push_back(step == 0 ? c.bos_id : history[static_cast<size_t>(b.slot) * steps + step - 1]);
        slots.push_back(b.slot);
        row_sentence.push_back(s);
      }
    }
    if (tokens.empty()) break;
    const int live = static_cast<int>(tokens.size());
    decoder_step(r.model, r.kernels, StepInput{tokens.data(), slots.data(), row_sentence.data(), live, step}, r.mask, ws);

    for (int row = 0; row < live;) {
      const int s = row_sentence[row];
      const int first_row = row, count = static_cast<int>(beams[s].size());
      row += count;
      // Every (beam, token) the repeat guard allows scored; walked best first (search.py's order).
      candidates.clear();
      for (int b = 0; b < count; ++b) {
        float* logits = ws.logits.data() + static_cast<size_t>(first_row + b) * vocab;
        row_lse[b] = log_sum_exp(r.kernels, logits, vocab, argmax(logits, vocab));
        repeat_banned(history.data() + static_cast<size_t>(beams[s][b].slot) * steps, step, o.max_repeats).mask(logits);
        top_candidates(logits, vocab, 2 * width, beams[s][b].score, row_lse[b], static_cast<int64_t>(b) * vocab, candidates);
      }
      std::sort(candidates.begin(), candidates.end(), better);
      next.clear();
      for (size_t rank = 0; rank < candidates.size() && rank < static_cast<size_t>(2 * width); ++rank) {
        const Candidate& cand = candidates[rank];
        const int b = static_cast<int>(cand.flat / vocab), token = static_cast<int>(cand.flat % vocab);
        const Beam& parent = beams[s][b];
        if (token == c.eos_id) {
          if (rank < static_cast<size_t>(width)) {
            const int* h = history.data() + static_cast<size_t>(parent.slot) * steps;
            finished[s].push_back(Finished{std::vector<int>(h, h + step), cand.score, step + 1, true});
          }
          continue;
        }
        next_tokens[next.size()] = token;
        parent_slot[next.size()] = parent.slot;
        next.push_back(Beam{-1, cand.score});
        if (static_cast<int>(next.size()) == width) break;
      }
      if (reporter.active() && !next.empty()) {
        const int best_parent = static_cast<int>(
            std::find_if(beams[s].begin(), beams[s].end(), [&](const Beam& b) { return b.slot == parent_slot[0]; }) -
            beams[s].begin());
        const float* logits = ws.logits.data() + static_cast<size_t>(first_row + best_parent) * vocab;
        reporter.report(s, first_row + best_parent, step, next_tokens[0], logits[next_tokens[0]] - row_lse[best_parent]);
      }
      // Slots: the first child of a parent keeps the parent's slot (no copy); further
      // children take slots no parent needs and copy the parent's cache and history.
      const int base = s * width;
      std::fill(claimed.begin(), claimed.end(), 0);
      for (size_t j = 0; j < next.size(); ++j) {
        if (!claimed[parent_slot[j] - base]) {
          claimed[parent_slot[j] - base] = 1;
          next[j].slot = parent_slot[j];
        }
      }
      int free_slot = 0;
      for (size_t j = 0; j < next.size(); ++j) {
        if (next[j].slot >= 0) continue;
        while (claimed[free_slot]) ++free_slot;
        claimed[free_slot] = 1;
        next[j].slot = base + free_slot;
        copy_cache_slot(c, ws, parent_slot[j], next[j].slot, step + 1);
        std::memcpy(history.data() + static_cast<size_t>(next[j].slot) * steps,
                    history.data() + static_cast<size_t>(parent_slot[j]) * steps, step * sizeof(int));
      }
      for (size_t j = 0; j < next.size(); ++j) history[static_cast<size_t>(next[j].slot) * steps + step] = next_tokens[j];
      beams[s].assign(next.begin(), next.end());
      if (step + 1 >= r.limits[s]) {
        for (const Beam& b : beams[s]) {
          const int* h = history.data() + static_cast<size_t>(b.slot) * steps;
          finished[s].push_back(Finished{std::vector<int>(h, h + step + 1), b.score, step + 1, false});
        }
        done[s] = true;
      } else if (static_cast<int>(finished[s].size()) >= width || beams[s].empty()) {
        done[s] = true;  // early stop: `width` hypotheses have finished
      }
      if (done[s]) beams[s].clear();
    }
  }

  std::vector<std::vector<SearchHypothesis>> results(sentences);
  for (int s = 0; s < sentences; ++s) {
    auto& f = finished[s];
    std::stable_sort(f.begin(), f.end(), [&](const Finished& a, const Finished& b) {
      return a.score / length_penalty(a.length, o.length_penalty) > b.score / length_penalty(b.length, o.length_penalty);
    });
    for (size_t i = 0; i < f.size() && i < static_cast<size_t>(o.nbest); ++i) {
      results[s].push_back(SearchHypothesis{std::move(f[i].ids), f[i].score / length_penalty(f[i].length, o.length_penalty),
                                            f[i].score, f[i].length, f[i].ended_with_eos});
    }
  }
  return results;
}

}  // namespace attend
