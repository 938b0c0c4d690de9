#include "tokenizer/tokenizer.h"

#include <sentencepiece_processor.h>

#include "attend/error.h"
#include "tokenizer/normalizer_rules.h"
#include "tokenizer/piece_list.h"
#include "tokenizer/protobuf_fields.h"
#include "tokenizer/utf8.h"

namespace attend {
namespace {

// Every piece of the model is text without a NUL byte. SentencePiece builds its trie of pieces
// with darts-clone, which reads each as a C string: an empty one ("\0▁sich") throws, and the
// exception cannot pass through SentencePiece, so the process aborted (found by
// tests/fuzz/tokenizer_model_fuzzer.cpp); a NUL inside one could put the keys out of order, which
// throws too.
void check_pieces_are_c_strings(std::string_view model_proto) {
  constexpr uint64_t kModelPieces = 1, kPieceText = 1;  // sentencepiece_model.proto
  size_t index = 0;
  for_each_field(model_proto, kModelPieces, [&](std::string_view piece) {
    std::string_view text;  // protobuf merges repeated occurrences: the last one is the piece's
    for_each_field(piece, kPieceText, [&](std::string_view bytes) { text = bytes; });
    if (text.empty()) fail_damaged_model("piece " + std::to_string(index) + " is empty");
    if (text.find('\0') != std::string_view::npos) fail_damaged_model("piece " + std::to_string(index) + " holds a NUL byte");
    ++index;
  });
}

Error encode_error(std::string_view text, const sentencepiece::util::Status& status) {
  return Error(ErrorCode::invalid_input,
               "tokenizer: cannot encode the " + std::to_string(text.size()) + "-byte input: " + status.ToString());
}

}  // namespace

Tokenizer Tokenizer::from_bytes(std::string_view serialized_model_proto, std::string_view piece_list) {
  auto pieces = std::make_unique<const PieceList>(PieceList::from_bytes(piece_list));
  Tokenizer tokenizer = from_bytes(serialized_model_proto);
  tokenizer.pieces_ = std::move(pieces);
  return tokenizer;
}

Tokenizer Tokenizer::from_bytes(std::string_view serialized_model_proto) {
  for (const std::string_view charsmap : precompiled_charsmaps(serialized_model_proto)) {
    check_precompiled_charsmap(charsmap);
  }
  check_pieces_are_c_strings(serialized_model_proto);
  auto processor = std::make_unique<sentencepiece::SentencePieceProcessor>();
  const auto status = processor->LoadFromSerializedProto(serialized_model_proto);
  if (!status.ok()) {
    throw Error(ErrorCode::invalid_model,
                "tokenizer: cannot load a SentencePiece model from " +
                    std::to_string(serialized_model_proto.size()) +
                    " bytes (damaged, or not a SentencePiece .model): " + status.ToString());
  }
  return Tokenizer(std::move(processor), nullptr);
}

Tokenizer::Tokenizer(std::unique_ptr<sentencepiece::SentencePieceProcessor> processor, std::unique_ptr<const PieceList> pieces)
    : processor_(std::move(processor)), pieces_(std::move(pieces)) {}
Tokenizer::Tokenizer(Tokenizer&&) noexcept = default;
Tokenizer& Tokenizer::operator=(Tokenizer&&) noexcept = default;
Tokenizer::~Tokenizer() = default;

std::vector<int> Tokenizer::encode(std::string_view text) const {
  if (pieces_) {
    std::vector<int> ids;
    for (const TokenSpan& token : encode_with_offsets(text)) ids.push_back(token.id);
    return ids;
  }
  require_valid_utf8(text);
  std::vector<int> ids;
  const auto status = processor_->Encode(text, &ids);
  if (!status.ok()) {
    throw encode_error(text, status);
  }
  return ids;
}

size_t Tokenizer::target_token_length(std::string_view text) const {
  if (!pieces_ || text.substr(0, 2) != ">>") return 0;
  const size_t close = text.find("<<", 2);
  if (close == std::string_view::npos || close == 2) return 0;
  const std::string_view token = text.substr(0, close + 2);
  return pieces_->has(token) ? token.size() : 0;
}

bool Tokenizer::lists_target_tokens() const {
  if (!pieces_) return false;
  for (int id = 0; id < vocab_size(); ++id) {
    if (is_target_token(id_to_piece(id))) return true;
  }
  return false;
}

bool is_target_token(std::string_view piece) {
  return piece.size() > 4 && piece.substr(0, 2) == ">>" && piece.substr(piece.size() - 2) == "<<";
}

std::vector<TokenSpan> Tokenizer::encode_with_offsets(std::string_view text) const {
  require_valid_utf8(text);
  std::vector<TokenSpan> tokens;
  // A leading target-language token of the piece list: its one piece, then the rest's pieces.
  const size_t lead = target_token_length(text);
  if (lead > 0) tokens.push_back(TokenSpan{pieces_->id(text.substr(0, lead)), 0, lead});
  const std::string_view rest = text.substr(lead);
  sentencepiece::ImmutableSentencePieceText encoded;
  const auto status = processor_->Encode(rest, encoded.mutable_proto());
  if (!status.ok()) {
    throw encode_error(text, status);
  }
  tokens.reserve(tokens.size() + encoded.pieces_size());
  for (const auto& piece : encoded.pieces()) {
    // With a piece list, the piece's text (an unknown one's surface, as spm_encode prints it) is looked up.
    const int id = pieces_ ? pieces_->id(piece.piece()) : static_cast<int>(piece.id());
    tokens.push_back(TokenSpan{id, lead + piece.begin(), lead + piece.end()});
  }
  return tokens;
}

std::string Tokenizer::decode(const std::vector<int>& ids) const {
  for (const int id : ids) check_id(id);
  std::string text;
  const auto status = pieces_ ? processor_->Decode(pieces(ids), &text) : processor_->Decode(ids, &text);
  if (!status.ok()) {
    throw Error(ErrorCode::invalid_argument, "tokenizer: cannot decode " +
                                                 std::to_string(ids.size()) +
                                                 " ids: " + status.ToString());
  }
  return text;
}

std::vector<std::string> Tokenizer::pieces(const std::vector<int>& ids) const {
  std::vector<std::string> result;
  result.reserve(ids.size());
  for (const int id : ids) result.push_back(id_to_piece(id));
  return result;
}

int Tokenizer::vocab_size() const { return pieces_ ? pieces_->size() : processor_->GetPieceSize(); }

int Tokenizer::piece_to_id(std::string_view piece) const { return pieces_ ? pieces_->id(piece) : processor_->PieceToId(piece); }

std::string Tokenizer::id_to_piece(int id) const {
  check_id(id);
  return pieces_ ? pieces_->piece(id) : processor_->IdToPiece(id);
}

int Tokenizer::unk_id() const { return pieces_ ? pieces_->unk_id() : processor_->unk_id(); }
int Tokenizer::bos_id() const { return pieces_ ? pieces_->bos_id() : processor_->bos_id(); }
int Tokenizer::eos_id() const { return pieces_ ? pieces_->eos_id() : processor_->eos_id(); }
int Tokenizer::pad_id() const { return pieces_ ? pieces_->pad_id() : processor_->pad_id(); }

void Tokenizer::check_id(int id) const {
  if (id < 0 || id >= vocab_size()) {
    throw Error(ErrorCode::invalid_argument, "tokenizer: id " + std::to_string(id) +
                                                 " is outside the vocabulary [0, " +
                                                 std::to_string(vocab_size()) + ")");
  }
}

}  // namespace attend
