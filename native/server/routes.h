// The HTTP API over the batcher, without sockets: LibreTranslate's routes (POST /translate,
// GET /languages, POST /detect), Attend's own under /attend/ (n-best lists with scores,
// confidence per sentence, attention in the CLI's JSON schema), GET /health and GET /metrics.
// handle() answers every request, errors as LibreTranslate's {"error": message}.
#pragma once

#include <atomic>
#include <string>
#include <vector>

#include "http_exchange.h"
#include "metrics.h"
#include "sentence_batcher.h"
#include "served_models.h"
#include "text_translation.h"

namespace attend::server {

struct AccessSettings {
  std::string api_key;                    // required in POST requests when set (api_key, or apiKey as the npm client sends it)
  std::vector<std::string> cors_origins;  // origins answered with CORS headers; "*" any
  size_t max_texts = 128;                 // q items per request; more is 413
  size_t max_sentences = 1024;            // sentences per request; more is 413
  int max_alternatives = 8;               // LibreTranslate's alternatives, and /attend/nbest's n up to this + 1
};

class Routes {
 public:
  Routes(const ServedModels& models, SentenceBatcher& batcher, Metrics& metrics, AccessSettings access);

  // Never throws: an unexpected failure is a 500 whose message names it.
  HttpResponse handle(const HttpRequest& request);
  // From now on /health answers 503 (a load balancer stops sending) and new work is refused.
  void start_draining() { draining_ = true; }

 private:
  HttpResponse dispatch(const HttpRequest& request);
  HttpResponse health() const;
  HttpResponse languages() const;
  HttpResponse detect(const HttpRequest& request) const;
  HttpResponse translate(const HttpRequest& request) const;
  HttpResponse nbest(const HttpRequest& request) const;
  HttpResponse confidence(const HttpRequest& request) const;
  HttpResponse attention(const HttpRequest& request) const;
  void add_cors_headers(const HttpRequest& request, HttpResponse& response) const;

  const ServedModels& models_;
  SentenceBatcher& batcher_;
  Metrics& metrics_;
  AccessSettings access_;
  TextTranslator texts_;
  std::atomic<bool> draining_{false};
};

}  // namespace attend::server
