// The cross-request batcher: sentences of concurrent requests wait in one queue, and each worker
// (one per core, every worker with its own Translator over the shared Model) decodes the oldest
// waiting sentence together with the others that can share its batch, in one ragged batch
// (Translator::translate_prepared), after waiting at most `max_wait` for the batch to fill while
// another worker is decoding (with every worker idle, a batch is decoded at once).
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
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "attend/translator.h"
#include "served_models.h"

namespace attend::server {

// What a request asks of the search beyond its model's options. Only sentences asking the same
// share a batch.
struct SearchAsk {
  int nbest = 1;           // hypotheses per sentence; the beam is widened to hold them
  bool attention = false;  // capture the best hypothesis' attention
  bool operator==(const SearchAsk& other) const { return nbest == other.nbest && attention == other.attention; }
};

// The model's options with the ask applied: beam at least nbest.
TranslateOptions asked_options(const ServedModel& model, const SearchAsk& ask);

struct SentenceOutcome {
  Translation translation;  // empty for a sentence with nothing to translate or that failed
  std::string error;        // why the model refused the sentence (invalid_input), else empty
};

struct BatchReport {
  size_t sentences = 0;
  size_t generated_tokens = 0;  // of the best hypotheses
};

struct BatcherSettings {
  int workers = 1;
  std::chrono::microseconds max_wait{2000};  // how long the oldest sentence waits for a fuller batch (while a worker is busy)
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

  void submit(const std::shared_ptr<Job>& job, size_t sentences);
  void work_loop(size_t worker);
  size_t sentences_for(const Job& front) const;  // waiting sentences that may share front's batch
  std::vector<Piece> take_batch(const std::shared_ptr<Job>& front);
  void decode(Translator& translator, const std::vector<Piece>& batch);
  Translator& translator(size_t worker, size_t model);

  const ServedModels& models_;
  BatcherSettings settings_;
  mutable std::mutex mutex_;
  std::condition_variable work_ready_, job_done_;
  std::deque<std::shared_ptr<Job>> queue_;  // jobs with sentences not yet taken, oldest first
  size_t queued_ = 0;                       // their sentences not yet taken
  int busy_workers_ = 0;                    // workers decoding
  bool stopping_ = false;
  std::vector<std::vector<std::unique_ptr<Translator>>> translators_;  // [worker][model], made on first use
  std::vector<std::thread> workers_;
};

}  // namespace attend::server
