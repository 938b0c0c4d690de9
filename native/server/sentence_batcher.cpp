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
  std::vector<PreparedSource> sources;
  std::function<void(Translator&)> work;  // instead of sources: run whole
  std::chrono::steady_clock::time_point queued_at;
  size_t next = 0;       // sources[next...] not yet taken by a worker
  size_t remaining = 0;  // sentences (or the work) not yet done
  std::vector<SentenceOutcome> outcomes;
  std::exception_ptr failure;
};

namespace {

bool is_about_one_sentence(const Error& error) {
  return error.code() == ErrorCode::invalid_input || error.code() == ErrorCode::empty_input;
}

}  // namespace

TranslateOptions asked_options(const ServedModel& model, const SearchAsk& ask) {
  TranslateOptions options = model.options;
  options.nbest = ask.nbest;
  options.beam_size = std::max(options.beam_size, ask.nbest);
  options.capture_attention = ask.attention;
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
  queue_.push_back(job);
  queued_ += sentences;
  work_ready_.notify_all();
  job_done_.wait(lock, [&] { return job->remaining == 0; });
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

size_t SentenceBatcher::sentences_for(const Job& front) const {
  size_t count = front.sources.size() - front.next;
  if (!front.mixes) return count;
  for (const auto& job : queue_) {
    if (job.get() != &front && !job->work && job->mixes && job->model == front.model && job->ask == front.ask) {
      count += job->sources.size() - job->next;
    }
  }
  return count;
}

std::vector<SentenceBatcher::Piece> SentenceBatcher::take_batch(const std::shared_ptr<Job>& front) {
  // A job that may not mix goes whole into one call, which groups its sentences as the CLI's does.
  const size_t limit = front->mixes ? static_cast<size_t>(models_.all()[front->model].batch) : front->sources.size();
  std::vector<Piece> batch;
  for (const auto& job : queue_) {
    const bool shares = job == front || (front->mixes && !job->work && job->mixes && job->model == front->model &&
                                         job->ask == front->ask);
    while (shares && batch.size() < limit && job->next < job->sources.size()) batch.push_back({job, job->next++});
  }
  queue_.erase(std::remove_if(queue_.begin(), queue_.end(),
                              [](const std::shared_ptr<Job>& job) { return !job->work && job->next == job->sources.size(); }),
               queue_.end());
  queued_ -= batch.size();
  return batch;
}

Translator& SentenceBatcher::translator(size_t worker, size_t model) {
  std::unique_ptr<Translator>& slot = translators_[worker][model];
  if (!slot) slot = std::make_unique<Translator>(models_.all()[model].model);
  return *slot;
}

void SentenceBatcher::decode(Translator& translator, const std::vector<Piece>& batch) {
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
  for (const SentenceOutcome& outcome : outcomes) {
    if (!outcome.translation.hypotheses.empty()) report.generated_tokens += outcome.translation.hypotheses.front().tokens;
  }
  if (settings_.on_batch) settings_.on_batch(report);  // before the answers: a client then sees its batch counted
  {
    std::lock_guard<std::mutex> lock(mutex_);
    for (size_t i = 0; i < batch.size(); ++i) {
      batch[i].job->outcomes[batch[i].index] = std::move(outcomes[i]);
      --batch[i].job->remaining;
    }
  }
  job_done_.notify_all();
}

void SentenceBatcher::work_loop(size_t worker) {
  std::unique_lock<std::mutex> lock(mutex_);
  for (;;) {
    work_ready_.wait(lock, [&] { return stopping_ || !queue_.empty(); });
    if (queue_.empty()) return;  // stopping, nothing left
    std::shared_ptr<Job> front = queue_.front();
    if (!front->work) {
      const auto deadline = front->queued_at + settings_.max_wait;
      const size_t batch = static_cast<size_t>(models_.all()[front->model].batch);
      // Waiting helps only while another worker decodes: with every worker idle, the machine has
      // room to decode this batch now (one client alone is not held back by max_wait).
      while (!stopping_ && front->mixes && busy_workers_ > 0 && sentences_for(*front) < batch &&
             std::chrono::steady_clock::now() < deadline) {
        work_ready_.wait_until(lock, deadline);
      }
      if (queue_.empty() || queue_.front() != front) continue;  // another worker took it
    }
    std::vector<Piece> batch;
    if (front->work) {
      queue_.pop_front();
      queued_ -= 1;
    } else {
      batch = take_batch(front);
    }
    ++busy_workers_;
    lock.unlock();
    std::exception_ptr failure;
    try {
      if (front->work) {
        front->work(translator(worker, front->model));
      } else {
        decode(translator(worker, front->model), batch);
      }
    } catch (...) {
      failure = std::current_exception();
    }
    lock.lock();
    --busy_workers_;
    work_ready_.notify_all();  // a worker waiting for company need wait no longer if all are idle
    if (front->work) {
      front->failure = failure;
      front->remaining = 0;
      job_done_.notify_all();
    } else if (failure) {
      for (const Piece& piece : batch) {
        piece.job->failure = failure;
        --piece.job->remaining;
      }
      job_done_.notify_all();
    }
  }
}

}  // namespace attend::server
