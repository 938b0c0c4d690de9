#include "import/marian_import.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <locale>
#include <optional>
#include <sstream>
#include <vector>

#include <nlohmann/json.hpp>

#include "attend/error.h"
#include "attend/model.h"
#include "import/marian_architecture.h"
#include "import/marian_binary.h"
#include "import/marian_npz.h"
#include "import/marian_tensors.h"
#include "model/marian_shortlist.h"
#include "import/marian_yml.h"
#include "import/safetensors_writer.h"
#include "model/config_json.h"
#include "tokenizer/piece_list.h"
#include "tokenizer/tokenizer.h"

namespace attend {
namespace {

// Positions the sinusoid table holds. Bergamot cuts a source sentence at 128 pieces
// (max-length-break) and stops the translation at twice its length (max-length-factor 2), so
// 512 leaves twice what a Bergamot model is ever asked for; Marian's sinusoids have no limit.
constexpr int kMaxPositions = 512;

[[noreturn]] void fail(const std::string& file, const std::string& what) {
  throw Error(ErrorCode::invalid_model, file + ": " + what);
}

// One side's vocabulary: the SentencePiece model, and the piece list that numbers its pieces
// where a vocab.yml does (then `name` is the yml's, which sets the ids).
struct Vocabulary {
  std::string name;
  int size = 0, eos_id = -1, unk_id = -1;
  std::string pieces;  // PieceList bytes (tokenizer.*.pieces), or empty
};

Vocabulary read_vocabulary(const NamedBytes& spm, const NamedBytes& yml) {
  Vocabulary v;
  v.name = yml.bytes.empty() ? spm.name : yml.name;
  if (!yml.bytes.empty()) v.pieces = PieceList::to_bytes(read_marian_vocab_yml(yml.bytes, yml.name));
  std::optional<Tokenizer> tokenizer;
  try {
    tokenizer = v.pieces.empty() ? Tokenizer::from_bytes(spm.bytes) : Tokenizer::from_bytes(spm.bytes, v.pieces);
  } catch (const Error& e) {  // the SentencePiece model's damage, or the yml's pieces' ("no '</s>'")
    fail(std::string(e.what()).find("piece list") != std::string::npos ? yml.name : spm.name, e.what());
  }
  v.size = tokenizer->vocab_size();
  v.eos_id = tokenizer->eos_id();
  v.unk_id = tokenizer->unk_id();
  if (v.eos_id < 0) fail(spm.name, "the SentencePiece model has no end-of-sentence piece (eos_id), which Marian appends");
  if (v.unk_id < 0) fail(spm.name, "the SentencePiece model has no unknown piece (unk_id)");
  return v;
}

// A float of decoder.yml, as yaml-cpp reads it; `fallback` where the key is absent.
double decoder_option(const MarianYml& yml, const std::string& key, double fallback) {
  const std::string text = yml.text(key, "");
  if (!yml.has(key) || text.empty()) return fallback;
  std::istringstream in(text);
  in.imbue(std::locale::classic());
  double value = 0;
  in >> value;
  if (in.fail() || !in.eof() || !std::isfinite(value)) yml.refuse(key, "is '" + text.substr(0, 40) + "', not a number");
  return value;
}

// attend.search. Without decoder.yml: Marian's search as Bergamot's worker runs it (beam 1, the
// search's own default, so not named; normalize 1, word-penalty 0, max-length-factor 2). With it:
// as marian-decoder runs with it, its beam-size, normalize, word-penalty and max-length-factor
// (Marian's translator defaults 12, 0, 0 and 3 where it names none; src/common/config_parser.cpp
// addOptionsTranslation). Marian has no repeat guard.
std::string search_json(const NamedBytes& decoder_yml) {
  double normalize = 1, word_penalty = 0, length_factor = 2;
  nlohmann::json search = {{"rules", "marian"}};
  if (!decoder_yml.bytes.empty()) {
    const MarianYml yml(decoder_yml.bytes, decoder_yml.name, "");
    const double beam = decoder_option(yml, "beam-size", 12);
    normalize = decoder_option(yml, "normalize", 0);
    word_penalty = decoder_option(yml, "word-penalty", 0);
    length_factor = decoder_option(yml, "max-length-factor", 3);
    if (beam != std::floor(beam) || beam < 1 || beam > kMaxBeamSize) {
      yml.refuse("beam-size", "is not a whole number in [1, " + std::to_string(kMaxBeamSize) + "]");
    }
    if (normalize < 0 || normalize > 10) yml.refuse("normalize", "is outside [0, 10]");
    if (word_penalty < -100 || word_penalty > 100) yml.refuse("word-penalty", "is outside [-100, 100]");
    if (length_factor <= 0 || length_factor > 100) yml.refuse("max-length-factor", "is outside (0, 100]");
    search["beam_size"] = static_cast<int>(beam);
  }
  search["length_penalty"] = normalize;
  search["word_penalty"] = word_penalty;
  search["max_length_ratio"] = length_factor;
  search["max_repeats"] = 0;
  return search.dump();
}

// The model's items, from an .npz (a zip) or a .bin; `npz` keeps the inflated bytes they view.
std::vector<MarianItem> read_model_items(const NamedBytes& model, MarianNpz& npz) {
  if (!looks_like_zip(model.bytes)) return read_marian_binary(model.bytes, model.name);
  npz = read_marian_npz(model.bytes, model.name);
  return std::move(npz.items);
}

void check_languages(const std::string& languages) {
  const size_t dash = languages.find('-');
  const auto code = [](const std::string& c) {
    return c.size() >= 2 && c.size() <= 3 && std::all_of(c.begin(), c.end(), [](char x) { return x >= 'a' && x <= 'z'; });
  };
  const std::string source = languages.substr(0, dash), target = dash == std::string::npos ? "" : languages.substr(dash + 1);
  if (!code(source) || !code(target) || source == target) {
    throw Error(ErrorCode::invalid_argument, "languages '" + languages +
                                                 "': expected the source and target languages' ISO 639 codes, as 'en-de'");
  }
}

// dim-vocabs, where stated, must be the vocabularies' sizes.
void check_dim_vocabs(const MarianYml& yml, const MarianArchitecture& a, const Vocabulary& src, const Vocabulary& tgt) {
  if (a.dim_vocabs.empty()) return;
  const Vocabulary* sides[] = {&src, &tgt};
  for (int k = 0; k < 2; ++k) {
    if (a.dim_vocabs[k] != 0 && a.dim_vocabs[k] != sides[k]->size) {
      yml.refuse("dim-vocabs", "says " + std::to_string(a.dim_vocabs[k]) + (k == 0 ? " source" : " target") + " pieces, " +
                                   sides[k]->name + " has " + std::to_string(sides[k]->size));
    }
  }
}

// `attend.config` (core/src/model/config_json.cpp; training/attend_ref/config.py).
std::string config_json(const MarianArchitecture& a, const Vocabulary& src, const Vocabulary& tgt, bool shared_vocab,
                        bool final_logits_bias) {
  const nlohmann::json config = {
      {"src_vocab_size", src.size},
      {"tgt_vocab_size", tgt.size},
      {"d_model", a.d_model},
      {"num_heads", a.num_heads},
      {"d_ff", a.d_ff},
      {"encoder_layers", a.encoder_layers},
      {"decoder_layers", a.decoder_layers},
      {"activation", a.activation},
      {"norm", "post"},
      {"positions", "sinusoidal_half"},  // Marian's sin | cos halves, ω_i = 10000^(-i/(d/2-1)) (§1)
      {"embedding_scale", true},
      {"shared_vocab", shared_vocab},
      {"share_embeddings", a.shared_embedding},
      {"tie_output", a.tied_output},
      {"final_logits_bias", final_logits_bias},
      {"max_positions", kMaxPositions},
      {"layer_norm_eps", 1e-6},
      {"decoder_start", "zeros"},  // Marian's first decoder input is a zero vector (§2)
      {"decoder_autoreg", a.ssru ? "ssru" : "self_attention"},
      {"pad_id", -1},  // Marian pads with eos and masks; no piece is padding
      {"unk_id", src.unk_id},
      {"bos_id", src.eos_id},  // unused: decoding starts from zeros
      {"eos_id", src.eos_id}};
  return config.dump();
}

TensorSource bytes_tensor(const std::string& name, std::string_view bytes) {
  return {name, DType::u8, {static_cast<int64_t>(bytes.size())},
          [bytes](uint8_t* out) { std::memcpy(out, bytes.data(), bytes.size()); }};
}

}  // namespace

std::string import_marian(const MarianFiles& files) {
  if (!files.languages.empty()) check_languages(files.languages);
  MarianNpz npz;
  const std::vector<MarianItem> items = read_model_items(files.model, npz);
  const std::string_view yml_text = marian_model_yml(items);
  if (yml_text.empty()) fail(files.model.name, "no 'special:model.yml' item (the architecture)");
  const MarianYml yml(yml_text, files.model.name);
  const MarianArchitecture architecture = read_marian_architecture(yml);

  if (files.source_vocab.bytes.empty()) {
    fail(files.source_pieces.bytes.empty() ? files.model.name : files.source_pieces.name,
         "no SentencePiece model (.spm) to cut text into pieces" + std::string(files.source_pieces.bytes.empty() ? "" : " (OPUS-MT's source.spm)"));
  }
  if (files.source_pieces.bytes.empty() && !files.target_pieces.bytes.empty()) {
    fail(files.target_pieces.name, "a target vocab.yml without the source's");
  }
  // Two segmenters, and one id space where one vocab.yml (or one .spm) numbers both sides.
  const NamedBytes& target_spm = files.target_vocab.bytes.empty() ? files.source_vocab : files.target_vocab;
  const bool two_segmenters = target_spm.bytes != files.source_vocab.bytes;
  const bool one_vocabulary = files.source_pieces.bytes.empty()
                                  ? !two_segmenters
                                  : files.target_pieces.bytes.empty() || files.target_pieces.bytes == files.source_pieces.bytes;
  const Vocabulary src = read_vocabulary(files.source_vocab, files.source_pieces);
  const Vocabulary tgt = one_vocabulary && !two_segmenters ? src
                         : read_vocabulary(target_spm, one_vocabulary ? files.source_pieces : files.target_pieces);
  if (src.eos_id != tgt.eos_id || src.unk_id != tgt.unk_id) {
    fail(tgt.name, "eos_id " + std::to_string(tgt.eos_id) + " and unk_id " + std::to_string(tgt.unk_id) + ", " + src.name +
                       " " + std::to_string(src.eos_id) + " and " + std::to_string(src.unk_id) + ": Attend needs one of each");
  }
  if (architecture.shared_embedding && !one_vocabulary) {
    fail(files.model.name, "one embedding (Wemb: tied-embeddings-src or -all) needs one vocabulary, not " + src.name + " and " +
                               tgt.name);
  }
  check_dim_vocabs(yml, architecture, src, tgt);

  MarianTensors tensors = marian_tensors(items, architecture, src.size, tgt.size, files.model.name);
  tensors.tensors.push_back(bytes_tensor("tokenizer.src", files.source_vocab.bytes));
  if (!src.pieces.empty()) tensors.tensors.push_back(bytes_tensor("tokenizer.src.pieces", src.pieces));
  if (two_segmenters || !one_vocabulary) tensors.tensors.push_back(bytes_tensor("tokenizer.tgt", target_spm.bytes));
  if (!one_vocabulary && !tgt.pieces.empty()) tensors.tensors.push_back(bytes_tensor("tokenizer.tgt.pieces", tgt.pieces));
  if (!files.shortlist.bytes.empty()) {  // kept as Marian wrote it, read by the engine (Model::Impl::shortlist)
    read_marian_shortlist(files.shortlist.bytes, files.shortlist.name, src.size, tgt.size);
    tensors.tensors.push_back(bytes_tensor("shortlist.marian", files.shortlist.bytes));
  }
  const bool any_int8 = std::any_of(tensors.tensors.begin(), tensors.tensors.end(),
                                    [](const TensorSource& t) { return t.dtype == DType::i8; });

  const std::string config = config_json(architecture, src, tgt, one_vocabulary, tensors.final_logits_bias);
  try {
    parse_model_config(config);  // the engine's limits (layers, widths, vocabulary sizes)
  } catch (const Error& e) {
    fail(files.model.name, std::string("Attend cannot load the model it makes: ") + e.what());
  }
  // attend.pass_through none: the model reads every sentence whole and its words are the
  // translation, as Marian's are (attend/translator.h PassThroughSpans); no attend.text_rules:
  // no caption rules. attend.search: Marian's search (search_json).
  SafetensorsMetadata metadata = {
      {"attend.format", "1"}, {"attend.config", config}, {"attend.dtype", any_int8 ? "int8" : "f32"},
      {"attend.pass_through", "none"}, {"attend.search", search_json(files.decoder_yml)}};
  if (!files.languages.empty()) metadata.emplace_back("attend.languages", files.languages);
  if (!files.license.empty()) metadata.emplace_back("attend.license", files.license);
  metadata.emplace_back("marian.model.yml", std::string(yml_text));
  return write_safetensors(std::move(tensors.tensors), metadata);
}

}  // namespace attend
