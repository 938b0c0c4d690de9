// A multilingual model (OPUS-MT's: a ">>xxx<<" token per language it writes, read before the
// source) served as LibreTranslate's clients ask for it: /languages lists the languages of its
// tokens as ISO 639-1 codes, /translate's `target` chooses the token per request (each equal to
// `attend translate --target-token`, the CLI's own translate_lines, whatever else is queued), a
// target it cannot write is a 400 naming those it can. The model is the OPUS-MT fixture with two
// pieces renamed >>fra<< and >>deu<< (testing::multilingual_en).
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <chrono>
#include <future>
#include <mutex>
#include <thread>

#include "attend/html.h"
#include "line_translation.h"
#include "routes.h"
#include "served_pairs.h"

namespace attend::server {
namespace {

using nlohmann::json;

// `attend translate --model FILE --target-token TOKEN` (with `--html` when html) on `text` as stdin.
std::string cli_output(const ServedModel& served, const std::string& token, const std::string& text, bool html = false) {
  cli::SearchSettings settings = testing::cli_defaults();
  settings.options.target_token = token;
  settings.use_model(*served.model);
  if (html) {
    Translator translator(served.model);
    return attend::translate_html(translator, text, settings.options, settings.batch).html;
  }
  std::vector<std::string> lines;
  for (size_t start = 0;;) {
    const size_t end = text.find('\n', start);
    lines.push_back(text.substr(start, end == std::string::npos ? std::string::npos : end - start));
    if (end == std::string::npos) break;
    start = end + 1;
  }
  std::string out;
  cli::translate_lines(cli::vector_source(lines), served.model, settings, [&](const cli::LineOutcome& outcome) {
    out += outcome.text + "\n";
  });
  out.pop_back();
  return out;
}

class MultilingualServer : public ::testing::Test {
 protected:
  MultilingualServer()
      : models_(served()), batcher_(models_, settings()), routes_(models_, batcher_, metrics_, AccessSettings{}) {}

  // The multilingual en model and the shipped de-en model, as `attend serve --model M --model de-en`.
  static std::vector<ServedModel> served() {
    return {testing::multilingual_en(),
            load_served_model(std::string(ATTEND_MODELS_DIR) + "/de-en/model.int8.safetensors", testing::cli_defaults())};
  }
  BatcherSettings settings() {
    BatcherSettings s;
    s.workers = 1;
    s.max_wait = std::chrono::seconds(30);  // long: a batch is decoded when its company is there, never for time
    s.on_batch = [this](const BatchReport& report) {
      std::lock_guard<std::mutex> lock(mutex_);
      reports_.push_back(report);
    };
    return s;
  }
  HttpResponse post(const std::string& path, const json& body) {
    return routes_.handle(testing::json_post(path, body.dump()));
  }
  HttpResponse get(const std::string& path) { return routes_.handle(testing::get_request(path)); }
  static std::string error_of(const HttpResponse& response) { return json::parse(response.body).at("error"); }
  const ServedModel& multilingual() const { return models_.all()[0]; }

  ServedModels models_;
  Metrics metrics_;
  std::mutex mutex_;
  std::vector<BatchReport> reports_;
  SentenceBatcher batcher_;
  Routes routes_;
};

const std::string kText = "A man is sitting on a bench. Two dogs play in the snow.\nA girl in a red coat runs.";

TEST(TargetLanguageCode, IsTheIso639OneCodeOfTheTokensLanguage) {
  EXPECT_EQ(target_language_code(">>fra<<"), "fr");
  EXPECT_EQ(target_language_code(">>fr<<"), "fr");
  EXPECT_EQ(target_language_code(">>deu<<"), "de");
  EXPECT_EQ(target_language_code(">>nob<<"), "nb");
  EXPECT_EQ(target_language_code(">>srp_Cyrl<<"), "sr-Cyrl");
  EXPECT_EQ(target_language_code(">>zho_Hans<<"), "zh-Hans");
  EXPECT_EQ(target_language_code(">>gil<<"), "gil");  // no ISO 639-1 code
  EXPECT_EQ(target_language_code(">>cmn_Hans<<"), "cmn-Hans");
}

TEST(ServedModels, AMultilingualModelServesItsTokensLanguagesAndAModelOfOnePairWinsItsPair) {
  const ServedModel multi = testing::multilingual_en();
  ASSERT_EQ(multi.target_languages.size(), 2u);
  EXPECT_EQ(multi.target_languages[0].code, "fr");
  EXPECT_EQ(multi.target_languages[0].token, ">>fra<<");
  EXPECT_EQ(multi.target_languages[1].code, "de");
  EXPECT_EQ(multi.target_languages[1].token, ">>deu<<");
  const ServedModels models({multi, load_served_model(std::string(ATTEND_MODELS_DIR) + "/en-de/model.int8.safetensors",
                                                      testing::cli_defaults())});
  EXPECT_EQ(models.pair_list(), "en-fr, en-de");
  const std::optional<ServedPair> de = models.lookup("en", "de");
  ASSERT_TRUE(de);
  EXPECT_EQ(de->model, 1u);  // the en-de model, not the multilingual one's >>deu<<
  EXPECT_EQ(de->target_token, "");
  for (const std::string fr : {"fr", "fra", ">>fra<<"}) {
    const std::optional<ServedPair> pair = models.lookup("en", fr);
    ASSERT_TRUE(pair) << fr;
    EXPECT_EQ(pair->model, 0u);
    EXPECT_EQ(pair->target_token, ">>fra<<");
    EXPECT_EQ(pair->target, "fr");
  }
  EXPECT_FALSE(models.lookup("en", "mul"));  // the file's own target: the tokens say what it writes
  EXPECT_FALSE(models.lookup("en", "it"));
}

TEST(ServedModels, AGivenTargetTokenServesTheFilesPairAsToday) {
  cli::SearchSettings settings = testing::cli_defaults();
  settings.options.target_token = ">>deu<<";
  const ServedModels models({testing::multilingual_en(settings)});
  EXPECT_TRUE(models.all()[0].target_languages.empty());
  EXPECT_EQ(models.pair_list(), "en-mul");
}

TEST_F(MultilingualServer, LanguagesListsTheTargetsOfItsTokens) {
  const HttpResponse response = get("/languages");
  ASSERT_EQ(response.status, 200) << response.body;
  EXPECT_EQ(json::parse(response.body), json::parse(R"([{"code": "en", "name": "English", "targets": ["fr", "de"]},
                                                        {"code": "de", "name": "German", "targets": ["en"]}])"));
}

TEST_F(MultilingualServer, ConcurrentRequestsForTwoTargetsEachGetTheirTokensTranslation) {
  const std::string french = cli_output(multilingual(), ">>fra<<", kText);
  const std::string german = cli_output(multilingual(), ">>deu<<", kText);
  ASSERT_NE(french, german) << "the fixture's two tokens write the same: the test would show nothing";
  ASSERT_NE(french, cli_output(multilingual(), "", kText));

  // The one worker is held until all three requests are queued, so they wait together: the two
  // of one target share a batch, the other target's is decoded alone.
  testing::HeldWorker held(batcher_);
  const std::vector<std::string> targets = {"fr", "de", "fr"};
  std::vector<HttpResponse> answers(targets.size());
  std::vector<std::thread> clients;
  for (size_t i = 0; i < targets.size(); ++i) {
    clients.emplace_back([&, i] { answers[i] = post("/translate", {{"q", kText}, {"source", "en"}, {"target", targets[i]}}); });
  }
  while (batcher_.queued_sentences() < 3 * 3) std::this_thread::sleep_for(std::chrono::milliseconds(1));
  held.release();
  for (std::thread& client : clients) client.join();
  for (size_t i = 0; i < targets.size(); ++i) {
    ASSERT_EQ(answers[i].status, 200) << answers[i].body;
    EXPECT_EQ(json::parse(answers[i].body), (json{{"translatedText", targets[i] == "fr" ? french : german}})) << i;
  }
  std::lock_guard<std::mutex> lock(mutex_);
  ASSERT_EQ(reports_.size(), 2u);
  EXPECT_EQ(reports_[0].requests + reports_[1].requests, 3u);
  EXPECT_EQ(reports_[0].sentences + reports_[1].sentences, 9u);
}

TEST_F(MultilingualServer, EveryRouteAndFormatReadsTheToken) {
  const std::string sentence = "A dog runs in the snow.";
  for (const std::string token : {">>fra<<", ">>deu<<"}) {
    const std::string code = token == std::string(">>fra<<") ? "fr" : "de";
    const std::string expected = cli_output(multilingual(), token, sentence);
    // A list of texts, the token's own code and the token itself.
    for (const std::string& target : {code, token.substr(2, 3), token}) {
      const HttpResponse many = post("/translate", {{"q", {sentence, sentence}}, {"source", "en"}, {"target", target}});
      ASSERT_EQ(many.status, 200) << many.body;
      EXPECT_EQ(json::parse(many.body)["translatedText"], (json{expected, expected})) << target;
    }
    const std::string html = "<p>A dog runs in the <b>snow</b>.</p>";
    const HttpResponse marked = post("/translate", {{"q", html}, {"source", "en"}, {"target", code}, {"format", "html"}});
    ASSERT_EQ(marked.status, 200) << marked.body;
    EXPECT_EQ(json::parse(marked.body)["translatedText"], cli_output(multilingual(), token, html, /*html=*/true));
    const HttpResponse best = post("/attend/nbest", {{"q", sentence}, {"source", "en"}, {"target", code}, {"n", 2}});
    ASSERT_EQ(best.status, 200) << best.body;
    EXPECT_EQ(json::parse(best.body)["results"][0]["hypotheses"][0]["text"], expected);
    const HttpResponse attention = post("/attend/attention", {{"q", sentence}, {"source", "en"}, {"target", code}});
    ASSERT_EQ(attention.status, 200) << attention.body;
    EXPECT_EQ(json::parse(attention.body)["results"][0]["source_tokens"][0], token);
  }
}

TEST_F(MultilingualServer, ATargetItCannotWriteIsA400NamingThoseItCan) {
  for (const std::string target : {"it", ">>ita<<", "mul", "en"}) {
    const HttpResponse response = post("/translate", {{"q", "A dog."}, {"source", "en"}, {"target", target}});
    EXPECT_EQ(response.status, 400) << target;
    EXPECT_EQ(error_of(response), "en-" + target + " is not served: en is translated into fr, de") << target;
  }
  // A pair of a model without tokens: refused as before, naming the pairs.
  const HttpResponse response = post("/translate", {{"q", "Ein Hund."}, {"source", "de"}, {"target", "fr"}});
  EXPECT_EQ(response.status, 400);
  EXPECT_EQ(error_of(response), "de-fr is not served (pairs: en-fr, en-de, de-en)");
}

}  // namespace
}  // namespace attend::server
