// The routes without sockets: LibreTranslate's shapes, Attend's own routes against the CLI's
// output, and every refusal with its status and {"error": ...}.
#include "routes.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <sstream>

#include "attend/html.h"
#include "attention_json.h"
#include "line_translation.h"
#include "served_pairs.h"

namespace attend::server {
namespace {

using nlohmann::json;

class RoutesTest : public ::testing::Test {
 protected:
  explicit RoutesTest(AccessSettings access = {}, size_t queue = 4096)
      : models_(testing::en_de_and_de_en()), batcher_(models_, batcher_settings(queue)), routes_(models_, batcher_, metrics_, access) {}

  BatcherSettings batcher_settings(size_t queue) {
    BatcherSettings settings;
    settings.queue_capacity = queue;
    settings.on_batch = [this](const BatchReport& report) { metrics_.count_batch(report); };
    return settings;
  }

  HttpResponse post(const std::string& path, const json& body, const std::string& origin = "") {
    return routes_.handle(testing::json_post(path, body.dump(), origin));
  }
  HttpResponse get(const std::string& path) { return routes_.handle(testing::get_request(path)); }
  // The CLI's line for `text` (`attend translate --model en-de ... TEXT`).
  std::string cli_line(const std::string& text, cli::SearchSettings settings = testing::cli_defaults()) {
    std::string line;
    settings.use_model(*models_.all()[0].model);
    const std::vector<std::string> lines{text};
    cli::translate_lines(cli::vector_source(lines), models_.all()[0].model, settings,
                         [&](const cli::LineOutcome& outcome) { line = outcome.text; });
    return line;
  }
  static std::string error_of(const HttpResponse& response) { return json::parse(response.body).at("error"); }

  ServedModels models_;
  Metrics metrics_;
  SentenceBatcher batcher_;
  Routes routes_;
};

TEST_F(RoutesTest, TranslatesAStringOrAnArrayAsTheCli) {
  const std::string two = "A man is sitting on a bench. Two dogs play in the snow.";
  HttpResponse one = post("/translate", {{"q", two}, {"source", "en"}, {"target", "de"}});
  ASSERT_EQ(one.status, 200) << one.body;
  EXPECT_EQ(json::parse(one.body), (json{{"translatedText", cli_line(two)}}));
  HttpResponse many = post("/translate", {{"q", {"A girl.", "A dog runs.\nA cat sleeps."}}, {"source", "en"}, {"target", "de"}});
  ASSERT_EQ(many.status, 200) << many.body;
  EXPECT_EQ(json::parse(many.body)["translatedText"],
            (json{cli_line("A girl."), cli_line("A dog runs.") + "\n" + cli_line("A cat sleeps.")}));
}

TEST_F(RoutesTest, TakesFormFields) {
  HttpRequest request;
  request.method = "POST";
  request.path = "/translate";
  request.headers["content-type"] = "application/x-www-form-urlencoded";
  request.form = {{"q", "Ein Hund rennt."}, {"source", "de"}, {"target", "en"}};
  const HttpResponse response = routes_.handle(request);
  ASSERT_EQ(response.status, 200) << response.body;
  EXPECT_FALSE(json::parse(response.body)["translatedText"].get<std::string>().empty());
}

TEST_F(RoutesTest, AlternativesAreTheCliNBestAfterTheBest) {
  const HttpResponse response = post("/translate", {{"q", "A dog runs."}, {"source", "en"}, {"target", "de"}, {"alternatives", 2}});
  ASSERT_EQ(response.status, 200) << response.body;
  const json body = json::parse(response.body);
  cli::SearchSettings beam3 = testing::cli_defaults();
  beam3.options.beam_size = 3;
  EXPECT_EQ(body["translatedText"], cli_line("A dog runs.", beam3));
  ASSERT_EQ(body["alternatives"].size(), 2u);
  EXPECT_NE(body["alternatives"][0], body["translatedText"]);
}

TEST_F(RoutesTest, SourceAutoDetectsTheLanguageWithCld2) {
  const HttpResponse response = post("/translate", {{"q", {"Ein Mann mit einem orangefarbenen Hut starrt auf etwas.", "Ein Hund."}},
                                                    {"source", "auto"}, {"target", "en"}});
  ASSERT_EQ(response.status, 200) << response.body;
  const json detected = json::parse(response.body)["detectedLanguage"];
  EXPECT_EQ(detected[0]["language"], "de");
  EXPECT_GT(detected[0]["confidence"].get<double>(), 50);
  EXPECT_EQ(detected[1]["language"], "de");  // too short alone; the request's texts together are German
  const HttpResponse detect = post("/detect", {{"q", "Several people are walking down a busy street at night."}});
  EXPECT_EQ(json::parse(detect.body)[0]["language"], "en");
}

TEST_F(RoutesTest, LanguagesListEachSourceWithItsTargets) {
  EXPECT_EQ(json::parse(get("/languages").body),
            json::parse(R"([{"code": "en", "name": "English", "targets": ["de"]},
                            {"code": "de", "name": "German", "targets": ["en"]}])"));
}

TEST_F(RoutesTest, HtmlKeepsItsMarkup) {
  const HttpResponse response = post("/translate", {{"q", "<p>A <b>dog</b> runs.</p>"}, {"source", "en"}, {"target", "de"}, {"format", "html"}});
  ASSERT_EQ(response.status, 200) << response.body;
  Translator translator(models_.all()[0].model);
  EXPECT_EQ(json::parse(response.body)["translatedText"],
            translate_html(translator, "<p>A <b>dog</b> runs.</p>", models_.all()[0].options, 32).html);
}

TEST_F(RoutesTest, NBestConfidenceAndAttentionAreTheClis) {
  const json request{{"q", "A dog runs."}, {"source", "en"}, {"target", "de"}};
  json nbest_request = request;
  nbest_request["n"] = 3;
  const json nbest = json::parse(post("/attend/nbest", nbest_request).body)["results"][0]["hypotheses"];
  ASSERT_EQ(nbest.size(), 3u);
  cli::SearchSettings beam3 = testing::cli_defaults();
  beam3.options.beam_size = 3;
  EXPECT_EQ(nbest[0]["text"], cli_line("A dog runs.", beam3));
  EXPECT_GE(nbest[0]["score"].get<double>(), nbest[1]["score"].get<double>());

  const json confidence = json::parse(post("/attend/confidence", {{"q", "A dog runs. A cat sleeps."}, {"source", "en"}, {"target", "de"}}).body)["results"][0];
  ASSERT_EQ(confidence["sentences"].size(), 2u);
  EXPECT_EQ(confidence["confidence"], std::min(confidence["sentences"][0]["confidence"].get<double>(),
                                               confidence["sentences"][1]["confidence"].get<double>()));

  const json attention = json::parse(post("/attend/attention", request).body)["results"][0];
  cli::SearchSettings capture = testing::cli_defaults();
  capture.options.capture_attention = true;
  capture.no_split = true;
  capture.use_model(*models_.all()[0].model);
  std::ostringstream cli_json;
  const std::vector<std::string> lines{"A dog runs."};
  cli::translate_lines(cli::vector_source(lines), models_.all()[0].model, capture, [&](const cli::LineOutcome& outcome) {
    cli::AttentionRecord record;
    record.line = 1;
    record.source_text = *outcome.source;
    record.target_text = outcome.text;
    record.maps = &*cli::whole_line(outcome)->attention;
    record.members = &cli::whole_line(outcome)->member_attention;
    cli::write_attention_json(cli_json, record);
  });
  EXPECT_EQ(attention, json::parse(cli_json.str()));
}

TEST_F(RoutesTest, RefusesBadRequestsWithTheirStatusAndAMessage) {
  HttpRequest bad_json;
  bad_json.method = "POST";
  bad_json.path = "/translate";
  bad_json.headers["content-type"] = "application/json";
  bad_json.body = "{\"q\": ";
  EXPECT_EQ(routes_.handle(bad_json).status, 400);
  const HttpResponse missing = post("/translate", {{"source", "en"}, {"target", "de"}});
  EXPECT_EQ(missing.status, 400);
  EXPECT_EQ(error_of(missing), "Invalid request: missing q parameter");
  const HttpResponse pair = post("/translate", {{"q", "x"}, {"source", "en"}, {"target", "fr"}});
  EXPECT_EQ(pair.status, 400);
  EXPECT_EQ(error_of(pair), "en-fr is not served (pairs: en-de, de-en)");
  EXPECT_EQ(post("/translate", {{"q", "x"}, {"source", "en"}, {"target", "de"}, {"format", "pdf"}}).status, 400);
  EXPECT_EQ(post("/translate", {{"q", "x"}, {"source", "en"}, {"target", "de"}, {"alternatives", 99}}).status, 400);
  bad_json.body = "{\"q\": \"A \xff dog.\", \"source\": \"en\", \"target\": \"de\"}";  // JSON strings may hold any bytes here
  const HttpResponse invalid_utf8 = routes_.handle(bad_json);
  EXPECT_EQ(invalid_utf8.status, 400) << invalid_utf8.body;
  EXPECT_EQ(post("/attend/nbest", {{"q", "A dog.\nA cat."}, {"source", "en"}, {"target", "de"}}).status, 400);
  EXPECT_EQ(get("/translate").status, 405);
  EXPECT_EQ(get("/nothing").status, 404);
  EXPECT_EQ(post("/translate", {{"q", std::vector<std::string>(129, "A dog.")}, {"source", "en"}, {"target", "de"}}).status, 413);
  std::string many;
  for (int i = 0; i < 1100; ++i) many += "A dog runs. ";
  const HttpResponse too_many = post("/translate", {{"q", many}, {"source", "en"}, {"target", "de"}});
  EXPECT_EQ(too_many.status, 413);
  EXPECT_NE(error_of(too_many).find("at most 1024"), std::string::npos);
}

TEST_F(RoutesTest, HealthTurns503WhenDrainingAndWorkIsRefused) {
  EXPECT_EQ(get("/health").status, 200);
  routes_.start_draining();
  EXPECT_EQ(get("/health").status, 503);
  const HttpResponse refused = post("/translate", {{"q", "A dog."}, {"source", "en"}, {"target", "de"}});
  EXPECT_EQ(refused.status, 503);
  EXPECT_EQ(refused.headers, (std::vector<std::pair<std::string, std::string>>{{"Retry-After", "1"}}));
}

TEST_F(RoutesTest, MetricsCountWhatWasAnswered) {
  post("/translate", {{"q", "A dog runs. A cat sleeps."}, {"source", "en"}, {"target", "de"}});
  post("/translate", {{"source", "en"}});
  const HttpResponse metrics = get("/metrics");
  EXPECT_EQ(metrics.content_type, "text/plain; version=0.0.4");
  EXPECT_NE(metrics.body.find("attend_requests_total{path=\"/translate\",status=\"200\"} 1\n"), std::string::npos) << metrics.body;
  EXPECT_NE(metrics.body.find("attend_requests_total{path=\"/translate\",status=\"400\"} 1\n"), std::string::npos);
  EXPECT_NE(metrics.body.find("attend_sentences_translated_total 2\n"), std::string::npos);
  EXPECT_NE(metrics.body.find("attend_queue_sentences 0\n"), std::string::npos);
}

class GuardedRoutesTest : public RoutesTest {
 protected:
  GuardedRoutesTest() : RoutesTest(AccessSettings{"secret", {"https://app.example"}}, 2) {}
};

TEST_F(GuardedRoutesTest, AnApiKeyIsRequiredAndCorsAnswersOnlyTheOriginsGiven) {
  const json request{{"q", "A dog."}, {"source", "en"}, {"target", "de"}};
  EXPECT_EQ(post("/translate", request).status, 403);
  json keyed = request;
  keyed["api_key"] = "secret";
  const HttpResponse allowed = post("/translate", keyed, "https://app.example");
  EXPECT_EQ(allowed.status, 200);
  EXPECT_NE(std::find(allowed.headers.begin(), allowed.headers.end(),
                      std::make_pair(std::string("Access-Control-Allow-Origin"), std::string("https://app.example"))),
            allowed.headers.end());
  EXPECT_TRUE(post("/translate", keyed, "https://other.example").headers.empty());
  keyed["apiKey"] = "secret";  // what the npm libretranslate client sends
  keyed.erase("api_key");
  EXPECT_EQ(post("/translate", keyed).status, 200);
}

TEST_F(GuardedRoutesTest, AFullQueueIs503WithRetryAfter) {
  const HttpResponse full = post("/translate", {{"q", "A dog runs. A cat sleeps. A girl jumps."}, {"source", "en"}, {"target", "de"}, {"api_key", "secret"}});
  EXPECT_EQ(full.status, 503);
  EXPECT_EQ(full.headers.front(), std::make_pair(std::string("Retry-After"), std::string("1")));
}

}  // namespace
}  // namespace attend::server
