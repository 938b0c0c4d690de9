#include "decode/opening_case.h"

#include <algorithm>

#include "decode/alignment.h"
#include "text/ascii.h"
#include "text/letter_case.h"
#include "text/letters.h"

namespace attend {
namespace {

constexpr std::string_view kWordStart = "\xE2\x96\x81";  // ▁

// `word` with its first letter lowercased, when it is a capital followed by lowercase letters
// only ("Zwei", "A"; not "ZWEI", nor English "I"); else empty.
std::string lowercase_opening(std::string_view word) {
  size_t length = 0;
  if (word.empty() || word == "I" || letter_at(word, 0, &length) != Letter::upper) return "";
  const std::string rest(word.substr(length));
  if (to_lowercase(rest) != rest) return "";
  return to_lowercase(word.substr(0, length)) + rest;
}

// The length of the word `text` opens with: up to a space or ASCII punctuation but '-' and '\''.
size_t word_length(std::string_view text) {
  size_t end = 0;
  for (; end < text.size(); ++end) {
    const char c = text[end];
    const bool ascii_mark = static_cast<unsigned char>(c) < 0x80 && !is_ascii_letter(c) && !(c >= '0' && c <= '9');
    if (ascii_mark && c != '-' && c != '\'') break;
  }
  return end;
}

}  // namespace

bool opens_in_lowercase(const std::vector<int>& source_ids, const Tokenizer& source) {
  for (const int id : source_ids) {
    const std::string whole = source.id_to_piece(id);
    std::string_view piece = whole;
    if (piece.substr(0, kWordStart.size()) == kWordStart) piece.remove_prefix(kWordStart.size());
    if (piece.empty()) continue;
    return first_letter(piece) == Letter::lower;
  }
  return false;
}

void open_in_lowercase(std::vector<SearchHypothesis>& hypotheses, const Tokenizer& target) {
  for (SearchHypothesis& h : hypotheses) {
    if (h.ids.empty()) continue;
    const std::string first = target.id_to_piece(h.ids[0]);
    if (!opens_word(first)) continue;
    if (h.ids.size() > 1) {  // one piece is the whole word: the next opens another or is no letter
      const std::string next = target.id_to_piece(h.ids[1]);
      if (!opens_word(next) && first_letter(next) != Letter::none) continue;
    }
    const std::string lowered = lowercase_opening(std::string_view(first).substr(kWordStart.size()));
    if (lowered.empty()) continue;
    const int id = target.piece_to_id(std::string(kWordStart) + lowered);
    if (id != target.unk_id()) h.ids[0] = id;
  }
  // The beam may hold the same words in both cases ("Zwei Hunde …" and "zwei Hunde …"): the
  // better of them stays, the other is dropped.
  std::vector<SearchHypothesis> distinct;
  for (SearchHypothesis& h : hypotheses) {
    const bool copy = std::any_of(distinct.begin(), distinct.end(), [&](const SearchHypothesis& kept) { return kept.ids == h.ids; });
    if (!copy) distinct.push_back(std::move(h));
  }
  hypotheses = std::move(distinct);
}

std::string opened_in_lowercase(std::string_view text, const Tokenizer& target) {
  const size_t length = word_length(text);
  const std::string lowered = lowercase_opening(text.substr(0, length));
  if (lowered.empty() || target.piece_to_id(std::string(kWordStart) + lowered) == target.unk_id()) return std::string(text);
  return lowered + std::string(text.substr(length));
}

}  // namespace attend
