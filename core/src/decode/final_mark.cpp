#include "decode/final_mark.h"

#include <algorithm>
#include <string_view>

namespace attend {
namespace {

constexpr std::string_view kWordStart = "\xE2\x96\x81";  // "▁", SentencePiece's space

// A piece's text without its leading "▁".
std::string_view without_word_start(std::string_view piece) {
  if (piece.substr(0, kWordStart.size()) == kWordStart) piece.remove_prefix(kWordStart.size());
  return piece;
}

bool is_mark(std::string_view text) {
  return !text.empty() && std::all_of(text.begin(), text.end(), [](char c) { return c == '?' || c == '!'; });
}

}  // namespace

std::string final_mark(const std::vector<int>& source_ids, const Tokenizer& source) {
  size_t end = source_ids.size();
  if (end > 0 && source_ids[end - 1] == source.eos_id()) --end;
  std::string mark;
  for (; end > 0; --end) {
    const std::string piece = source.id_to_piece(source_ids[end - 1]);
    const std::string_view text = without_word_start(piece);
    if (!is_mark(text)) break;
    mark.insert(0, text);
  }
  return mark;
}

bool end_with_mark(std::vector<int>& ids, const std::string& mark, const Tokenizer& target, size_t max_ids) {
  if (mark.empty() || ids.empty()) return false;
  if (is_mark(without_word_start(target.id_to_piece(ids.back())))) return false;
  std::vector<int> mark_ids;
  for (const char c : mark) {
    const int id = target.piece_to_id(std::string(1, c));
    if (id == target.unk_id()) return false;
    mark_ids.push_back(id);
  }
  const bool ends_with_stop = without_word_start(target.id_to_piece(ids.back())) == ".";
  const size_t kept = ids.size() - (ends_with_stop ? 1 : 0);
  if (kept + mark_ids.size() > max_ids) return false;
  ids.resize(kept);
  ids.insert(ids.end(), mark_ids.begin(), mark_ids.end());
  return true;
}

}  // namespace attend
