#include "decode/search.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>

#include "attend/error.h"

namespace attend {

float length_penalty(int length, float alpha) {
  return std::pow((5.f + static_cast<float>(length)) / 6.f, alpha);  // GNMT, Wu et al. 2016
}

namespace {

int max_limit(const SearchRequest& r) { return *std::max_element(r.limits.begin(), r.limits.end()); }

struct Beam {
  int slot;
  float score;     // Σ log p (SearchRules::marian: Σ logits)
  float log_prob;  // Σ log p
};

struct Finished {
  std::vector<int> ids;
  float score;      // as Beam's
  float log_prob;
  int length;       // generated tokens, eos included
  bool ended_with_eos;
};

struct Candidate {
  float score;     // the beam's score + the token's log_prob (SearchRules::marian: logit)
  float log_prob;  // of the token
  int64_t flat;    // beam · V + token: the tie-break, lower first
  int row;         // the row of the beam it extends
};

// Best first: higher score, then lower flat index (search.py's order).
bool better(const Candidate& a, const Candidate& b) {
  return a.score > b.score || (a.score == b.score && a.flat < b.flat);
}

// Calls options.on_step for one row; stops the search if it returns false.
class StepReporter {
 public:
  StepReporter(const SearchRequest& r, const StepScorer& scorer, bool capture)
      : request_(r), scorer_(scorer), capture_(capture) {
    const ModelConfig& c = r.model.config;
    int longest = 0;
    for (size_t s = 0; s + 1 < r.source_offsets.size(); ++s) {
      longest = std::max(longest, r.source_offsets[s + 1] - r.source_offsets[s]);
    }
    if (capture) cross_.resize(static_cast<size_t>(c.decoder_layers) * c.num_heads * longest);  // [L·H·S_max]
  }

  bool active() const { return static_cast<bool>(request_.options.on_step); }

  void report(int sentence, int row, int step, int token, float log_prob) {
    StepEvent event;
    event.sentence = sentence;
    event.step = step;
    event.token = token;
    const std::string piece = request_.model.tgt_tokenizer->id_to_piece(token);
    event.piece = piece;
    event.log_prob = log_prob;
    if (capture_) {
      scorer_.cross_attention(row, cross_.data());
      event.cross_attention = cross_.data();
      event.src_len = request_.source_offsets[sentence + 1] - request_.source_offsets[sentence];
    }
    if (!request_.options.on_step(event)) throw Error(ErrorCode::cancelled, "translation cancelled by the caller");
  }

 private:
  const SearchRequest& request_;
  const StepScorer& scorer_;
  bool capture_;
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

std::vector<std::vector<SearchHypothesis>> search(const SearchRequest& r, StepScorer& scorer) {
  const ModelConfig& c = r.model.config;
  const TranslateOptions& o = r.options;
  const int sentences = static_cast<int>(r.limits.size()), vocab = c.tgt_vocab_size, width = o.beam_size;
  const int steps = max_limit(r);
  // Greedy is the beam rules with one beam: it needs each row's best token only, and ranks
  // nothing (alpha 0: its score is Σ log p; Marian's greedy reports its normalized score).
  const bool greedy = width == 1, marian = o.search_rules == SearchRules::marian;
  // Marian keeps the best as many as go on (at most width), Attend walks 2·width for width that go on.
  const int k = greedy ? 1 : marian ? width : 2 * width;
  const float alpha = greedy && !marian ? 0.f : o.length_penalty;
  const auto normalized = [&](const Finished& f) {
    return marian ? (f.score - o.word_penalty * static_cast<float>(f.length)) / std::pow(static_cast<float>(f.length), alpha)
                  : f.score / length_penalty(f.length, alpha);
  };
  const bool capture = o.capture_attention && o.on_step;
  scorer.prepare(DecodeShape{r.memory, &r.source_offsets, sentences * width, sentences * width, steps, capture,
                             r.allowed.empty() ? nullptr : r.allowed.data()});
  StepReporter reporter(r, scorer, capture);

  // history[slot][t]: token chosen at step t by the hypothesis living in `slot`.
  std::vector<int> history(static_cast<size_t>(sentences) * width * steps);
  std::vector<std::vector<Beam>> beams(sentences);
  std::vector<std::vector<Finished>> finished(sentences);
  std::vector<bool> done(sentences, false);
  for (int s = 0; s < sentences; ++s) {
    beams[s].reserve(width);
    beams[s].push_back(Beam{s * width, 0.f, 0.f});
    if (marian && r.source_offsets[s + 1] - r.source_offsets[s] == 1) {  // eos alone: Marian forces eos, score 0
      finished[s].push_back(Finished{{}, 0.f, 0.f, 1, true});
      done[s] = true;
    }
  }
  const size_t max_rows = static_cast<size_t>(sentences) * width;
  std::vector<int> tokens, slots, row_sentence;  // [R] this step's rows
  std::vector<BannedTokens> banned;               // [R]
  tokens.reserve(max_rows);
  slots.reserve(max_rows);
  row_sentence.reserve(max_rows);
  banned.reserve(max_rows);
  std::vector<TokenScore> best(max_rows * k);  // [R, k]
  std::vector<SlotFork> forks;
  forks.reserve(max_rows);
  std::vector<Candidate> candidates;
  candidates.reserve(static_cast<size_t>(width) * k);
  std::vector<Beam> next;
  next.reserve(width);
  std::vector<int> next_tokens(width), parent_slot(width), claimed(width);

  for (int step = 0; step < steps; ++step) {
    tokens.clear();
    slots.clear();
    row_sentence.clear();
    banned.clear();
    for (int s = 0; s < sentences; ++s) {
      if (done[s]) continue;
      for (const Beam& b : beams[s]) {
        const int* h = history.data() + static_cast<size_t>(b.slot) * steps;
        tokens.push_back(step == 0 ? c.bos_id : h[step - 1]);
        slots.push_back(b.slot);
        row_sentence.push_back(s);
        banned.push_back(repeat_banned(h, step, o.max_repeats));
        if (marian) banned.back().add(c.unk_id);  // Marian's suppressWord (allow-unk off)
      }
    }
    if (tokens.empty()) break;
    const int live = static_cast<int>(tokens.size());
    scorer.step(StepRows{tokens.data(), slots.data(), row_sentence.data(), banned.data(), live, step}, k, best.data());

    forks.clear();
    for (int row = 0; row < live;) {
      const int s = row_sentence[row];
      const int first_row = row, count = static_cast<int>(beams[s].size());
      row += count;
      // Every beam's k best tokens scored, walked best first: the top 2·width (beam, token) pairs
      // of the sentence are among them.
      candidates.clear();
      for (int b = 0; b < count; ++b) {
        const TokenScore* t = best.data() + static_cast<size_t>(first_row + b) * k;
        for (int j = 0; j < k; ++j) {
          candidates.push_back(Candidate{beams[s][b].score + (marian ? t[j].logit : t[j].log_prob), t[j].log_prob,
                                         static_cast<int64_t>(b) * vocab + t[j].token, first_row + b});
        }
      }
      std::sort(candidates.begin(), candidates.end(), better);
      next.clear();
      // Reported: the newest token of the best hypothesis that goes on (greedy: its token, eos too).
      const Candidate* shown = greedy ? &candidates[0] : nullptr;
      // Attend walks the 2·width best; Marian takes the best as many as go on (width at step 0).
      const int walked = marian ? (step == 0 ? width : count) : 2 * width;
      for (size_t rank = 0; rank < candidates.size() && rank < static_cast<size_t>(walked); ++rank) {
        const Candidate& cand = candidates[rank];
        const int b = static_cast<int>(cand.flat / vocab), token = static_cast<int>(cand.flat % vocab);
        const Beam& parent = beams[s][b];
        if (token == c.eos_id) {
          if (rank < static_cast<size_t>(width)) {
            const int* h = history.data() + static_cast<size_t>(parent.slot) * steps;
            finished[s].push_back(
                Finished{std::vector<int>(h, h + step), cand.score, parent.log_prob + cand.log_prob, step + 1, true});
          }
          continue;
        }
        if (!shown) shown = &cand;
        next_tokens[next.size()] = token;
        parent_slot[next.size()] = parent.slot;
        next.push_back(Beam{-1, cand.score, parent.log_prob + cand.log_prob});
        if (static_cast<int>(next.size()) == width) break;
      }
      if (reporter.active() && shown) {
        reporter.report(s, shown->row, step, static_cast<int>(shown->flat % vocab), shown->log_prob);
      }
      // Slots: the first child of a parent keeps the parent's slot (no copy); further
      // children take slots no parent needs and fork the parent's cache and history.
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
        forks.push_back(SlotFork{parent_slot[j], next[j].slot});
        std::memcpy(history.data() + static_cast<size_t>(next[j].slot) * steps,
                    history.data() + static_cast<size_t>(parent_slot[j]) * steps, step * sizeof(int));
      }
      for (size_t j = 0; j < next.size(); ++j) history[static_cast<size_t>(next[j].slot) * steps + step] = next_tokens[j];
      beams[s].assign(next.begin(), next.end());
      if (step + 1 >= r.limits[s]) {
        for (const Beam& b : beams[s]) {
          const int* h = history.data() + static_cast<size_t>(b.slot) * steps;
          finished[s].push_back(Finished{std::vector<int>(h, h + step + 1), b.score, b.log_prob, step + 1, false});
        }
        done[s] = true;
      } else if (static_cast<int>(finished[s].size()) >= width || beams[s].empty()) {
        done[s] = true;  // early stop: `width` hypotheses have finished
      }
      if (done[s]) beams[s].clear();
    }
    scorer.fork_slots(forks.data(), static_cast<int>(forks.size()), step + 1);
  }

  std::vector<std::vector<SearchHypothesis>> results(sentences);
  for (int s = 0; s < sentences; ++s) {
    auto& f = finished[s];
    std::stable_sort(f.begin(), f.end(), [&](const Finished& a, const Finished& b) { return normalized(a) > normalized(b); });
    for (size_t i = 0; i < f.size() && i < static_cast<size_t>(o.nbest); ++i) {
      results[s].push_back(
          SearchHypothesis{std::move(f[i].ids), normalized(f[i]), f[i].log_prob, f[i].length, f[i].ended_with_eos});
    }
  }
  return results;
}

}  // namespace attend
