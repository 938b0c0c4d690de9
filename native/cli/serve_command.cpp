// attend serve: the models on a LibreTranslate-compatible HTTP API (native/server, docs/serve.md),
// decoded with the search `attend translate` uses for the same flags.
#include <algorithm>
#include <iostream>
#include <thread>

#include "commands.h"
#include "http_listener.h"
#include "option_parser.h"
#include "search_settings.h"
#include "usage_error.h"

namespace attend::cli {
namespace {

struct ServeArgs {
  std::vector<std::string> model_paths;
  SearchSettings settings;
  server::ListenSettings listen;
  server::AccessSettings access;
  int max_wait_ms = 5;
  int queue = 4096;
  int max_body = 1 << 20;
  int max_texts = 128;
  int max_sentences = 1024;
};

bool parse_args(const std::vector<std::string>& args, ServeArgs* s) {
  OptionParser parser("attend serve", "--model FILE [--model FILE ...] [options]");
  parser.add_list("--model", "FILE",
                  "a model file to serve, chosen by the source and target languages it names (attend.languages); "
                  "give one per language pair. A multilingual model (>>xxx<< tokens in its vocabulary) serves its "
                  "source into each token's language, the request's target choosing the token",
                  &s->model_paths);
  parser.require("--model");
  parser.add_string("--host", "ADDRESS", "the address to listen on (default 127.0.0.1: this machine only)",
                    &s->listen.host);
  parser.add_int("--port", "N", "the port to listen on (default 5000; 0: any free port, printed)", &s->listen.port, 0,
                 65535);
  s->settings.add_to(parser);
  parser.add_int("--max-wait-ms", "MS",
                 "the longest a batch waits for other requests' sentences when recent demand says more can come; "
                 "one client alone never waits (default 5)",
                 &s->max_wait_ms, 0, 10000);
  parser.add_int("--queue", "N", "sentences that may wait for a worker; beyond, 503 with Retry-After (default 4096)",
                 &s->queue, 1, 1 << 24);
  parser.add_int("--max-body", "BYTES", "the largest request body taken; larger is 413 (default 1048576)",
                 &s->max_body, 1, 1 << 30);
  parser.add_int("--max-texts", "N", "q items per request; more is 413 (default 128)", &s->max_texts, 1, 1 << 20);
  parser.add_int("--max-sentences", "N", "sentences per request; more is 413 (default 1024)", &s->max_sentences, 1,
                 1 << 24);
  parser.add_int("--http-threads", "N", "connections served at once (default 64)", &s->listen.http_threads, 1, 4096);
  parser.add_string("--api-key", "KEY", "refuse POST requests without this api_key (403)", &s->access.api_key);
  parser.add_list("--cors-origin", "ORIGIN", "answer this browser origin with CORS headers (repeatable; * for any)",
                  &s->access.cors_origins);
  parser.set_notes(
      "Routes (docs/serve.md): POST /translate, GET /languages, POST /detect (LibreTranslate's API);\n"
      "POST /attend/nbest, /attend/confidence, /attend/attention; GET /health, GET /metrics.\n"
      "Each text is translated as `attend translate` translates its input with the same flags; sentences\n"
      "of concurrent requests are decoded together (--batch at a time, --threads workers: default one per\n"
      "core). SIGTERM or SIGINT: /health turns 503, the socket closes, requests in flight are answered.\n");
  if (!parser.parse(args)) {
    std::cout << parser.help();
    return false;
  }
  s->settings.finish(parser);
  if (parser.given("--no-split")) throw UsageError("--no-split: attend serve cuts every text into sentences");
  if (!parser.given("--threads")) s->settings.threads = static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
  if (s->max_sentences > s->queue) {
    throw UsageError("--max-sentences " + std::to_string(s->max_sentences) + " exceeds --queue " + std::to_string(s->queue) +
                     ": such a request could never be queued");
  }
  s->listen.max_body_bytes = static_cast<size_t>(s->max_body);
  s->access.max_texts = static_cast<size_t>(s->max_texts);
  s->access.max_sentences = static_cast<size_t>(s->max_sentences);
  return true;
}

}  // namespace

int run_serve(const std::vector<std::string>& args) {
  ServeArgs s;
  if (!parse_args(args, &s)) return 0;
  server::block_termination_signals();  // before any thread starts, so only the listener's waiter takes them
  std::vector<server::ServedModel> served;
  for (const std::string& path : s.model_paths) served.push_back(server::load_served_model(path, s.settings));
  const server::ServedModels models(std::move(served));
  server::Metrics metrics;
  server::BatcherSettings batching;
  batching.workers = s.settings.threads;
  batching.max_wait = std::chrono::milliseconds(s.max_wait_ms);
  batching.queue_capacity = static_cast<size_t>(s.queue);
  batching.on_batch = [&metrics](const server::BatchReport& report) { metrics.count_batch(report); };
  server::SentenceBatcher batcher(models, batching);
  server::Routes routes(models, batcher, metrics, s.access);
  server::serve_http(routes, s.listen, [&](int port) {
    std::cerr << "attend serve: " << models.pair_list() << " on http://" << s.listen.host << ":" << port << " ("
              << s.settings.threads << " workers, batch " << s.settings.batch << ")" << std::endl;
  });
  batcher.stop();
  std::cerr << "attend serve: stopped" << std::endl;
  return 0;
}

}  // namespace attend::cli
