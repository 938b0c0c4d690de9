// Any bytes as a request to `attend serve`'s routes, without a socket (native/server/routes.h):
// the first byte picks the method and path, the second how the body is sent (JSON, form fields
// cut at '&' and '=', or no Content-Type), the rest is the body. The routes translate with the
// tiny model ($ATTEND_FUZZ_MODEL) served as en-de through the real batcher. Oracle: an answer
// always comes back, with a status the API gives (never 500: nothing the client sends is the
// server's fault), a JSON body that parses with "error" in every refusal, and a translatedText
// in every 200 from /translate.
#include <nlohmann/json.hpp>

#include <string>
#include <string_view>
#include <vector>

#include "attend/attend.h"
#include "fuzz_support.h"
#include "routes.h"

namespace {

using attend::fuzz::require;
using namespace attend::server;

struct Service {
  ServedModels models;
  Metrics metrics;
  SentenceBatcher batcher;
  Routes routes;

  static std::vector<ServedModel> tiny_en_de() {
    static const std::vector<uint8_t> file = attend::fuzz::read_fixture("ATTEND_FUZZ_MODEL");
    ServedModel served;
    served.path = "tiny.int8.safetensors";
    served.source = "en";
    served.target = "de";
    served.model = attend::Model::from_bytes(file);
    served.options = attend::default_options(*served.model);
    served.options.max_length = 16;  // the random model rarely ends a sentence: bound each decode
    return {served};
  }
  static BatcherSettings one_worker() {
    BatcherSettings settings;
    settings.max_wait = std::chrono::microseconds(0);
    return settings;
  }
  Service()
      : models(tiny_en_de()),
        batcher(models, one_worker()),
        routes(models, batcher, metrics, AccessSettings{"", {"*"}, 8, 32, 3}) {}
};

const char* const kTargets[][2] = {
    {"POST", "/translate"},     {"POST", "/detect"},          {"POST", "/attend/nbest"},
    {"POST", "/attend/confidence"}, {"POST", "/attend/attention"}, {"GET", "/languages"},
    {"GET", "/health"},         {"GET", "/metrics"},          {"OPTIONS", "/translate"},
    {"GET", "/translate"},      {"POST", "/nowhere"},
};

// `text` cut at '&' into fields, each at its first '=' into name and value (no decoding).
std::vector<std::pair<std::string, std::string>> form_fields(std::string_view text) {
  std::vector<std::pair<std::string, std::string>> fields;
  size_t start = 0;
  while (start <= text.size()) {
    size_t end = text.find('&', start);
    if (end == std::string_view::npos) end = text.size();
    const std::string_view field = text.substr(start, end - start);
    const size_t equals = field.find('=');
    fields.emplace_back(std::string(field.substr(0, equals)),
                        equals == std::string_view::npos ? std::string() : std::string(field.substr(equals + 1)));
    start = end + 1;
  }
  return fields;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  static Service service;
  if (size < 2) return 0;
  const auto& target = kTargets[data[0] % (sizeof kTargets / sizeof kTargets[0])];
  HttpRequest request;
  request.method = target[0];
  request.path = target[1];
  request.body.assign(reinterpret_cast<const char*>(data) + 2, size - 2);
  switch (data[1] % 3) {
    case 0: request.headers["content-type"] = "application/json"; break;
    case 1:
      request.headers["content-type"] = "application/x-www-form-urlencoded";
      request.form = form_fields(request.body);
      break;
    default: request.headers["origin"] = "https://fuzz.example"; break;
  }
  const HttpResponse response = service.routes.handle(request);
  const int s = response.status;
  require(s == 200 || s == 204 || s == 400 || s == 403 || s == 404 || s == 405 || s == 413 || s == 503,
          ("status " + std::to_string(s) + ": " + response.body).c_str());
  if (response.content_type != "application/json") return 0;
  const nlohmann::json body = nlohmann::json::parse(response.body, nullptr, false);
  require(!body.is_discarded(), "the answer is not JSON");
  if (s >= 400) require(body.is_object() && body.contains("error") && body["error"].is_string(), "a refusal without an error");
  if (s == 200 && request.path == "/translate") require(body.contains("translatedText"), "a translation without translatedText");
  return 0;
}
