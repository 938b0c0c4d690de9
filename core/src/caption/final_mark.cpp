#include "caption/final_mark.h"

#include <algorithm>
#include <string_view>

#include "tokenizer/pieces.h"

namespace attend {
namespace {

bool is_mark(std::string_view text) {
  return !text.empty() && std::all_of(text.begin(), text.end(), [](char c) { return c == '?' || c == '!'; });
}

}  // namespace

std::string final_mark(const std::vector<int>& source_ids, int eos_id, const Tokenizer& source) {
  size_t end = source_ids.size();
  if (end > 0 && source_ids[end - 1] == eos_id) --end;
  std::string mark;
  for (; end > 0; --end) {
    const std::string piece = source.id_to_piece(source_ids[end - 1]);
    const std::string_view text = without_word_start(piece);
    if (!is_mark(text)) break;
    mark.insert(0, text);
  }
  return mark;
}

void end_with_mark(std::vector<Hypothesis>& hypotheses, const std::string& mark, const Tokenizer& target,
                   size_t max_ids) {
  if (mark.empty()) return;
  std::vector<int> mark_ids;
  for (const char c : mark) {
    const int id = target.piece_to_id(std::string(1, c));
    if (id == target.unk_id()) return;
    mark_ids.push_back(id);
  }
  for (Hypothesis& h : hypotheses) {
    if (!h.ended_with_eos || h.ids.empty()) continue;
    const std::string last_piece = target.id_to_piece(h.ids.back());
    const std::string_view last = without_word_start(last_piece);
    if (is_mark(last)) continue;
    std::vector<int> marked(h.ids.begin(), h.ids.end() - (last == "." ? 1 : 0));
    marked.insert(marked.end(), mark_ids.begin(), mark_ids.end());
    if (marked.size() > max_ids) continue;
    const bool copy = std::any_of(hypotheses.begin(), hypotheses.end(),
                                  [&](const Hypothesis& other) { return &other != &h && other.ids == marked; });
    if (!copy) h.ids = std::move(marked);
  }
}

}  // namespace attend
