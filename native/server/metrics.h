// What GET /metrics reports, in Prometheus' text exposition format: requests by path and status,
// their latency as a histogram, sentences and generated tokens (counters, and per second over the
// last minute), batch sizes as a histogram, and the sentences waiting in the queue.
#pragma once

#include <array>
#include <chrono>
#include <cstdint>
#include <deque>
#include <map>
#include <mutex>
#include <string>
#include <utility>

#include "sentence_batcher.h"

namespace attend::server {

class Metrics {
 public:
  using Clock = std::chrono::steady_clock;

  // path: a route's own path; any other is counted as "other", so clients cannot grow the labels.
  void count_request(const std::string& path, int status, double seconds);
  void count_batch(const BatchReport& report, Clock::time_point now = Clock::now());
  std::string prometheus_text(size_t queued_sentences, Clock::time_point now = Clock::now()) const;

  static constexpr std::array<double, 11> kLatencyBuckets{0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10};
  static constexpr std::array<double, 9> kBatchBuckets{1, 2, 4, 8, 16, 32, 64, 128, 256};
  static constexpr std::chrono::seconds kRateWindow{60};

 private:
  template <size_t N>
  struct Histogram {
    std::array<uint64_t, N> at_most{};  // cumulative counts per bucket bound
    uint64_t count = 0;
    double sum = 0;
    void observe(const std::array<double, N>& bounds, double value);
  };

  mutable std::mutex mutex_;
  std::map<std::pair<std::string, int>, uint64_t> requests_;
  Histogram<kLatencyBuckets.size()> latency_;
  Histogram<kBatchBuckets.size()> batches_;
  uint64_t sentences_ = 0, tokens_ = 0;
  mutable std::deque<std::pair<Clock::time_point, BatchReport>> recent_;  // batches of the last kRateWindow
};

}  // namespace attend::server
