// The pieces a model numbers, where its ids are not its SentencePiece model's: Marian's vocab.yml
// (OPUS-MT), whose ids follow the yml while source.spm and target.spm only segment the text. As
// it travels in the model file (`tokenizer.src.pieces`, docs/DESIGN.md "The model file"): each
// id's piece in id order, each followed by one NUL byte.
#pragma once

#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace attend {

class PieceList {
 public:
  // Throws Error(invalid_model) naming what is wrong: no pieces, bytes after the last NUL, an
  // empty piece, a piece twice, no "</s>" (Marian's end of sentence) or "<unk>".
  static PieceList from_bytes(std::string_view bytes);
  // The bytes from_bytes reads. Throws Error(invalid_argument) for a piece that is empty or holds a NUL.
  static std::string to_bytes(const std::vector<std::string>& pieces);

  PieceList(PieceList&&) noexcept = default;  // the views of ids_ stay valid: the strings do not move
  PieceList& operator=(PieceList&&) noexcept = default;
  PieceList(const PieceList&) = delete;
  PieceList& operator=(const PieceList&) = delete;

  int size() const { return static_cast<int>(pieces_.size()); }
  const std::string& piece(int id) const { return pieces_[static_cast<size_t>(id)]; }
  // The piece's id, or unk_id() when the list lacks it (as Marian's DefaultVocab maps a word).
  int id(std::string_view piece) const;
  bool has(std::string_view piece) const { return ids_.count(piece) != 0; }
  int eos_id() const { return eos_id_; }  // "</s>"
  int unk_id() const { return unk_id_; }  // "<unk>"
  int bos_id() const { return bos_id_; }  // "<s>", or -1
  int pad_id() const { return pad_id_; }  // "<pad>", or -1

 private:
  PieceList() = default;
  std::vector<std::string> pieces_;
  std::unordered_map<std::string_view, int> ids_;  // views into pieces_, which never moves after construction
  int eos_id_ = -1, unk_id_ = -1, bos_id_ = -1, pad_id_ = -1;
};

}  // namespace attend
