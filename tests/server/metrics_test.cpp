// Metrics: Prometheus' text format, cumulative buckets, labels bounded, rates over the last minute.
#include "metrics.h"

#include <gtest/gtest.h>

namespace attend::server {
namespace {

bool has_line(const std::string& text, const std::string& line) {
  return text.find("\n" + line + "\n") != std::string::npos || text.rfind(line + "\n", 0) == 0;
}

TEST(Metrics, CountsRequestsByRouteAndStatusWithCumulativeLatencyBuckets) {
  Metrics metrics;
  metrics.count_request("/translate", 200, 0.003);
  metrics.count_request("/translate", 200, 0.2);
  metrics.count_request("/translate", 400, 0.001);
  metrics.count_request("/no/such/route/42", 404, 0.001);
  const std::string text = metrics.prometheus_text(7);
  EXPECT_TRUE(has_line(text, R"(attend_requests_total{path="/translate",status="200"} 2)")) << text;
  EXPECT_TRUE(has_line(text, R"(attend_requests_total{path="/translate",status="400"} 1)"));
  EXPECT_TRUE(has_line(text, R"(attend_requests_total{path="other",status="404"} 1)"));
  EXPECT_TRUE(has_line(text, R"(attend_request_duration_seconds_bucket{le="0.005"} 3)"));
  EXPECT_TRUE(has_line(text, R"(attend_request_duration_seconds_bucket{le="0.25"} 4)"));
  EXPECT_TRUE(has_line(text, R"(attend_request_duration_seconds_bucket{le="+Inf"} 4)"));
  EXPECT_TRUE(has_line(text, "attend_request_duration_seconds_count 4"));
  EXPECT_TRUE(has_line(text, "attend_queue_sentences 7"));
}

TEST(Metrics, CountsSentencesTokensAndBatchSizesAndTheirRateOverTheLastMinute) {
  Metrics metrics;
  const Metrics::Clock::time_point start{};
  metrics.count_batch({30, 300}, start);
  metrics.count_batch({3, 60}, start + std::chrono::seconds(50));
  const std::string text = metrics.prometheus_text(0, start + std::chrono::seconds(70));
  EXPECT_TRUE(has_line(text, "attend_sentences_translated_total 33")) << text;
  EXPECT_TRUE(has_line(text, "attend_tokens_generated_total 360"));
  EXPECT_TRUE(has_line(text, "attend_sentences_per_second 0.05"));  // the first batch is over a minute old
  EXPECT_TRUE(has_line(text, "attend_tokens_per_second 1"));
  EXPECT_TRUE(has_line(text, R"(attend_batch_sentences_bucket{le="2"} 0)"));
  EXPECT_TRUE(has_line(text, R"(attend_batch_sentences_bucket{le="4"} 1)"));
  EXPECT_TRUE(has_line(text, R"(attend_batch_sentences_bucket{le="32"} 2)"));
  EXPECT_TRUE(has_line(text, "attend_batch_sentences_sum 33"));
}

}  // namespace
}  // namespace attend::server
