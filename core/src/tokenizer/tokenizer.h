// attend::Tokenizer: text <-> token ids with a SentencePiece model (unigram, BPE, char or
// word; byte fallback included), loaded from the serialized model bytes that travel in
// the model file as a U8 tensor; or, for a model whose ids are not its SentencePiece model's
// (Marian's vocab.yml: OPUS-MT), the SentencePiece model segmenting the text and a piece list
// numbering the pieces (tokenizer/piece_list.h). Immutable after construction: every method is
// const and safe to call from several threads at once.
#pragma once

#include <cstddef>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace sentencepiece {
class SentencePieceProcessor;
}

namespace attend {

class PieceList;  // tokenizer/piece_list.h

// A token of encode_with_offsets: its id and the bytes [begin, end) of the input text it came from.
struct TokenSpan {
  int id = 0;
  size_t begin = 0;
  size_t end = 0;
};

class Tokenizer {
 public:
  // Throws Error(invalid_model) if the bytes are not a usable SentencePiece ModelProto.
  static Tokenizer from_bytes(std::string_view serialized_model_proto);
  // The SentencePiece model segments, `piece_list` (PieceList::from_bytes) numbers: a text's ids
  // are its pieces' (spm_encode --output_format=piece) ids in the list, a piece the list lacks
  // its "<unk>", as Marian maps what OPUS-MT's pipeline segments; ids decode as the SentencePiece
  // model decodes their pieces (spm_decode --input_format=piece; SentencePiece's DecodePieces).
  // Throws Error(invalid_model) for either's damage.
  static Tokenizer from_bytes(std::string_view serialized_model_proto, std::string_view piece_list);

  Tokenizer(Tokenizer&&) noexcept;
  Tokenizer& operator=(Tokenizer&&) noexcept;
  ~Tokenizer();

  // Ids of `text` (no BOS/EOS added), exactly as `spm_encode --output_format=id` (with a piece
  // list: the list's ids of `spm_encode --output_format=piece`, except that a text opening with
  // a target-language token that is a whole entry of the list, ">>fra<< Bonjour", reads it as
  // that one piece and the rest as spm_encode does, as OPUS-MT's pipeline puts it before the
  // pieces of a multilingual model's source: target_token_length).
  // Throws Error(invalid_input) if `text` is not valid UTF-8.
  std::vector<int> encode(std::string_view text) const;
  // The same ids, each with the span of `text` it stands for (SentencePiece's surface offsets;
  // an unknown piece spans the characters the vocabulary lacks). Throws as encode() does.
  std::vector<TokenSpan> encode_with_offsets(std::string_view text) const;
  // Text of `ids`, exactly as `spm_decode --input_format=id` (with a piece list: of their pieces,
  // as `spm_decode --input_format=piece`). Control ids decode to "".
  // Throws Error(invalid_argument) if an id is outside [0, vocab_size()).
  std::string decode(const std::vector<int>& ids) const;
  // The piece of each id ("▁Ein", "<0xF0>", "</s>", ...), e.g. to label attention maps.
  // Throws Error(invalid_argument) if an id is outside [0, vocab_size()).
  std::vector<std::string> pieces(const std::vector<int>& ids) const;

  int vocab_size() const;
  // unk_id() for a piece not in the vocabulary.
  int piece_to_id(std::string_view piece) const;
  // Throws Error(invalid_argument) if `id` is outside [0, vocab_size()).
  std::string id_to_piece(int id) const;
  // -1 when the model has no such piece (e.g. pad in a model trained with the defaults).
  int unk_id() const;
  int bos_id() const;
  int eos_id() const;
  int pad_id() const;
  // Whether the ids are a piece list's, not the SentencePiece model's.
  bool has_piece_list() const { return pieces_ != nullptr; }
  // The bytes of the target-language token `text` opens with: ">>", up to the first "<<" after
  // it, a piece of the piece list (a tokenizer without one reads none). 0 when it opens with none.
  size_t target_token_length(std::string_view text) const;
  // Whether the piece list has target-language tokens (is_target_token): a multilingual model's
  // source, which reads one before each sentence. A tokenizer without a list has none.
  bool lists_target_tokens() const;

 private:
  Tokenizer(std::unique_ptr<sentencepiece::SentencePieceProcessor> processor, std::unique_ptr<const PieceList> pieces);
  void check_id(int id) const;

  std::unique_ptr<sentencepiece::SentencePieceProcessor> processor_;
  std::unique_ptr<const PieceList> pieces_;  // null: the SentencePiece model's own ids
};

// A multilingual OPUS-MT model's target-language token: a piece ">>xxx<<" (">>fra<<").
bool is_target_token(std::string_view piece);

}  // namespace attend
