// read_marian_vocab_yml (core/src/import/marian_yml.h) on any text, and its pieces through the
// piece list the tokenizer reads (tokenizer/piece_list.h). Oracle: it returns each id's piece or
// throws invalid_model, nothing else; the pieces are non-empty UTF-8 without NUL, each once, and
// the list numbers each piece with its id (or refuses a list without </s> or <unk>).
#include <set>
#include <string_view>

#include "attend/error.h"
#include "fuzz_support.h"
#include "import/marian_yml.h"
#include "tokenizer/piece_list.h"
#include "tokenizer/utf8.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  std::vector<std::string> pieces;
  try {
    pieces = attend::read_marian_vocab_yml(text, "fuzzed.vocab.yml");
  } catch (const attend::Error& e) {
    attend::fuzz::require_code(e, {attend::ErrorCode::invalid_model}, "read_marian_vocab_yml");
    return 0;
  }
  attend::fuzz::require(!pieces.empty(), "no pieces returned");
  std::set<std::string> seen;
  for (const std::string& piece : pieces) {
    attend::fuzz::require(!piece.empty() && piece.find('\0') == std::string::npos, "an empty piece or one with a NUL");
    attend::fuzz::require(!attend::find_invalid_utf8(piece), "a piece that is not UTF-8");
    attend::fuzz::require(seen.insert(piece).second, "a piece twice");
  }
  try {
    const attend::PieceList list = attend::PieceList::from_bytes(attend::PieceList::to_bytes(pieces));
    attend::fuzz::require(list.size() == static_cast<int>(pieces.size()), "the list's size");
    for (size_t id = 0; id < pieces.size(); ++id) {
      attend::fuzz::require(list.id(pieces[id]) == static_cast<int>(id) && list.piece(static_cast<int>(id)) == pieces[id],
                            "a piece not numbered by its id");
    }
  } catch (const attend::Error& e) {
    attend::fuzz::require_code(e, {attend::ErrorCode::invalid_model}, "PieceList::from_bytes");
  }
  return 0;
}
