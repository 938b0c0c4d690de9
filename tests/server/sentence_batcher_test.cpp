// The cross-request batcher: requests decoded in batches with other requests' sentences get the
// translations `attend translate` gives each of them alone (n-best scores equal to rounding) (the CLI's own code, cli::translate_lines, is the
// oracle); a model that may not mix decodes each request alone; a full queue and a stopping
// batcher refuse with 503; stop() finishes what was queued. The wait for company: the demand a
// kind of request has shown and the company a batch waits for (pure functions of the counts);
// a lone client is never held, however long max_wait; N clients' requests gather into batches
// of N. None of these asserts a duration: the waits are long, and a broken policy shows in the
// batches' `held` flag and sizes.
#include "sentence_batcher.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <future>
#include <mutex>
#include <thread>

#include "http_exchange.h"
#include "line_translation.h"
#include "served_pairs.h"
#include "text_translation.h"

namespace attend::server {
namespace {

// What `attend translate` with `settings` prints for `line` given alone, and its sentences.
struct CliAnswer {
  std::string text;
  std::vector<Translation> sentences;
};

CliAnswer cli_alone(const ServedModel& served, const cli::SearchSettings& settings, const std::string& line) {
  const std::vector<std::string> lines{line};
  CliAnswer answer;
  cli::SearchSettings with_file = settings;
  with_file.use_model(*served.model);
  cli::translate_lines(cli::vector_source(lines), served.model, with_file, [&](const cli::LineOutcome& outcome) {
    answer.text = outcome.text;
    for (const Translation* t : outcome.sentences) answer.sentences.push_back(*t);
  });
  return answer;
}

// Runs `request(i)` for i < count on `clients` threads at once.
void concurrently(size_t count, size_t clients, const std::function<void(size_t)>& request) {
  std::atomic<size_t> next{0};
  std::vector<std::thread> threads;
  for (size_t c = 0; c < clients; ++c) {
    threads.emplace_back([&] {
      for (size_t i = next++; i < count; i = next++) request(i);
    });
  }
  for (std::thread& t : threads) t.join();
}

struct BatchLog {
  std::mutex mutex;
  std::vector<size_t> sizes;
  std::vector<BatchReport> reports;
  std::function<void(const BatchReport&)> recorder() {
    return [this](const BatchReport& report) {
      std::lock_guard<std::mutex> lock(mutex);
      sizes.push_back(report.sentences);
      reports.push_back(report);
    };
  }
};

TEST(DemandWindow, IsTheMostRequestsInTheBatcherAtOnceOverTheLastBatches) {
  using Clock = DemandWindow::Clock;
  const Clock::time_point t0 = Clock::now();
  DemandWindow window;
  EXPECT_EQ(window.demand(), 1u);
  for (int i = 0; i < 20; ++i) {  // one client, one request after another
    window.arrived(t0);
    window.batch_started(t0);
    window.finished();
    EXPECT_EQ(window.demand(), 1u);
  }
  for (int i = 0; i < 16; ++i) window.arrived(t0);  // 16 at once
  EXPECT_EQ(window.demand(), 16u);
  window.batch_started(t0);
  for (int i = 0; i < 16; ++i) window.finished();
  EXPECT_EQ(window.in_batcher(), 0u);
  EXPECT_EQ(window.demand(), 16u);  // remembered: its clients are between an answer and their next request
  // The 16 were in the batcher in the interval before the burst's batch and in the one after its start.
  for (size_t i = 0; i < DemandWindow::kBatches; ++i) {
    window.arrived(t0);
    window.batch_started(t0);
    window.finished();
  }
  EXPECT_EQ(window.demand(), 16u);  // the burst's peak is still among the last kBatches batches' intervals
  window.arrived(t0);
  window.batch_started(t0);
  window.finished();
  EXPECT_EQ(window.demand(), 1u);  // one client again, kBatches batches on
  for (int i = 0; i < 16; ++i) window.arrived(t0);
  window.batch_started(t0);
  for (int i = 0; i < 16; ++i) window.finished();
  window.arrived(t0 + DemandWindow::kForget / 2);  // soon after: the burst still counts
  EXPECT_EQ(window.demand(), 16u);
  window.batch_started(t0 + DemandWindow::kForget / 2);
  window.finished();
  window.arrived(t0 + 2 * DemandWindow::kForget);  // after a quiet kForget: forgotten
  EXPECT_EQ(window.demand(), 1u);
}

TEST(DemandWindow, CompanyIsWhatCanStillComeSharedAmongTheIdleWorkers) {
  EXPECT_EQ(company_wanted(1, 0, 2), 1u);    // one client: never waits
  EXPECT_EQ(company_wanted(1, 0, 1), 1u);
  EXPECT_EQ(company_wanted(2, 1, 1), 1u);    // two clients, the other's request decoding
  EXPECT_EQ(company_wanted(16, 8, 1), 8u);   // 16 clients: 8 decoding elsewhere, the other 8 can come
  EXPECT_EQ(company_wanted(15, 8, 1), 7u);   // not 8: only 7 can come before the other worker finishes
  EXPECT_EQ(company_wanted(16, 0, 2), 8u);   // both workers idle: half each
  EXPECT_EQ(company_wanted(64, 32, 1), 32u);
  EXPECT_EQ(company_wanted(3, 5, 1), 1u);    // more decoding than the demand remembered: nothing to wait for
  EXPECT_EQ(company_wanted(5, 0, 0), 5u);    // no idle worker counted: as one
}

TEST(SentenceBatcher, ALoneClientIsNotHeldForCompany) {
  const ServedModels models = testing::en_de_and_de_en();
  BatchLog log;
  BatcherSettings settings;
  settings.workers = 2;
  settings.max_wait = std::chrono::seconds(30);  // a batch held for company would take this long
  settings.on_batch = log.recorder();
  SentenceBatcher batcher(models, settings);
  const TextTranslator texts(models, batcher, 1024);
  testing::HeldWorker held(batcher);  // the other worker decodes meanwhile (the old rule waited then)
  const std::vector<std::string> english = testing::multi30k_lines("en", 4);
  for (const std::string& line : english) {
    EXPECT_EQ(texts.translate(0, {line}, SearchAsk{}, false)[0].text, cli_alone(models.all()[0], testing::cli_defaults(), line).text);
  }
  EXPECT_EQ(texts.translate(0, {english[0] + " " + english[1]}, SearchAsk{}, false).size(), 1u);  // two sentences, one request
  held.release();
  batcher.stop();
  ASSERT_EQ(log.reports.size(), english.size() + 1);
  for (const BatchReport& report : log.reports) {
    EXPECT_FALSE(report.held);
    EXPECT_EQ(report.requests, 1u);
  }
  EXPECT_EQ(log.reports.back().sentences, 2u);
}

TEST(SentenceBatcher, ConcurrentClientsGatherIntoBatchesOfTheirNumber) {
  const ServedModels models = testing::en_de_and_de_en();
  BatchLog log;
  BatcherSettings settings;
  settings.workers = 1;
  settings.max_wait = std::chrono::seconds(30);  // the clients always come back long before
  settings.on_batch = log.recorder();
  SentenceBatcher batcher(models, settings);
  const TextTranslator texts(models, batcher, 1024);
  constexpr size_t kClients = 8, kRounds = 4;
  const std::vector<std::string> english = testing::multi30k_lines("en", kClients * kRounds);
  std::vector<std::string> answers(english.size());
  testing::HeldWorker held(batcher);  // until every client's first request waits
  std::vector<std::thread> clients;
  for (size_t c = 0; c < kClients; ++c) {
    clients.emplace_back([&, c] {  // a client: its next request once it has its answer
      for (size_t r = 0; r < kRounds; ++r) {
        const size_t i = r * kClients + c;
        answers[i] = texts.translate(0, {english[i]}, SearchAsk{}, false)[0].text;
      }
    });
  }
  while (batcher.queued_sentences() < kClients) std::this_thread::sleep_for(std::chrono::milliseconds(1));
  held.release();
  for (std::thread& client : clients) client.join();
  batcher.stop();
  // Each batch waits for all 8 (the demand seen: 8 at once), who then answer together and come back together.
  EXPECT_EQ(log.sizes, std::vector<size_t>(kRounds, kClients));
  for (size_t i = 0; i < english.size(); ++i) {
    EXPECT_EQ(answers[i], cli_alone(models.all()[0], testing::cli_defaults(), english[i]).text) << english[i];
  }
}

BatcherSettings mixing_settings(BatchLog& log) {
  BatcherSettings settings;
  settings.workers = 2;
  settings.max_wait = std::chrono::milliseconds(100);  // long enough that concurrent requests meet
  settings.on_batch = log.recorder();
  return settings;
}

TEST(SentenceBatcher, RequestsDecodedTogetherAnswerAsTheCliDoesEachAlone) {
  const ServedModels models = testing::en_de_and_de_en();
  BatchLog log;
  SentenceBatcher batcher(models, mixing_settings(log));
  const TextTranslator texts(models, batcher, 1024);
  const std::vector<std::string> english = testing::multi30k_lines("en", 48), german = testing::multi30k_lines("de", 16);
  std::vector<std::string> answers(english.size() + german.size());
  concurrently(answers.size(), 16, [&](size_t i) {
    const bool to_german = i < english.size();
    const std::string& line = to_german ? english[i] : german[i - english.size()];
    answers[i] = texts.translate(to_german ? 0 : 1, {line}, SearchAsk{}, false).front().text;
  });
  batcher.stop();
  ASSERT_FALSE(log.sizes.empty());
  EXPECT_GT(*std::max_element(log.sizes.begin(), log.sizes.end()), 4u) << "the requests were not decoded together";
  for (size_t i = 0; i < answers.size(); ++i) {
    const bool to_german = i < english.size();
    const std::string& line = to_german ? english[i] : german[i - english.size()];
    EXPECT_EQ(answers[i], cli_alone(models.all()[to_german ? 0 : 1], testing::cli_defaults(), line).text) << line;
  }
}

TEST(SentenceBatcher, NBestListsDecodedTogetherAreTheCliBeamsAlone) {
  const ServedModels models = testing::en_de_and_de_en();
  BatchLog log;
  SentenceBatcher batcher(models, mixing_settings(log));
  const TextTranslator texts(models, batcher, 1024);
  const std::vector<std::string> english = testing::multi30k_lines("en", 24);
  std::vector<TextTranslation> answers(english.size());
  SearchAsk ask;
  ask.nbest = 3;
  concurrently(english.size(), 12, [&](size_t i) { answers[i] = texts.translate(0, {english[i]}, ask, true).front(); });
  batcher.stop();
  EXPECT_GT(*std::max_element(log.sizes.begin(), log.sizes.end()), 4u);
  cli::SearchSettings cli = testing::cli_defaults();  // attend translate --beam 3 --nbest 3
  cli.options.beam_size = 3;
  cli.options.nbest = 3;
  cli.no_split = true;
  for (size_t i = 0; i < english.size(); ++i) {
    const CliAnswer alone = cli_alone(models.all()[0], cli, english[i]);
    ASSERT_EQ(answers[i].sentences.size(), 1u);
    ASSERT_EQ(alone.sentences.size(), 1u);
    const auto& ours = answers[i].sentences[0].translation.hypotheses;
    const auto& theirs = alone.sentences[0].hypotheses;
    ASSERT_EQ(ours.size(), theirs.size()) << english[i];
    for (size_t k = 0; k < ours.size(); ++k) {
      EXPECT_EQ(ours[k].text, theirs[k].text) << english[i];
      // The scores' last bits follow the batch's row count (a GEMM of at most 4 rows sums in
      // another order: sentence_batcher.h), so they agree to rounding, not bit for bit.
      EXPECT_NEAR(ours[k].score, theirs[k].score, 1e-5) << english[i];
    }
  }
}

TEST(SentenceBatcher, AModelThatMayNotMixDecodesEachRequestAlone) {
  std::vector<ServedModel> list = testing::en_de_and_de_en().all();
  list[0].mixes_requests = false;  // as for a model with a lexical shortlist
  const ServedModels models(list);
  BatchLog log;
  SentenceBatcher batcher(models, mixing_settings(log));
  const TextTranslator texts(models, batcher, 1024);
  const std::vector<std::string> english = testing::multi30k_lines("en", 30);
  concurrently(10, 10, [&](size_t i) {
    texts.translate(0, {english[3 * i] + " " + english[3 * i + 1] + " " + english[3 * i + 2]}, SearchAsk{}, false);
  });
  batcher.stop();
  ASSERT_EQ(log.sizes.size(), 10u);
  for (size_t size : log.sizes) EXPECT_EQ(size, 3u);
}

TEST(SentenceBatcher, AFullQueueRefusesWith503AndRetryAfter) {
  const ServedModels models = testing::en_de_and_de_en();
  BatcherSettings settings;
  settings.queue_capacity = 5;
  SentenceBatcher batcher(models, settings);
  std::vector<PreparedSource> six;
  const Translator preparer(models.all()[0].model);
  for (int i = 0; i < 6; ++i) six.push_back(preparer.prepare("A dog runs."));
  try {
    batcher.translate(0, six, SearchAsk{});
    FAIL() << "six sentences went into a queue of five";
  } catch (const ApiError& error) {
    EXPECT_EQ(error.status, 503);
    EXPECT_EQ(error.retry_after_seconds, 1);
  }
  six.pop_back();
  EXPECT_EQ(batcher.translate(0, six, SearchAsk{}).size(), 5u);
}

TEST(SentenceBatcher, StopFinishesWhatIsQueuedAndRefusesMore) {
  const ServedModels models = testing::en_de_and_de_en();
  BatcherSettings settings;
  settings.workers = 1;
  SentenceBatcher batcher(models, settings);
  const TextTranslator texts(models, batcher, 1024);
  // The one worker is held by a task until released, so the requests below stay queued.
  std::promise<void> release, holding;
  std::thread holder([&] {
    batcher.run(0, [&](Translator&) {
      holding.set_value();
      release.get_future().wait();
    });
  });
  holding.get_future().wait();
  const std::vector<std::string> english = testing::multi30k_lines("en", 8);
  std::vector<std::string> answers(english.size());
  std::thread clients([&] {
    concurrently(english.size(), 8, [&](size_t i) { answers[i] = texts.translate(0, {english[i]}, SearchAsk{}, false)[0].text; });
  });
  while (batcher.queued_sentences() < english.size()) std::this_thread::sleep_for(std::chrono::milliseconds(1));
  std::thread stopper([&] { batcher.stop(); });
  std::this_thread::sleep_for(std::chrono::milliseconds(50));  // stop() under way with 8 sentences queued
  release.set_value();
  stopper.join();
  clients.join();
  holder.join();
  try {
    texts.translate(0, {"A dog runs."}, SearchAsk{}, false);
    FAIL() << "a stopped batcher took work";
  } catch (const ApiError& error) {
    EXPECT_EQ(error.status, 503);
  }
  for (size_t i = 0; i < english.size(); ++i) {
    EXPECT_EQ(answers[i], cli_alone(models.all()[0], testing::cli_defaults(), english[i]).text);
  }
}

}  // namespace
}  // namespace attend::server
