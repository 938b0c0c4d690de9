#include "tokenizer/piece_list.h"

#include "attend/error.h"

namespace attend {
namespace {

[[noreturn]] void fail(const std::string& what) {
  throw Error(ErrorCode::invalid_model, "tokenizer: the piece list " + what);
}

// At most 40 bytes of a piece, for messages.
std::string shown(std::string_view piece) { return "'" + std::string(piece.substr(0, 40)) + "'"; }

}  // namespace

PieceList PieceList::from_bytes(std::string_view bytes) {
  if (bytes.empty()) fail("is empty");
  if (bytes.back() != '\0') fail("does not end with a NUL byte (each piece is followed by one)");
  PieceList list;
  for (size_t at = 0; at < bytes.size();) {
    const size_t end = bytes.find('\0', at);
    if (end == at) fail("holds an empty piece at id " + std::to_string(list.pieces_.size()));
    list.pieces_.emplace_back(bytes.substr(at, end - at));
    at = end + 1;
  }
  list.ids_.reserve(list.pieces_.size());
  for (size_t i = 0; i < list.pieces_.size(); ++i) {
    const auto [it, added] = list.ids_.emplace(list.pieces_[i], static_cast<int>(i));
    if (!added) fail("holds the piece " + shown(list.pieces_[i]) + " twice, ids " + std::to_string(it->second) + " and " + std::to_string(i));
  }
  const auto find = [&](std::string_view piece) {
    const auto it = list.ids_.find(piece);
    return it == list.ids_.end() ? -1 : it->second;
  };
  list.eos_id_ = find("</s>");
  list.unk_id_ = find("<unk>");
  list.bos_id_ = find("<s>");
  list.pad_id_ = find("<pad>");
  if (list.eos_id_ < 0) fail("has no '</s>', the end of sentence Marian appends");
  if (list.unk_id_ < 0) fail("has no '<unk>', the piece Marian gives what the list lacks");
  return list;
}

std::string PieceList::to_bytes(const std::vector<std::string>& pieces) {
  std::string bytes;
  for (const std::string& piece : pieces) {
    if (piece.empty() || piece.find('\0') != std::string::npos) {
      throw Error(ErrorCode::invalid_argument, "tokenizer: a piece list holds no empty piece and no NUL byte, got " + shown(piece));
    }
    bytes += piece;
    bytes += '\0';
  }
  return bytes;
}

int PieceList::id(std::string_view piece) const {
  const auto it = ids_.find(piece);
  return it == ids_.end() ? unk_id_ : it->second;
}

}  // namespace attend
