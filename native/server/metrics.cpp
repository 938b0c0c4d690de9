#include "metrics.h"

#include <cstdio>
#include <sstream>

namespace attend::server {
namespace {

const char* const kRoutes[] = {"/translate", "/languages", "/detect", "/health", "/metrics",
                               "/attend/nbest", "/attend/confidence", "/attend/attention"};

std::string number(double value) {
  char text[32];
  std::snprintf(text, sizeof text, "%.9g", value);
  return text;
}

template <size_t N>
void write_histogram(std::ostringstream& out, const char* name, const char* help, const std::array<double, N>& bounds,
                     const std::array<uint64_t, N>& at_most, uint64_t count, double sum) {
  out << "# HELP " << name << " " << help << "\n# TYPE " << name << " histogram\n";
  for (size_t i = 0; i < N; ++i) out << name << "_bucket{le=\"" << number(bounds[i]) << "\"} " << at_most[i] << "\n";
  out << name << "_bucket{le=\"+Inf\"} " << count << "\n" << name << "_sum " << number(sum) << "\n"
      << name << "_count " << count << "\n";
}

}  // namespace

template <size_t N>
void Metrics::Histogram<N>::observe(const std::array<double, N>& bounds, double value) {
  for (size_t i = 0; i < N; ++i) at_most[i] += value <= bounds[i] ? 1 : 0;
  ++count;
  sum += value;
}

void Metrics::count_request(const std::string& path, int status, double seconds) {
  std::string route = "other";
  for (const char* known : kRoutes) {
    if (path == known) route = known;
  }
  std::lock_guard<std::mutex> lock(mutex_);
  ++requests_[{route, status}];
  latency_.observe(kLatencyBuckets, seconds);
}

void Metrics::count_batch(const BatchReport& report, Clock::time_point now) {
  std::lock_guard<std::mutex> lock(mutex_);
  batches_.observe(kBatchBuckets, static_cast<double>(report.sentences));
  sentences_ += report.sentences;
  tokens_ += report.generated_tokens;
  recent_.emplace_back(now, report);
}

std::string Metrics::prometheus_text(size_t queued_sentences, Clock::time_point now) const {
  std::lock_guard<std::mutex> lock(mutex_);
  while (!recent_.empty() && recent_.front().first <= now - kRateWindow) recent_.pop_front();
  double recent_sentences = 0, recent_tokens = 0;
  for (const auto& [when, report] : recent_) {
    recent_sentences += static_cast<double>(report.sentences);
    recent_tokens += static_cast<double>(report.generated_tokens);
  }
  const double window = static_cast<double>(kRateWindow.count());
  std::ostringstream out;
  out << "# HELP attend_requests_total HTTP requests answered, by route and status\n"
         "# TYPE attend_requests_total counter\n";
  for (const auto& [key, count] : requests_) {
    out << "attend_requests_total{path=\"" << key.first << "\",status=\"" << key.second << "\"} " << count << "\n";
  }
  write_histogram(out, "attend_request_duration_seconds", "Time from a request's arrival to its answer",
                  kLatencyBuckets, latency_.at_most, latency_.count, latency_.sum);
  out << "# HELP attend_sentences_translated_total Sentences decoded\n# TYPE attend_sentences_translated_total counter\n"
      << "attend_sentences_translated_total " << sentences_ << "\n"
      << "# HELP attend_tokens_generated_total Tokens of the best hypotheses, eos included\n"
         "# TYPE attend_tokens_generated_total counter\n"
      << "attend_tokens_generated_total " << tokens_ << "\n"
      << "# HELP attend_sentences_per_second Sentences decoded per second over the last minute\n"
         "# TYPE attend_sentences_per_second gauge\n"
      << "attend_sentences_per_second " << number(recent_sentences / window) << "\n"
      << "# HELP attend_tokens_per_second Tokens generated per second over the last minute\n"
         "# TYPE attend_tokens_per_second gauge\n"
      << "attend_tokens_per_second " << number(recent_tokens / window) << "\n";
  write_histogram(out, "attend_batch_sentences", "Sentences decoded together in one batch", kBatchBuckets,
                  batches_.at_most, batches_.count, batches_.sum);
  out << "# HELP attend_queue_sentences Sentences waiting for a worker\n# TYPE attend_queue_sentences gauge\n"
      << "attend_queue_sentences " << queued_sentences << "\n";
  return out.str();
}

}  // namespace attend::server
