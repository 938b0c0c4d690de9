#include "sentence_batcher.h"

#include <algorithm>
#include <exception>

#include "attend/error.h"
#include "http_exchange.h"

namespace attend::server {

struct SentenceBatcher::Job {
  size_t model = 0;
  SearchAsk ask;
  bool mixes = false;  // its sentences may share a batch with other jobs'
  DemandWindow* demand = nullptr;  // its kind's, when it mixes
  std::vector<PreparedSource> sources;
  std::function<void(Translator&)> work;  // instead of sources: run whole
  std::chrono::steady_clock::time_point queued_at;
  size_t next = 0;       // sources[next...] not yet taken by a worker
  size_t remaining = 0;  // sentences (or the work) not yet done
  std::vector<SentenceOutcome> outcomes;
  std::exception_ptr failure;
  std::condition_variable done;  // remaining reached 0 (its own: an answer wakes only its request's thread)
};

namespace {

bool is_about_one_sentence(const Error& error) {
  return error.code() == ErrorCode::invalid_input || error.code() == ErrorCode::empty_input;
}

}  // namespace

void DemandWindow::arrived(Clock::time_point now) {
  if (in_batcher_ == 0 && now - last_batch_ > kForget) std::fill(std::begin(recent_), std::end(recent_), 0);
  ++in_batcher_;
  peak_since_batch_ = std::max(peak_since_batch_, in_batcher_);
}

void DemandWindow::finished() { --in_batcher_; }

void DemandWindow::batch_started(Clock::time_point now) {
  recent_[next_] = peak_since_batch_;
  next_ = (next_ + 1) % kBatches;
  peak_since_batch_ = in_batcher_;
  last_batch_ = now;
}

size_t DemandWindow::demand() const {
  size_t most = std::max<size_t>(1, peak_since_batch_);
  for (size_t peak : recent_) most = std::max(most, peak);
  return most;
}

size_t company_wanted(size_t demand, size_t decoding_elsewhere, size_t idle_workers) {
  const size_t can_come = demand > decoding_elsewhere ? demand - decoding_elsewhere : 1;
  const size_t idle = std::max<size_t>(1, idle_workers);
  return std::max<size_t>(1, (can_come + idle - 1) / idle);
}

TranslateOptions asked_options(const ServedModel& model, const SearchAsk& ask) {
  TranslateOptions options = model.options;
  options.nbest = ask.nbest;
  options.beam_size = std::max(options.beam_size, ask.nbest);
  options.capture_attention = ask.attention;
  if (!ask.target_token.empty()) options.target_token = ask.target_token;
  return options;
}

SentenceBatcher::SentenceBatcher(const ServedModels& models, BatcherSettings settings)
    : models_(models), settings_(std::move(settings)) {
  const size_t workers = static_cast<size_t>(std::max(1, settings_.workers));
  translators_.resize(workers);
  for (auto& per_model : translators_) per_model.resize(models_.all().size());
  for (size_t w = 0; w < workers; ++w) workers_.emplace_back([this, w] { work_loop(w); });
}

SentenceBatcher::~SentenceBatcher() { stop(); }

void SentenceBatcher::stop() {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    stopping_ = true;
  }
  work_ready_.notify_all();
  for (std::thread& worker : workers_) {
    if (worker.joinable()) worker.join();
  }
}

size_t SentenceBatcher::queued_sentences() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return queued_;
}

void SentenceBatcher::submit(const std::shared_ptr<Job>& job, size_t sentences) {
  std::unique_lock<std::mutex> lock(mutex_);
  if (stopping_) throw ApiError{503, "the server is shutting down", 1};
  if (queued_ + sentences > settings_.queue_capacity) {
    throw ApiError{503, "the translation queue is full (" + std::to_string(queued_) + " sentences waiting); retry later", 1};
  }
  job->queued_at = std::chrono::steady_clock::now();
  if (job->mixes && !job->work) {
    job->demand = &demand_[Kind{job->model, job->ask}];
    job->demand->arrived(job->queued_at);
  }
  queue_.push_back(job);
  queued_ += sentences;
  work_ready_.notify_all();
  job->done.wait(lock, [&] { return job->remaining == 0; });
  if (job->failure) std::rethrow_exception(job->failure);
}

std::vector<SentenceOutcome> SentenceBatcher::translate(size_t model, std::vector<PreparedSource> sources,
                                                        const SearchAsk& ask) {
  if (sources.empty()) return {};
  auto job = std::make_shared<Job>();
  job->model = model;
  job->ask = ask;
  job->mixes = models_.all()[model].mixes_requests;
  job->remaining = sources.size();
  job->outcomes.resize(sources.size());
  job->sources = std::move(sources);
  submit(job, job->sources.size());
  return std::move(job->outcomes);
}

void SentenceBatcher::run(size_t model, std::function<void(Translator&)> work) {
  auto job = std::make_shared<Job>();
  job->model = model;
  job->work = std::move(work);
  job->remaining = 1;
  submit(job, 1);
}

SentenceBatcher::Waiting SentenceBatcher::waiting_for(const Job& front) const {
  Waiting waiting{1, front.sources.size() - front.next};
  if (!front.mixes) return waiting;
  for (const auto& job : queue_) {
    if (job.get() != &front && !job->work && job->mixes && job->model == front.model && job->ask == front.ask) {
      waiting.requests += 1;
      waiting.sentences += job->sources.size() - job->next;
    }
  }
  return waiting;
}

std::vector<SentenceBatcher::Piece> SentenceBatcher::take_batch(const std::shared_ptr<Job>& front, size_t most_requests) {
  // A job that may not mix goes whole into one call, which groups its sentences as the CLI's does.
  const size_t limit = front->mixes ? static_cast<size_t>(models_.all()[front->model].batch) : front->sources.size();
  std::vector<Piece> batch;
  size_t requests = 0;
  for (const auto& job : queue_) {
    const bool shares = job == front || (front->mixes && !job->work && job->mixes && job->model == front->model &&
                                         job->ask == front->ask);
    if (!shares || batch.size() == limit || requests == most_requests) continue;
    ++requests;
    while (batch.size() < limit && job->next < job->sources.size()) batch.push_back({job, job->next++});
  }
  queue_.erase(std::remove_if(queue_.begin(), queue_.end(),
                              [](const std::shared_ptr<Job>& job) { return !job->work && job->next == job->sources.size(); }),
               queue_.end());
  queued_ -= batch.size();
  if (front->demand) front->demand->batch_started(std::chrono::steady_clock::now());
  if (!queue_.empty()) work_ready_.notify_all();  // what is left is another worker's, who may be waiting on this front
  return batch;
}

void SentenceBatcher::piece_done(Job& job) {
  if (--job.remaining > 0) return;
  if (job.demand) job.demand->finished();
  job.done.notify_all();
}

Translator& SentenceBatcher::translator(size_t worker, size_t model) {
  std::unique_ptr<Translator>& slot = translators_[worker][model];
  if (!slot) slot = std::make_unique<Translator>(models_.all()[model].model);
  return *slot;
}

void SentenceBatcher::decode(Translator& translator, const std::vector<Piece>& batch, bool held) {
  const Job& first = *batch.front().job;
  const ServedModel& served = models_.all()[first.model];
  const TranslateOptions options = asked_options(served, first.ask);
  std::vector<PreparedSource> sources;
  sources.reserve(batch.size());
  for (const Piece& piece : batch) sources.push_back(piece.job->sources[piece.index]);
  std::vector<SentenceOutcome> outcomes(batch.size());
  try {
    std::vector<Translation> translations = translator.translate_prepared(sources, options, served.batch);
    for (size_t i = 0; i < batch.size(); ++i) outcomes[i].translation = std::move(translations[i]);
  } catch (const Error& error) {
    if (!is_about_one_sentence(error)) throw;
    // One sentence the search cannot take: decode each alone so only that one fails.
    for (size_t i = 0; i < batch.size(); ++i) {
      try {
        outcomes[i].translation = std::move(translator.translate_prepared({sources[i]}, options, 1)[0]);
      } catch (const Error& alone) {
        if (!is_about_one_sentence(alone)) throw;
        if (alone.code() == ErrorCode::invalid_input) outcomes[i].error = alone.what();
      }
    }
  }
  BatchReport report;
  report.sentences = batch.size();
  report.held = held;
  for (size_t i = 0; i < batch.size(); ++i) report.requests += i == 0 || batch[i].job != batch[i - 1].job;
  for (const SentenceOutcome& outcome : outcomes) {
    if (!outcome.translation.hypotheses.empty()) report.generated_tokens += outcome.translation.hypotheses.front().tokens;
  }
  if (settings_.on_batch) settings_.on_batch(report);  // before the answers: a client then sees its batch counted
  {
    std::lock_guard<std::mutex> lock(mutex_);
    for (size_t i = 0; i < batch.size(); ++i) {
      batch[i].job->outcomes[batch[i].index] = std::move(outcomes[i]);
      piece_done(*batch[i].job);
    }
  }
}

void SentenceBatcher::work_loop(size_t worker) {
  std::unique_lock<std::mutex> lock(mutex_);
  for (;;) {
    work_ready_.wait(lock, [&] { return stopping_ || !queue_.empty(); });
    if (queue_.empty()) return;  // stopping, nothing left
    std::shared_ptr<Job> front = queue_.front();
    std::vector<Piece> batch;
    bool held = false;
    if (front->work) {
      queue_.pop_front();
      queued_ -= 1;
    } else {
      // The batch waits for the company its kind's demand says can come (company_wanted), at
      // most until max_wait after its oldest request came.
      const auto deadline = front->queued_at + settings_.max_wait;
      const size_t batch_size = static_cast<size_t>(models_.all()[front->model].batch);
      size_t wanted = 1;
      Waiting waiting = waiting_for(*front);
      for (;;) {
        const size_t idle = workers_.size() - static_cast<size_t>(busy_workers_);
        if (front->demand) {
          wanted = company_wanted(front->demand->demand(), front->demand->in_batcher() - waiting.requests, idle);
        }
        if (stopping_ || !front->demand || waiting.requests >= wanted ||
            waiting.sentences >= batch_size || std::chrono::steady_clock::now() >= deadline) {
          // Its share of what waits: what it waited for, or more when more waits than the idle workers' shares.
          wanted = std::max(wanted, (waiting.requests + idle - 1) / idle);
          break;
        }
        held = true;
        work_ready_.wait_until(lock, deadline);
        if (queue_.empty() || queue_.front() != front) break;  // another worker took it
        waiting = waiting_for(*front);
      }
      if (queue_.empty() || queue_.front() != front) continue;
      batch = take_batch(front, wanted);
    }
    ++busy_workers_;
    lock.unlock();
    std::exception_ptr failure;
    try {
      if (front->work) {
        front->work(translator(worker, front->model));
      } else {
        decode(translator(worker, front->model), batch, held);
      }
    } catch (...) {
      failure = std::current_exception();
    }
    lock.lock();
    --busy_workers_;
    work_ready_.notify_all();  // a worker waiting for company: fewer decoding elsewhere, more idle to share with
    if (front->work) {
      front->failure = failure;
      piece_done(*front);
    } else if (failure) {
      for (const Piece& piece : batch) {
        piece.job->failure = failure;
        piece_done(*piece.job);
      }
    }
  }
}

}  // namespace attend::server
