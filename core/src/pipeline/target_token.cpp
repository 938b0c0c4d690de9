#include "pipeline/target_token.h"

#include <string>
#include <utility>

#include "attend/error.h"
#include "model/model_impl.h"
#include "tokenizer/tokenizer.h"

namespace attend {

int target_token_id(const Model& model, std::string_view given) {
  const Tokenizer& tokenizer = *model.impl().src_tokenizer;
  const std::string token = is_target_token(given) ? std::string(given) : ">>" + std::string(given) + "<<";
  const int id = tokenizer.piece_to_id(token);
  if (id >= 0 && id < tokenizer.vocab_size() && tokenizer.id_to_piece(id) == token) return id;
  // Refused: the vocabulary's own target tokens, a few of them, in id order.
  constexpr size_t kShown = 6;
  const std::vector<std::string> tokens = target_tokens(model);
  const size_t count = tokens.size();
  std::string shown;
  for (size_t i = 0; i < count && i < kShown; ++i) shown += (shown.empty() ? "" : ", ") + tokens[i];
  const std::string asked = "target token '" + token.substr(0, 60) + "': ";
  if (count == 0) {
    throw Error(ErrorCode::invalid_argument, asked + "the model's source vocabulary has no >>xxx<< tokens (only a multilingual "
                                                     "OPUS-MT model's has, one per language it writes)");
  }
  throw Error(ErrorCode::invalid_argument, asked + "not a piece of the model's source vocabulary, which has " +
                                               std::to_string(count) + " such tokens: " + shown + (count > kShown ? ", ..." : ""));
}

std::vector<std::string> target_tokens(const Model& model) {
  const Tokenizer& tokenizer = *model.impl().src_tokenizer;
  std::vector<std::string> tokens;
  for (int id = 0; id < tokenizer.vocab_size(); ++id) {
    std::string piece = tokenizer.id_to_piece(id);
    if (is_target_token(piece)) tokens.push_back(std::move(piece));
  }
  return tokens;
}

std::vector<int> with_target_token(std::vector<int> ids, int token) {
  if (token >= 0 && (ids.empty() || ids.front() != token)) ids.insert(ids.begin(), token);
  return ids;
}

AttentionMaps without_first_source(const AttentionMaps& maps) {
  if (maps.src_len < 1 || maps.source_pieces.size() != static_cast<size_t>(maps.src_len) ||
      maps.cross.size() != static_cast<size_t>(maps.decoder_layers) * maps.heads * maps.tgt_len * maps.src_len) {
    throw Error(ErrorCode::invalid_argument, "attention maps without their first source position: the maps are not whole");
  }
  AttentionMaps out;
  out.encoder_layers = 0;
  out.decoder_layers = maps.decoder_layers;
  out.heads = maps.heads;
  out.src_len = maps.src_len - 1;
  out.tgt_len = maps.tgt_len;
  out.source_pieces.assign(maps.source_pieces.begin() + 1, maps.source_pieces.end());
  out.target_pieces = maps.target_pieces;
  out.target_input_pieces = maps.target_input_pieces;
  out.cross.reserve(maps.cross.size() - maps.cross.size() / maps.src_len);
  for (size_t row = 0; row < maps.cross.size(); row += maps.src_len) {  // [layer][head][tgt] rows of src_len
    out.cross.insert(out.cross.end(), maps.cross.begin() + row + 1, maps.cross.begin() + row + maps.src_len);
  }
  return out;
}

}  // namespace attend
