// What the server's tests share: the shipped en-de and de-en models served with the CLI's
// default flags, as `attend serve --model models/en-de/... --model models/de-en/...` serves them,
// a multilingual model made from the OPUS-MT fixture, and Multi30k test lines.
#pragma once

#include <unistd.h>

#include <cstdio>
#include <stdexcept>
#include <fstream>
#include <future>
#include <string>
#include <thread>
#include <vector>

#include <gtest/gtest.h>

#include "http_exchange.h"
#include "import/marian_import.h"
#include "line_reader.h"
#include "search_settings.h"
#include "sentence_batcher.h"
#include "served_models.h"
#include "whole_file.h"

namespace attend::server::testing {

// The CLI's flags: `attend translate --model FILE` with `extra` settings applied by the caller.
inline cli::SearchSettings cli_defaults() { return cli::SearchSettings{}; }

inline ServedModels en_de_and_de_en(const cli::SearchSettings& settings = cli_defaults()) {
  return ServedModels({load_served_model(std::string(ATTEND_MODELS_DIR) + "/en-de/model.int8.safetensors", settings),
                       load_served_model(std::string(ATTEND_MODELS_DIR) + "/de-en/model.int8.safetensors", settings)});
}

// A multilingual OPUS-MT model, as docs/marian-models.md and tests/marian/opus_cli.py make it:
// the OPUS-MT-shaped fixture (tests/marian/fixtures/opus-ende, an en-de model with decoder.yml's
// beam 6) with its two rarest pieces ("è", "„", the vocab.yml's last ids) renamed ">>fra<<" and
// ">>deu<<", imported as `attend import FOLDER --languages en-mul` would, written once to `path`
// (in the test's temporary folder) and loaded as `attend serve --model` loads it. The model was
// not trained on the tokens: each only changes what it writes, which is all the tests need.
inline std::string multilingual_model_file() {
  static const std::string path = [] {
    const std::string dir = std::string(ATTEND_OPUS_FIXTURE) + "/";
    const std::string npz = cli::read_whole_file(dir + "opus.spm2k-spm2k.transformer-align.model1.npz.best-perplexity.npz");
    const std::string source_spm = cli::read_whole_file(dir + "source.spm");
    const std::string target_spm = cli::read_whole_file(dir + "target.spm");
    const std::string decoder_yml = cli::read_whole_file(dir + "decoder.yml");
    std::string vocab = cli::read_whole_file(dir + "opus.spm2k-spm2k.vocab.yml");
    for (const auto& [piece, token] : {std::pair<std::string, std::string>{"è: 1998\n", "\">>fra<<\": 1998\n"},
                                       {"„: 1999\n", "\">>deu<<\": 1999\n"}}) {
      const size_t at = vocab.rfind(piece);
      if (at == std::string::npos) throw std::runtime_error("the fixture's vocab.yml has no '" + piece + "'");
      vocab.replace(at, piece.size(), token);
    }
    MarianFiles files;
    files.model = {"opus.spm2k-spm2k.transformer-align.model1.npz.best-perplexity.npz", npz};
    files.source_vocab = {"source.spm", source_spm};
    files.target_vocab = {"target.spm", target_spm};
    files.source_pieces = {"opus.spm2k-spm2k.vocab.yml", vocab};
    files.decoder_yml = {"decoder.yml", decoder_yml};
    files.languages = "en-mul";
    const std::string bytes = import_marian(files);
    const std::string out = ::testing::TempDir() + "attend_server_multilingual_" + std::to_string(::getpid()) + ".safetensors";
    std::ofstream(out, std::ios::binary).write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
    return out;
  }();
  return path;
}

inline ServedModel multilingual_en(const cli::SearchSettings& settings = cli_defaults()) {
  return load_served_model(multilingual_model_file(), settings);
}

// The first `count` lines of Multi30k's test_2016_flickr in `language`.
inline std::vector<std::string> multi30k_lines(const std::string& language, size_t count) {
  cli::LineReader reader(std::string(ATTEND_MULTI30K_DIR) + "/test_2016_flickr." + language + ".gz");
  std::vector<std::string> lines;
  std::string line;
  while (lines.size() < count && reader.next(&line)) lines.push_back(line);
  return lines;
}

// What a client sends: a POST of `body` as JSON (from `origin` if given), a GET.
inline HttpRequest json_post(const std::string& path, const std::string& body, const std::string& origin = "") {
  HttpRequest request;
  request.method = "POST";
  request.path = path;
  request.headers["content-type"] = "application/json";
  if (!origin.empty()) request.headers["origin"] = origin;
  request.body = body;
  return request;
}
inline HttpRequest get_request(const std::string& path) {
  HttpRequest request;
  request.method = "GET";
  request.path = path;
  return request;
}

// Holds one worker of `batcher` with a task until release().
class HeldWorker {
 public:
  explicit HeldWorker(SentenceBatcher& batcher) {
    std::future<void> held = holding_.get_future();
    thread_ = std::thread([&batcher, this] {
      std::future<void> released = release_.get_future();
      batcher.run(0, [&](Translator&) {
        holding_.set_value();
        released.wait();
      });
    });
    held.wait();
  }
  void release() {
    if (thread_.joinable()) {
      release_.set_value();
      thread_.join();
    }
  }
  ~HeldWorker() { release(); }

 private:
  std::promise<void> holding_, release_;
  std::thread thread_;
};

}  // namespace attend::server::testing
