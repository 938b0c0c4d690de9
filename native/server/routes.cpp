#include "routes.h"

#include <algorithm>
#include <chrono>
#include <exception>
#include <new>
#include <optional>
#include <set>
#include <sstream>

#include <nlohmann/json.hpp>

#include "attend/error.h"
#include "attention_json.h"
#include "detect/language_detection.h"
#include "line_confidence.h"
#include "request_fields.h"

namespace attend::server {
namespace {

using nlohmann::json;

HttpResponse json_response(const json& body, int status = 200) {
  HttpResponse response;
  response.status = status;
  // Invalid UTF-8 in a text is written as U+FFFD rather than failing the whole answer.
  response.body = body.dump(-1, ' ', false, json::error_handler_t::replace);
  return response;
}

HttpResponse error_response(const ApiError& error) {
  HttpResponse response = json_response(json{{"error", error.message}}, error.status);
  if (error.retry_after_seconds > 0) response.headers.emplace_back("Retry-After", std::to_string(error.retry_after_seconds));
  return response;
}

// The request's texts and the model each goes to: `source` names the language, or "auto" has CLD2
// find it per text among the languages served into `target`.
struct TextsToTranslate {
  std::vector<std::string> q;
  bool as_array = false;
  std::vector<ServedPair> pair;         // per text: its model (and a multilingual model's target token)
  std::vector<DetectedLanguage> found;  // per text, with source "auto"
};

// Each text's translation, the texts of one model (and target token) decoded in one batcher call.
std::vector<TextTranslation> translate_each(const TextTranslator& translator, const TextsToTranslate& texts,
                                            const SearchAsk& ask, bool whole_lines) {
  std::vector<TextTranslation> results(texts.q.size());
  std::set<std::pair<size_t, std::string>> groups;
  for (const ServedPair& pair : texts.pair) groups.emplace(pair.model, pair.target_token);
  for (const auto& [model, token] : groups) {
    std::vector<size_t> positions;
    std::vector<std::string> items;
    for (size_t i = 0; i < texts.q.size(); ++i) {
      if (texts.pair[i].model != model || texts.pair[i].target_token != token) continue;
      positions.push_back(i);
      items.push_back(texts.q[i]);
    }
    SearchAsk asked = ask;
    asked.target_token = token;
    std::vector<TextTranslation> translated = translator.translate(model, items, asked, whole_lines);
    for (size_t k = 0; k < positions.size(); ++k) results[positions[k]] = std::move(translated[k]);
  }
  return results;
}

// One per text for an array q, else the one value.
json per_text(const TextsToTranslate& texts, const std::vector<json>& values) {
  return texts.as_array ? json(values) : values.front();
}

void require_one_line(const TextsToTranslate& texts, const char* route) {
  for (size_t i = 0; i < texts.q.size(); ++i) {
    if (texts.q[i].find('\n') != std::string::npos) {
      throw ApiError{400, std::string(route) + " translates each q whole, as one line; q[" + std::to_string(i) +
                              "] holds a line break"};
    }
  }
}

}  // namespace

Routes::Routes(const ServedModels& models, SentenceBatcher& batcher, Metrics& metrics, AccessSettings access)
    : models_(models),
      batcher_(batcher),
      metrics_(metrics),
      access_(std::move(access)),
      texts_(models, batcher, access_.max_sentences) {}

HttpResponse Routes::handle(const HttpRequest& request) {
  const auto start = std::chrono::steady_clock::now();
  HttpResponse response;
  try {
    response = dispatch(request);
  } catch (const ApiError& error) {
    response = error_response(error);
  } catch (const Error& error) {
    // What the checks before decoding let through is still the text's fault, not the server's.
    const bool about_input = error.code() == ErrorCode::invalid_input || error.code() == ErrorCode::empty_input;
    response = error_response({about_input ? 400 : 500, error.what()});
  } catch (const std::bad_alloc&) {
    response = error_response({503, "out of memory", 1});
  } catch (const std::exception& error) {
    response = error_response({500, std::string("internal error: ") + error.what()});
  }
  add_cors_headers(request, response);
  metrics_.count_request(request.path, response.status,
                         std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
  return response;
}

HttpResponse Routes::dispatch(const HttpRequest& request) {
  struct Route {
    const char* method;
    const char* path;
    HttpResponse (Routes::*answer)(const HttpRequest&) const;
  };
  static const Route routes[] = {
      {"POST", "/translate", &Routes::translate},       {"POST", "/detect", &Routes::detect},
      {"POST", "/attend/nbest", &Routes::nbest},        {"POST", "/attend/confidence", &Routes::confidence},
      {"POST", "/attend/attention", &Routes::attention},
  };
  if (request.method == "OPTIONS") {
    HttpResponse preflight;
    preflight.status = 204;
    preflight.content_type.clear();
    return preflight;
  }
  if (request.method == "GET" && request.path == "/health") return health();
  if (request.method == "GET" && request.path == "/languages") return languages();
  if (request.method == "GET" && request.path == "/metrics") {
    HttpResponse response;
    response.content_type = "text/plain; version=0.0.4";
    response.body = metrics_.prometheus_text(batcher_.queued_sentences());
    return response;
  }
  for (const Route& route : routes) {
    if (request.path != route.path) continue;
    if (request.method != route.method) throw ApiError{405, request.path + " takes " + route.method};
    if (draining_) throw ApiError{503, "the server is shutting down", 1};
    if (!access_.api_key.empty()) {
      const RequestFields fields = RequestFields::of(request);
      const std::string key = fields.has("api_key") ? fields.text("api_key") : fields.text_or("apiKey", "");
      if (key != access_.api_key) throw ApiError{403, "Invalid API key"};
    }
    return (this->*route.answer)(request);
  }
  throw ApiError{404, "Not found: " + request.method + " " + request.path};
}

HttpResponse Routes::health() const {
  if (draining_) return json_response(json{{"status", "draining"}}, 503);
  return json_response(json{{"status", "ok"}});
}

HttpResponse Routes::languages() const {
  json list = json::array();
  std::vector<std::string> sources;
  for (const ServedPair& p : models_.pairs()) {
    if (std::find(sources.begin(), sources.end(), p.source) == sources.end()) sources.push_back(p.source);
  }
  for (const std::string& source : sources) {
    json targets = json::array();  // a multilingual model's: one per target token (ServedModel::target_languages)
    for (const ServedPair& p : models_.pairs()) {
      if (p.source == source) targets.push_back(p.target);
    }
    list.push_back({{"code", source}, {"name", language_name(source)}, {"targets", targets}});
  }
  return json_response(list);
}

HttpResponse Routes::detect(const HttpRequest& request) const {
  const RequestFields fields = RequestFields::of(request);
  json found = json::array();
  for (const DetectedLanguage& language : detect_languages(fields.text("q"))) {
    found.push_back({{"confidence", language.confidence}, {"language", language.language}});
  }
  return json_response(found);
}

namespace {

// CLD2's first candidate for `text` that is served into target (a text of mixed languages goes to
// its main one that is); for a text too short for CLD2 (it names no language for "A dog runs."),
// the same over all the request's texts; failing that, the one language served into target, if
// there is one, with confidence 0: not detected, but the only choice.
std::pair<ServedPair, DetectedLanguage> detect_source(const std::string& text, const std::vector<std::string>& all,
                                                      const std::string& target, const ServedModels& models) {
  std::string joined;
  for (const std::string& each : all) joined += each + "\n";
  for (const std::string* sample : {&text, static_cast<const std::string*>(&joined)}) {
    for (const DetectedLanguage& language : detect_languages(*sample)) {
      if (const std::optional<ServedPair> pair = models.lookup(language.language, target)) return {*pair, language};
    }
  }
  std::optional<ServedPair> only;
  std::set<std::string> sources;
  for (const ServedPair& pair : models.pairs()) {
    if (!sources.insert(pair.source).second) continue;
    const std::optional<ServedPair> into = models.lookup(pair.source, target);
    if (!into) continue;
    if (only) throw ApiError{400, "source auto: the language of \"" + text.substr(0, 80) + "\" was not detected; name it"};
    only = into;
  }
  if (!only) throw ApiError{400, "nothing is translated into " + target + " (pairs: " + models.pair_list() + ")"};
  return {*only, DetectedLanguage{only->source, 0}};
}

// The fields every translating route reads: q, source, target.
TextsToTranslate read_texts(const RequestFields& fields, const ServedModels& models, const AccessSettings& access) {
  TextsToTranslate texts;
  texts.q = fields.texts("q", &texts.as_array);
  if (texts.q.empty()) throw ApiError{400, "Invalid request: q holds no text"};
  if (texts.q.size() > access.max_texts) {
    throw ApiError{413, "q holds " + std::to_string(texts.q.size()) + " texts; at most " +
                            std::to_string(access.max_texts) + " are taken in one request"};
  }
  const std::string source = fields.text("source");
  const std::string target = fields.text("target");
  for (const std::string& text : texts.q) {
    if (source != "auto") {
      texts.pair.push_back(models.find(source, target));
      continue;
    }
    const auto [pair, language] = detect_source(text, texts.q, target, models);
    texts.pair.push_back(pair);
    texts.found.push_back(language);
  }
  return texts;
}

json detected_json(const DetectedLanguage& language) {
  return {{"confidence", language.confidence}, {"language", language.language}};
}

}  // namespace

HttpResponse Routes::translate(const HttpRequest& request) const {
  const RequestFields fields = RequestFields::of(request);
  const TextsToTranslate texts = read_texts(fields, models_, access_);
  const std::string format = fields.text_or("format", "text");
  if (format != "text" && format != "html") throw ApiError{400, "Invalid request: format must be text or html, got " + format};
  const int alternatives = fields.number_or("alternatives", 0, 0, access_.max_alternatives);
  std::vector<json> translated, others, detected;
  if (format == "html") {
    // Translated whole, as `attend translate --html`: the best translation only.
    for (size_t i = 0; i < texts.q.size(); ++i) {
      translated.push_back(texts_.translate_html(texts.pair[i].model, texts.q[i], texts.pair[i].target_token));
      others.push_back(json::array());
    }
  } else {
    SearchAsk ask;
    ask.nbest = alternatives + 1;
    for (TextTranslation& result : translate_each(texts_, texts, ask, /*whole_lines=*/false)) {
      translated.push_back(result.text);
      result.alternatives.resize(std::min(result.alternatives.size(), static_cast<size_t>(alternatives)));
      others.push_back(result.alternatives);
    }
  }
  json body{{"translatedText", per_text(texts, translated)}};
  if (alternatives > 0) body["alternatives"] = per_text(texts, others);
  if (!texts.found.empty()) {
    for (const DetectedLanguage& language : texts.found) detected.push_back(detected_json(language));
    body["detectedLanguage"] = per_text(texts, detected);
  }
  return json_response(body);
}

HttpResponse Routes::nbest(const HttpRequest& request) const {
  const RequestFields fields = RequestFields::of(request);
  const TextsToTranslate texts = read_texts(fields, models_, access_);
  require_one_line(texts, "/attend/nbest");
  SearchAsk ask;
  ask.nbest = fields.number_or("n", 4, 1, access_.max_alternatives + 1);
  json results = json::array();
  for (const TextTranslation& result : translate_each(texts_, texts, ask, /*whole_lines=*/true)) {
    json hypotheses = json::array();
    for (const TranslatedSentence& sentence : result.sentences) {
      for (const Hypothesis& hypothesis : sentence.translation.hypotheses) {
        hypotheses.push_back({{"text", hypothesis.text}, {"score", hypothesis.score}});
      }
    }
    results.push_back({{"hypotheses", hypotheses}});
  }
  return json_response(json{{"results", results}});
}

HttpResponse Routes::confidence(const HttpRequest& request) const {
  const RequestFields fields = RequestFields::of(request);
  const TextsToTranslate texts = read_texts(fields, models_, access_);
  json results = json::array();
  for (const TextTranslation& result : translate_each(texts_, texts, SearchAsk{}, /*whole_lines=*/false)) {
    json sentences = json::array();
    cli::LineOutcome line;  // for the CLI's line confidence: the lowest of its sentences'
    for (const TranslatedSentence& sentence : result.sentences) {
      const Translation& t = sentence.translation;
      line.sentences.push_back(&t);
      json entry{{"source", sentence.source},
                 {"translatedText", t.hypotheses.empty() ? std::string() : t.hypotheses.front().text},
                 {"confidence", nullptr}};  // null: not decoded by the model (copied, or written from a table)
      if (t.status == TranslationStatus::translated && !t.hypotheses.empty()) {
        const float c = attend::confidence(t.hypotheses.front());
        entry["confidence"] = c;
        entry["low"] = c < kLowConfidence;
      }
      sentences.push_back(entry);
    }
    const std::optional<float> lowest = cli::line_confidence(line);
    results.push_back({{"translatedText", result.text},
                       {"confidence", lowest ? json(*lowest) : json(nullptr)},
                       {"low", lowest && *lowest < kLowConfidence},
                       {"sentences", sentences}});
  }
  return json_response(json{{"results", results}});
}

HttpResponse Routes::attention(const HttpRequest& request) const {
  const RequestFields fields = RequestFields::of(request);
  const TextsToTranslate texts = read_texts(fields, models_, access_);
  require_one_line(texts, "/attend/attention");
  SearchAsk ask;
  ask.attention = true;
  const std::vector<TextTranslation> translated = translate_each(texts_, texts, ask, /*whole_lines=*/true);
  json results = json::array();
  for (size_t i = 0; i < translated.size(); ++i) {
    cli::AttentionRecord record;
    record.line = i + 1;
    record.source_text = texts.q[i];
    record.target_text = translated[i].text;
    const Translation* t = translated[i].sentences.size() == 1 ? &translated[i].sentences.front().translation : nullptr;
    if (t != nullptr && t->attention) {
      record.maps = &*t->attention;
      record.members = &t->member_attention;
      record.attention_member = models_.all()[texts.pair[i].model].model->attention_member();
    }
    std::ostringstream line;
    cli::write_attention_json(line, record);
    results.push_back(json::parse(line.str()));
  }
  return json_response(json{{"results", results}});
}

void Routes::add_cors_headers(const HttpRequest& request, HttpResponse& response) const {
  const std::string origin = request.header("origin");
  if (origin.empty()) return;
  for (const std::string& allowed : access_.cors_origins) {
    if (allowed != "*" && allowed != origin) continue;
    response.headers.emplace_back("Access-Control-Allow-Origin", allowed == "*" ? "*" : origin);
    response.headers.emplace_back("Vary", "Origin");
    if (request.method == "OPTIONS") {
      response.headers.emplace_back("Access-Control-Allow-Methods", "GET, POST, OPTIONS");
      response.headers.emplace_back("Access-Control-Allow-Headers", "Content-Type");
      response.headers.emplace_back("Access-Control-Max-Age", "600");
    }
    return;
  }
}

}  // namespace attend::server
