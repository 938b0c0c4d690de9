// The cross-request batcher: sentences of concurrent requests wait in one queue, and each worker
// (one per core, every worker with its own Translator over the shared Model) decodes the oldest
// waiting request's sentences together with other requests' that can share its batch, in one
// ragged batch (Translator::translate_prepared).
//
// How long a batch waits for company follows the demand it has seen (DemandWindow): the most
// requests of its kind that were in the batcher at once over its kind's last batches. A batch
// waits (at most `max_wait` after its oldest request came) for the requests that can still come:
// that demand less the requests other workers are decoding, shared among the idle workers
// (company_wanted). One client alone is never held (its demand is 1: its own request); 16
// clients on 2 workers gather into batches of about 8, one decoding while the other fills. A
// worker takes what it waited for, or its share of what waits when more does, so a burst is
// split over the idle workers.
//
// Sharing a batch does not change a sentence's answer: the search runs per sentence, and every
// GEMM row is computed from that row alone (int8 activations too: one scale per row). Two
// things are shared, and are handled:
//  - a lexical shortlist (imported Marian models) chooses tokens from the union over the batch,
//    so a model with one (ServedModel::mixes_requests false) decodes each request's sentences
//    alone, all in one call, as the CLI decodes its input;
//  - the f32 kernels sum a GEMM of at most 4 rows in another order than a larger one (the dot
//    tile against the panels, kernels/simd_gemm.h), so logits can differ in their last bits with
//    the batch, for the CLI's own batches as for these; docs/serve.md gives how often a
//    translation changed with it (never, on the lines measured).
#pragma once

#include <chrono>
#include <condition_variable>
#include <cstddef>
#include <deque>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <tuple>
#include <vector>

#include "attend/translator.h"
#include "served_models.h"

namespace attend::server {

// What a request asks of the search beyond its model's options. Only sentences asking the same
// share a batch.
struct SearchAsk {
  int nbest = 1;           // hypotheses per sentence; the beam is widened to hold them
  bool attention = false;  // capture the best hypothesis' attention
  // A multilingual model's target-language token (ServedPair::target_token), read before each
  // sentence; empty: the model's options' own. The core puts it before every sentence of a
  // translate_prepared call (TranslateOptions::target_token), so sentences asking for different
  // languages are never in one batch.
  std::string target_token;
  bool operator==(const SearchAsk& other) const {
    return nbest == other.nbest && attention == other.attention && target_token == other.target_token;
  }
};

// The model's options with the ask applied: beam at least nbest, the ask's target token.
TranslateOptions asked_options(const ServedModel& model, const SearchAsk& ask);

struct SentenceOutcome {
  Translation translation;  // empty for a sentence with nothing to translate or that failed
  std::string error;        // why the model refused the sentence (invalid_input), else empty
};

struct BatchReport {
  size_t sentences = 0;
  size_t generated_tokens = 0;  // of the best hypotheses
  size_t requests = 0;          // distinct requests whose sentences were in the batch
  bool held = false;            // the batch waited for company before it was decoded
};

// The demand of one kind of request (a model and a SearchAsk, its target token included): how many such requests are in the
// batcher (queued or decoding), and the most that were at once over the kind's last kBatches
// batches. Requests of the kind that are between an answer and their client's next request are
// not in the batcher: they are the company a batch can wait for. A kind idle for kForget forgets
// its past demand.
class DemandWindow {
 public:
  using Clock = std::chrono::steady_clock;
  static constexpr size_t kBatches = 8;
  static constexpr std::chrono::seconds kForget{1};
  void arrived(Clock::time_point now);  // a request came in
  void finished();                      // a request was answered (or failed)
  // A batch of the kind starts: the most in the batcher since the previous batch is remembered.
  void batch_started(Clock::time_point now);
  size_t in_batcher() const { return in_batcher_; }
  // The most requests of the kind in the batcher at once since kBatches batches ago (at least 1).
  size_t demand() const;

 private:
  size_t in_batcher_ = 0;
  size_t peak_since_batch_ = 0;
  size_t recent_[kBatches] = {};  // the peaks before each of the kind's last kBatches batches
  size_t next_ = 0;
  Clock::time_point last_batch_{};
};

// Requests a batch waits for: those that can still come (`demand` less the `decoding_elsewhere`
// requests of its kind other workers are decoding, which cannot come back before they finish),
// shared among the `idle_workers` (this one included); at least 1, so a lone request never waits.
size_t company_wanted(size_t demand, size_t decoding_elsewhere, size_t idle_workers);

struct BatcherSettings {
  int workers = 1;
  std::chrono::microseconds max_wait{2000};  // the longest a batch waits for company (its oldest request's wait)
  size_t queue_capacity = 4096;              // sentences waiting; more is ApiError 503
  std::function<void(const BatchReport&)> on_batch;  // called after each batch, from its worker
};

class SentenceBatcher {
 public:
  SentenceBatcher(const ServedModels& models, BatcherSettings settings);
  ~SentenceBatcher();  // stop()
  SentenceBatcher(const SentenceBatcher&) = delete;
  SentenceBatcher& operator=(const SentenceBatcher&) = delete;

  // Decodes `sources` (Translator::prepare's, of model `model`) and blocks until every one is
  // done; outcomes in their order. Throws ApiError 503 with Retry-After when the queue cannot
  // take them or the batcher is stopping, and rethrows an error that is not about one sentence.
  std::vector<SentenceOutcome> translate(size_t model, std::vector<PreparedSource> sources, const SearchAsk& ask);
  // Runs `work` on a worker's Translator of `model` in its turn (a request translated whole:
  // HTML), counted as one waiting sentence, and blocks until it is done; rethrows what it throws.
  void run(size_t model, std::function<void(Translator&)> work);
  // Takes nothing more, finishes what is queued, joins the workers.
  void stop();
  size_t queued_sentences() const;

 private:
  struct Job;
  struct Piece {
    std::shared_ptr<Job> job;
    size_t index;
  };

  struct Waiting {
    size_t requests = 0, sentences = 0;
  };
  struct Kind {
    size_t model;
    SearchAsk ask;
    bool operator<(const Kind& other) const {
      return std::tie(model, ask.nbest, ask.attention, ask.target_token) <
             std::tie(other.model, other.ask.nbest, other.ask.attention, other.ask.target_token);
    }
  };

  void submit(const std::shared_ptr<Job>& job, size_t sentences);
  void work_loop(size_t worker);
  Waiting waiting_for(const Job& front) const;  // waiting requests (and their sentences) that may share front's batch
  std::vector<Piece> take_batch(const std::shared_ptr<Job>& front, size_t most_requests);
  void decode(Translator& translator, const std::vector<Piece>& batch, bool held);
  void piece_done(Job& job);  // under mutex_
  Translator& translator(size_t worker, size_t model);

  const ServedModels& models_;
  BatcherSettings settings_;
  mutable std::mutex mutex_;
  std::condition_variable work_ready_;
  std::deque<std::shared_ptr<Job>> queue_;  // jobs with sentences not yet taken, oldest first
  size_t queued_ = 0;                       // their sentences not yet taken
  int busy_workers_ = 0;                    // workers decoding
  std::map<Kind, DemandWindow> demand_;     // of the requests that may share batches, by kind
  bool stopping_ = false;
  std::vector<std::vector<std::unique_ptr<Translator>>> translators_;  // [worker][model], made on first use
  std::vector<std::thread> workers_;
};

}  // namespace attend::server
