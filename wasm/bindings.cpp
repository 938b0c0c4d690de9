// The C boundary of the WebAssembly module (bindings.h), for wasm/attend.mjs. It only
// marshals: bytes and UTF-8 texts in; JSON (structure) and raw float buffers (attention)
// out; every exception caught here and stored in the caller's AttendStatus, so nothing aborts.
// State lives in handles the caller owns (bindings.h); there are no globals.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <memory>
#include <new>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "attend/attend.h"
#include "bindings.h"
#include "import/marian_files.h"
#include "import/marian_import.h"
#include "kernels/kernels.h"
#include "pipeline/target_token.h"
#include "tokenizer/utf8.h"

using nlohmann::json;

// The handles of bindings.h.
struct AttendStatus {
  std::string code;  // empty on success
  std::string message;
};

struct AttendSession {
  std::shared_ptr<const attend::Model> model;
  attend::Translator translator;
  std::shared_ptr<const attend::Model> reverse;  // reranks the beams (attend_session_rerank_with), or null
  float reverse_weight;                          // its weight unless a translation's options give one
};

struct AttendResult {
  std::string json;
  std::vector<attend::Translation> translations;  // the attention buffers the JSON describes
};

namespace {

// A session translating with `model`, without a reverse model.
AttendSession* new_session(std::shared_ptr<const attend::Model> model) {
  return new AttendSession{model, attend::Translator(model), nullptr, attend::TranslateOptions{}.reverse_weight};
}

std::string dump(const json& document) {
  // Pieces are the tokenizer's bytes; a stray invalid byte must not make the dump throw.
  return document.dump(-1, ' ', false, json::error_handler_t::replace);
}

// Runs `body`, turning any exception into `status`; returns `fallback` on failure.
template <typename Body, typename T>
T guarded(AttendStatus* status, T fallback, Body&& body) {
  status->code.clear();
  status->message.clear();
  try {
    return body();
  } catch (const attend::Error& e) {
    status->code = attend::error_code_name(e.code());
    status->message = e.what();
  } catch (const std::bad_alloc&) {
    status->code = attend::error_code_name(attend::ErrorCode::out_of_memory);
    status->message = "out of memory (the WebAssembly heap cannot grow further)";
  } catch (const json::exception& e) {
    status->code = attend::error_code_name(attend::ErrorCode::invalid_argument);
    status->message = std::string("invalid options: ") + e.what();
  } catch (const std::exception& e) {
    status->code = "internal";
    status->message = e.what();
  }
  return fallback;
}

attend::AttentionKind attention_kind(const std::string& name) {
  if (name == "encoder") return attend::AttentionKind::encoder;
  if (name == "decoder") return attend::AttentionKind::decoder;
  if (name == "cross") return attend::AttentionKind::cross;
  throw attend::Error(attend::ErrorCode::invalid_argument,
                      "masked head kind must be 'encoder', 'decoder' or 'cross', got '" + name + "'");
}

attend::Error invalid_option(const std::string& name, const char* expected, const json& value) {
  return attend::Error(attend::ErrorCode::invalid_argument, "option " + name + " must be " + expected + ", got " + value.dump());
}

bool is_int(const json& value) {
  if (value.is_number_unsigned()) return value.get<std::uint64_t>() <= INT32_MAX;
  if (!value.is_number_integer()) return false;
  const std::int64_t number = value.get<std::int64_t>();
  return number >= INT32_MIN && number <= INT32_MAX;
}

// An int option: a JSON integer within int's range (4294967297 must not wrap to 1).
int int_option(const std::string& name, const json& value) {
  if (!is_int(value)) throw invalid_option(name, "an integer in [-2^31, 2^31)", value);
  return static_cast<int>(value.get<std::int64_t>());
}

float float_option(const std::string& name, const json& value) {
  if (!value.is_number()) throw invalid_option(name, "a number", value);
  return value.get<float>();
}

bool bool_option(const std::string& name, const json& value) {
  if (!value.is_boolean()) throw invalid_option(name, "true or false", value);
  return value.get<bool>();
}

// The session's reverse model reranks unless the options say rerank: false; it needs a beam.
void choose_reranking(const AttendSession& session, std::optional<bool> rerank, attend::TranslateOptions& options) {
  if (!rerank.value_or(true)) return;
  if (!session.reverse) {
    if (rerank) throw attend::Error(attend::ErrorCode::invalid_argument, "rerank: true, but no reverse model was loaded (Translator.load's reverse)");
    return;
  }
  if (options.beam_size < 2) {
    throw attend::Error(attend::ErrorCode::invalid_argument,
                        "this Translator reranks by its reverse model, which needs beam search: give beam 2 or more, "
                        "or rerank: false to translate greedily without reranking");
  }
  options.reverse_model = session.reverse;
}

// captionRules: "auto" (where the model file asks for them), true or false.
attend::CaptionRules caption_rules_option(const std::string& key, const json& value) {
  if (value.is_boolean()) return value.get<bool>() ? attend::CaptionRules::on : attend::CaptionRules::off;
  if (value == "auto") return attend::CaptionRules::as_model_asks;
  throw invalid_option(key, "true, false or \"auto\"", value);
}

// search: "attend" or "marian" (absent: the model file's, else attend).
attend::SearchRules search_rules_option(const std::string& key, const json& value) {
  if (value == "attend") return attend::SearchRules::attend;
  if (value == "marian") return attend::SearchRules::marian;
  throw invalid_option(key, "\"attend\" or \"marian\"", value);
}

// passThrough: "auto" (unless the model file asks for none), true or false.
attend::PassThroughSpans pass_through_option(const std::string& key, const json& value) {
  if (value.is_boolean()) return value.get<bool>() ? attend::PassThroughSpans::on : attend::PassThroughSpans::off;
  if (value == "auto") return attend::PassThroughSpans::as_model_asks;
  throw invalid_option(key, "true, false or \"auto\"", value);
}

// Options as attend.mjs names them; absent keys keep the core's defaults, unknown keys are
// an error (a misspelt option must not be silently ignored), and so is a value of another type.

attend::TranslateOptions parse_options(const json& o, const AttendSession& session) {
  attend::TranslateOptions options = attend::default_options(*session.model);  // the file's search, if it asks for one
  options.reverse_weight = session.reverse_weight;
  std::optional<bool> rerank;
  for (const auto& item : o.items()) {
    const std::string& key = item.key();
    const json& value = item.value();
    if (key == "beam") options.beam_size = int_option(key, value);
    else if (key == "alpha") options.length_penalty = float_option(key, value);
    else if (key == "search") options.search_rules = search_rules_option(key, value);
    else if (key == "wordPenalty") options.word_penalty = float_option(key, value);
    else if (key == "shortlist") options.shortlist = bool_option(key, value);
    else if (key == "batchWords") options.batch_words = int_option(key, value);
    else if (key == "maxLength") options.max_length = int_option(key, value);
    else if (key == "maxLengthRatio") options.max_length_ratio = float_option(key, value);
    else if (key == "nbest") options.nbest = int_option(key, value);
    else if (key == "maxRepeats") options.max_repeats = int_option(key, value);
    else if (key == "attention") options.capture_attention = bool_option(key, value);
    else if (key == "rerank") rerank = bool_option(key, value);
    else if (key == "reverseWeight") options.reverse_weight = float_option(key, value);
    else if (key == "captionRules") options.caption_rules = caption_rules_option(key, value);
    else if (key == "passThrough") options.pass_through = pass_through_option(key, value);
    else if (key == "targetToken") {
      if (!value.is_string()) throw invalid_option(key, "a string as \">>fra<<\"", value);
      options.target_token = value.get<std::string>();
    }
    else if (key == "maskedHeads") {
      if (!value.is_array()) throw invalid_option(key, "an array of {kind, layer, head}", value);
      for (const json& head : value) {
        if (!head.is_object() || !head.contains("kind") || !head["kind"].is_string()) {
          throw invalid_option(key, "an array of {kind, layer, head}", value);
        }
        options.masked_heads.push_back({attention_kind(head["kind"].get<std::string>()),
                                        int_option("maskedHeads layer", head.value("layer", json())),
                                        int_option("maskedHeads head", head.value("head", json()))});
      }
    } else {
      throw attend::Error(attend::ErrorCode::invalid_argument, "unknown option '" + key + "'");
    }
  }
  choose_reranking(session, rerank, options);
  return options;
}

// reranked: the hypotheses were ranked with a reverse model, whose score each then carries
// (null where it could not read the hypothesis).
json hypothesis_json(const attend::Hypothesis& h, bool reranked) {
  json out = {{"text", h.text}, {"pieces", h.pieces}, {"ids", h.ids}, {"score", h.score}, {"endedWithEos", h.ended_with_eos},
              {"logProb", h.log_prob}, {"tokens", h.tokens}, {"confidence", attend::confidence(h)},
              {"lowConfidence", attend::confidence(h) < attend::kLowConfidence}, {"rewritten", h.rewritten}};
  if (reranked) {
    out["reverse"] = h.reverse ? json{{"logProb", h.reverse->log_prob}, {"tokens", h.reverse->tokens}} : json(nullptr);
  }
  return out;
}

const char* name(attend::TranslationStatus s) {
  switch (s) {
    case attend::TranslationStatus::translated: return "translated";
    case attend::TranslationStatus::unreadable_script: return "unreadable_script";
    case attend::TranslationStatus::set_phrase: return "set_phrase";
    case attend::TranslationStatus::passed_through: return "passed_through";
  }
  return "translated";
}

json translation_json(const attend::Translation& t, bool reranked) {
  json hypotheses = json::array();
  for (const auto& h : t.hypotheses) hypotheses.push_back(hypothesis_json(h, reranked));
  json out = {{"sourceIds", t.source_ids}, {"sourcePieces", t.source_pieces}, {"hypotheses", hypotheses},
              {"status", name(t.status)}, {"reranked", reranked}};
  if (t.attention) {
    const attend::AttentionMaps& a = *t.attention;
    out["attention"] = {{"encoderLayers", a.encoder_layers}, {"decoderLayers", a.decoder_layers},
                        {"heads", a.heads}, {"srcLen", a.src_len}, {"tgtLen", a.tgt_len},
                        {"sourcePieces", a.source_pieces}, {"targetPieces", a.target_pieces},
                        {"targetInputPieces", a.target_input_pieces}};
    json members = json::array();  // an ensemble's: each member's shape (same lengths and pieces)
    for (const attend::AttentionMaps& m : t.member_attention) {
      members.push_back({{"encoderLayers", m.encoder_layers}, {"decoderLayers", m.decoder_layers}, {"heads", m.heads}});
    }
    if (!members.empty()) out["attention"]["members"] = members;
  }
  return out;
}

const char* name(attend::Activation a) {
  switch (a) {
    case attend::Activation::relu: return "relu";
    case attend::Activation::gelu: return "gelu";
    case attend::Activation::swish: return "swish";
  }
  return "unknown";
}

const char* name(attend::NormPlacement n) { return n == attend::NormPlacement::pre ? "pre" : "post"; }

const char* name(attend::PositionKind p) {
  switch (p) {
    case attend::PositionKind::sinusoidal: return "sinusoidal";
    case attend::PositionKind::sinusoidal_half: return "sinusoidal_half";
    case attend::PositionKind::learned: return "learned";
  }
  return "unknown";
}

// The search the model file asks for (attend.search), in translate()'s option names; null where it
// names none (translate() then uses the library's default).
json search_json(const attend::SearchDefaults& asked) {
  const auto or_null = [](const auto& value) { return value ? json(*value) : json(nullptr); };
  return {{"search", asked.marian_rules ? json(*asked.marian_rules ? "marian" : "attend") : json(nullptr)},
          {"beam", or_null(asked.beam_size)},
          {"alpha", or_null(asked.length_penalty)},
          {"wordPenalty", or_null(asked.word_penalty)},
          {"maxLengthRatio", or_null(asked.max_length_ratio)},
          {"maxRepeats", or_null(asked.max_repeats)}};
}

json info_json(const attend::Model& model) {
  const attend::ModelConfig& c = model.config();
  const attend::ModelInfo info = model.info();
  json config = {{"srcVocabSize", c.src_vocab_size}, {"tgtVocabSize", c.tgt_vocab_size}, {"dModel", c.d_model},
                 {"numHeads", c.num_heads}, {"dFf", c.d_ff}, {"encoderLayers", c.encoder_layers},
                 {"decoderLayers", c.decoder_layers}, {"activation", name(c.activation)}, {"norm", name(c.norm)},
                 {"positions", name(c.positions)}, {"embeddingScale", c.embedding_scale},
                 {"sharedVocab", c.shared_vocab}, {"shareEmbeddings", c.share_embeddings},
                 {"tieOutput", c.tie_output}, {"finalLogitsBias", c.final_logits_bias},
                 {"maxPositions", c.max_positions}, {"layerNormEps", c.layer_norm_eps},
                 {"decoderStart", c.decoder_start == attend::DecoderStart::zeros ? "zeros" : "bos"},
                 {"decoderAutoreg", c.decoder_autoreg == attend::DecoderAutoreg::ssru ? "ssru" : "self_attention"},
                 {"padId", c.pad_id},
                 {"unkId", c.unk_id}, {"bosId", c.bos_id}, {"eosId", c.eos_id}};
  return {{"config", config}, {"formatVersion", info.format_version}, {"dtype", info.weight_dtype},
          {"int8Activations", info.int8_activations}, {"members", info.members},
          {"attentionMember", model.attention_member()},
          {"parameterCount", info.parameter_count}, {"fileBytes", info.file_bytes},
          {"srcVocabSize", info.src_vocab_size}, {"tgtVocabSize", info.tgt_vocab_size},
          {"sourceLanguage", info.source_language}, {"targetLanguage", info.target_language},
          {"asksForCaptionRules", info.asks_for_caption_rules},
          {"asksForPassThrough", info.asks_for_pass_through},
          {"search", search_json(info.search)},
          {"hasShortlist", info.has_shortlist},
          {"targetTokens", attend::target_tokens(model)},
          {"kernels", attend::kernels::isa_name(attend::kernels::best_kernels().isa)}};
}

// The options JSON for `session`, with on_step (may be 0) as the per-token callback.
attend::TranslateOptions options_with_callback(const AttendSession& session, const char* options_json,
                                               AttendStepCallback on_step) {
  attend::TranslateOptions options = parse_options(json::parse(options_json), session);
  if (on_step) {
    options.on_step = [on_step](const attend::StepEvent& e) {
      return on_step(e.sentence, e.step, e.token, e.piece.data(), static_cast<int>(e.piece.size()), e.log_prob,
                     e.cross_attention, e.src_len) != 0;
    };
  }
  return options;
}

}  // namespace

extern "C" {

AttendStatus* attend_status_new() { return new (std::nothrow) AttendStatus; }
void attend_status_free(AttendStatus* status) { delete status; }
const char* attend_status_code(const AttendStatus* status) { return status->code.c_str(); }
const char* attend_status_message(const AttendStatus* status) { return status->message.c_str(); }

AttendBytes* attend_bytes_new(uint32_t size, AttendStatus* status) {
  return guarded(status, static_cast<AttendBytes*>(nullptr),
                 [&] { return new AttendBytes(size); });
}
uint8_t* attend_bytes_data(AttendBytes* bytes) { return bytes->data(); }
void attend_bytes_free(AttendBytes* bytes) { delete bytes; }
uint32_t attend_bytes_size(const AttendBytes* bytes) { return static_cast<uint32_t>(bytes->size()); }

AttendResult* attend_marian_files(const char* entries_json, AttendStatus* status) {
  return guarded(status, static_cast<AttendResult*>(nullptr), [&] {
    std::vector<attend::MarianFileEntry> entries;
    for (const json& entry : json::parse(entries_json)) {
      entries.push_back({entry.at("path").get<std::string>(), entry.at("folder").get<std::string>()});
    }
    const attend::MarianFileChoice chosen = attend::choose_marian_files(std::move(entries));
    const json out = {{"model", chosen.model}, {"sourceVocab", chosen.source_vocab}, {"targetVocab", chosen.target_vocab},
                      {"shortlist", chosen.shortlist}, {"sourcePieces", chosen.source_pieces},
                      {"targetPieces", chosen.target_pieces}, {"decoderYml", chosen.decoder_yml}, {"licenses", chosen.licenses},
                      {"languages", attend::marian_languages_from_names(chosen)}};
    return new AttendResult{dump(out), {}};
  });
}

AttendBytes* attend_import_marian(const char* request_json, AttendBytes* const* files, int count, AttendTwoLetter two_letter,
                                  AttendResult** summary, AttendStatus* status) {
  *summary = nullptr;
  return guarded(status, static_cast<AttendBytes*>(nullptr), [&] {
    const json request = json::parse(request_json);
    std::vector<std::string> names = {request.at("model").get<std::string>(), request.at("sourceVocab").get<std::string>()};
    for (const char* optional : {"targetVocab", "shortlist", "sourcePieces", "targetPieces", "decoderYml"}) {
      names.push_back(request.at(optional).get<std::string>());
    }
    for (const json& license : request.at("licenses")) names.push_back(license.get<std::string>());
    const int expected = static_cast<int>(std::count_if(names.begin(), names.end(), [](const std::string& n) { return !n.empty(); }));
    if (names[0].empty() || names[1].empty() || count != expected) {
      throw attend::Error(attend::ErrorCode::invalid_argument, "attend_import_marian: a model, a vocabulary and one buffer per file named (" +
                                                                   std::to_string(expected) + "), got " + std::to_string(count));
    }
    int next = 0;
    const auto take = [&](const std::string& name) {
      if (name.empty()) return attend::NamedBytes{};
      const AttendBytes& bytes = *files[next++];
      return attend::NamedBytes{name, std::string_view(reinterpret_cast<const char*>(bytes.data()), bytes.size())};
    };
    attend::MarianFiles marian;
    marian.model = take(names[0]);
    marian.source_vocab = take(names[1]);
    marian.target_vocab = take(names[2]);
    marian.shortlist = take(names[3]);
    marian.source_pieces = take(names[4]);
    marian.target_pieces = take(names[5]);
    marian.decoder_yml = take(names[6]);
    std::vector<attend::NamedBytes> licenses;
    for (size_t i = 7; i < names.size(); ++i) licenses.push_back(take(names[i]));
    marian.license = attend::marian_license_text(licenses);
    marian.languages = request.value("languages", std::string());
    if (marian.languages.empty()) {
      const std::string multilingual = request.value("multilingual", std::string("refuse"));
      if (multilingual != "refuse" && multilingual != "unnamed") throw invalid_option("multilingual", "\"refuse\" or \"unnamed\"", multilingual);
      const auto host_two_letter = [&](const std::string& code) {
        char out[4] = {};
        if (two_letter != nullptr) two_letter(code.c_str(), out);
        out[3] = '\0';
        return std::string(out);
      };
      const auto languages_from_readmes = [&](attend::SeveralReadmeLanguages several) {
        return attend::marian_languages_from_readmes(licenses, host_two_letter, several);
      };
      try {
        marian.languages = languages_from_readmes(multilingual == "unnamed" ? attend::SeveralReadmeLanguages::unnamed
                                                                            : attend::SeveralReadmeLanguages::refuse);
      } catch (const attend::Error& e) {
        if (e.code() != attend::ErrorCode::invalid_argument) throw;
        // "(languages)" asks for them, as the CLI's "(--languages)"; "(languages, multilingual)" where
        // importing it naming none (multilingual: 'unnamed') would take it: its READMEs state several.
        bool unnamed_takes_it = multilingual == "refuse";
        try {
          if (unnamed_takes_it) languages_from_readmes(attend::SeveralReadmeLanguages::unnamed);
        } catch (const attend::Error&) {
          unnamed_takes_it = false;
        }
        throw attend::Error(e.code(), std::string(e.what()) + (unnamed_takes_it ? " (languages, multilingual)" : " (languages)"));
      }
    }
    auto described = std::make_unique<AttendResult>(AttendResult{dump({{"license", marian.license}, {"languages", marian.languages}}), {}});
    std::string model = attend::import_marian(marian);
    auto out = std::make_unique<AttendBytes>(model.begin(), model.end());
    *summary = described.release();
    return out.release();
  });
}

AttendSession* attend_session_load(AttendBytes* bytes, int int8_activations, AttendStatus* status) {
  std::unique_ptr<AttendBytes> owned(bytes);
  return guarded(status, static_cast<AttendSession*>(nullptr), [&] {
    constexpr attend::Int8Activations kModes[] = {attend::Int8Activations::off, attend::Int8Activations::on,
                                                  attend::Int8Activations::if_int8};
    if (int8_activations < 0 || int8_activations > 2) {
      throw attend::Error(attend::ErrorCode::invalid_argument, "int8_activations must be 0, 1 or 2");
    }
    const attend::ModelOptions options{kModes[int8_activations]};
    return new_session(attend::Model::from_bytes(std::move(*owned), options));
  });
}
void attend_session_free(AttendSession* session) { delete session; }

AttendSession* attend_session_ensemble(AttendSession* const* sessions, int count, const float* weights,
                                       int attention_member, AttendStatus* status) {
  return guarded(status, static_cast<AttendSession*>(nullptr), [&] {
    std::vector<std::shared_ptr<const attend::Model>> members;
    for (int i = 0; i < count; ++i) members.push_back(sessions[i]->model);
    attend::EnsembleOptions options;
    if (weights) options.weights.assign(weights, weights + std::max(count, 0));
    options.attention_member = attention_member;
    return new_session(attend::Model::ensemble(std::move(members), options));
  });
}

int attend_session_rerank_with(AttendSession* session, const AttendSession* reverse, AttendStatus* status) {
  return guarded(status, 0, [&] {
    session->reverse = reverse ? reverse->model : nullptr;
    return 1;
  });
}

int attend_session_set_reverse_weight(AttendSession* session, float weight, AttendStatus* status) {
  return guarded(status, 0, [&] {
    if (!std::isfinite(weight) || weight < 0) {
      throw attend::Error(attend::ErrorCode::invalid_argument, "reverseWeight must be a finite number ≥ 0, got " + std::to_string(weight));
    }
    session->reverse_weight = weight;
    return 1;
  });
}

AttendResult* attend_session_info(const AttendSession* session, AttendStatus* status) {
  return guarded(status, static_cast<AttendResult*>(nullptr), [&] {
    json info = info_json(*session->model);
    info["reverse"] = session->reverse ? info_json(*session->reverse) : json(nullptr);
    return new AttendResult{dump(info), {}};
  });
}

AttendResult* attend_translate(AttendSession* session, const char* options_json, const char* texts,
                               const uint32_t* ends, int count, AttendStepCallback on_step, AttendStatus* status) {
  return guarded(status, static_cast<AttendResult*>(nullptr), [&] {
    const attend::TranslateOptions options = options_with_callback(*session, options_json, on_step);
    std::vector<std::string> inputs;
    for (int i = 0; i < count; ++i) {
      const uint32_t begin = i == 0 ? 0 : ends[i - 1];
      inputs.emplace_back(texts + begin, ends[i] - begin);
    }
    auto result = std::make_unique<AttendResult>();
    result->translations = session->translator.translate_batch(inputs, options);
    json all = json::array();
    for (const auto& t : result->translations) all.push_back(translation_json(t, options.reverse_model != nullptr));
    result->json = dump(all);
    return result.release();
  });
}

AttendResult* attend_plan_document(AttendSession* session, const char* options_json, const char* text, uint32_t size,
                                   const uint32_t* breaks, int break_count, AttendStatus* status) {
  return guarded(status, static_cast<AttendResult*>(nullptr), [&] {
    const attend::TranslateOptions options = parse_options(json::parse(options_json), *session);
    const std::string_view document(text, size);
    attend::require_valid_utf8(document);
    const std::vector<size_t> candidates(breaks, breaks + std::max(break_count, 0));
    json segments = json::array();
    for (const attend::DocumentSegment& s :
         attend::plan_document(document, candidates, attend::plan_options(session->translator, options.caption_rules))) {
      segments.push_back({s.begin, s.end, s.translate ? 1 : 0});
    }
    return new AttendResult{dump(segments), {}};
  });
}

AttendResult* attend_html_blocks(const char* html, uint32_t size, AttendStatus* status) {
  return guarded(status, static_cast<AttendResult*>(nullptr), [&] {
    return new AttendResult{dump(attend::block_texts(attend::parse_html(std::string_view(html, size)))), {}};
  });
}

AttendResult* attend_translate_html(AttendSession* session, const char* options_json, const char* html, uint32_t size,
                                    const uint32_t* breaks, const uint32_t* offsets, int block_count,
                                    AttendStepCallback on_step, AttendStatus* status) {
  return guarded(status, static_cast<AttendResult*>(nullptr), [&] {
    const attend::TranslateOptions options = options_with_callback(*session, options_json, on_step);
    std::vector<std::vector<size_t>> breaks_per_block;
    for (int k = 0; k < block_count; ++k) breaks_per_block.emplace_back(breaks + offsets[k], breaks + offsets[k + 1]);
    attend::HtmlTranslation translated = attend::translate_html(
        session->translator, attend::parse_html(std::string_view(html, size)), breaks_per_block, options);
    auto result = std::make_unique<AttendResult>();
    json sentences = json::array();
    for (attend::HtmlSentence& sentence : translated.sentences) {
      sentences.push_back({{"block", sentence.block}, {"source", sentence.source},
                           {"translation", translation_json(sentence.translation, options.reverse_model != nullptr)}});
      result->translations.push_back(std::move(sentence.translation));
    }
    result->json = dump({{"html", translated.html}, {"sentences", sentences}});
    return result.release();
  });
}

const char* attend_result_json(const AttendResult* result) { return result->json.c_str(); }

const float* attend_result_attention(const AttendResult* result, int sentence, int member, int kind) {
  const attend::Translation& t = result->translations[sentence];
  if (!t.attention) return nullptr;
  const attend::AttentionMaps* attention = member < 0 ? &*t.attention : &t.member_attention[member];
  const std::vector<float>* maps[] = {&attention->encoder, &attention->decoder, &attention->cross};
  return maps[kind]->data();
}

void attend_result_free(AttendResult* result) { delete result; }

}  // extern "C"
