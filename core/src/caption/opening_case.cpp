#include "caption/opening_case.h"

#include <algorithm>
#include <iterator>

#include "tokenizer/pieces.h"
#include "text/ascii.h"
#include "text/letter_case.h"
#include "text/letters.h"

namespace attend {
namespace {


// German words besides its function words (caption/function_words.h) that open a sentence and are
// no nouns: numbers and question words.
constexpr std::string_view kGermanLowercase[] = {"zwei", "drei", "vier", "fünf", "sechs", "sieben", "acht", "neun",
                                                 "zehn", "elf",  "zwölf", "wie",  "was",   "wo",     "wer",  "warum",
                                                 "wann", "welche", "welcher", "welches", "viele", "einige", "alle"};

// `word` with its first letter lowercased, when it is a capital followed by lowercase letters
// only ("Zwei", "A"; not "ZWEI", nor English "I"); else empty.
std::string lowercase_opening(std::string_view word) {
  size_t length = 0;
  if (word.empty() || word == "I" || letter_at(word, 0, &length) != Letter::upper) return "";
  const std::string rest(word.substr(length));
  if (to_lowercase(rest) != rest) return "";
  return to_lowercase(word.substr(0, length)) + rest;
}

// Whether `language` writes `lowered` (a word in lowercase) so inside a sentence, `target`
// holding it as one piece.
bool written_in_lowercase(const std::string& lowered, const Tokenizer& target, Language language) {
  if (lowered.empty() || !knows_whole_word(target)(lowered)) return false;
  if (language == Language::english || language == Language::french) return true;
  return is_function_word(lowered, Language::german) ||
         std::find(std::begin(kGermanLowercase), std::end(kGermanLowercase), lowered) != std::end(kGermanLowercase);
}

bool is_word_joiner(std::string_view piece) { return piece == "-" || piece == "'" || piece == "\xE2\x80\x99"; }

// The length of the word `text` opens with: up to a space or ASCII punctuation.
size_t word_length(std::string_view text) {
  size_t end = 0;
  while (end < text.size() && (static_cast<unsigned char>(text[end]) >= 0x80 || is_ascii_letter(text[end]) ||
                               (text[end] >= '0' && text[end] <= '9'))) {
    ++end;
  }
  return end;
}

}  // namespace

bool opens_in_lowercase(const std::vector<int>& source_ids, const Tokenizer& source) {
  for (const int id : source_ids) {
    const std::string whole = source.id_to_piece(id);
    const std::string_view piece = without_word_start(whole);
    if (piece.empty()) continue;
    return first_letter(piece) == Letter::lower;
  }
  return false;
}

void open_in_lowercase(std::vector<Hypothesis>& hypotheses, const Tokenizer& target, Language language) {
  for (Hypothesis& h : hypotheses) {
    if (h.ids.empty()) continue;
    const std::string first = target.id_to_piece(h.ids[0]);
    if (!opens_word(first)) continue;
    if (h.ids.size() > 1) {  // one piece is the whole word: the next opens another or is punctuation
      const std::string next = target.id_to_piece(h.ids[1]);
      if (!opens_word(next) && (first_letter(next) != Letter::none || is_word_joiner(next))) continue;
    }
    const std::string lowered = lowercase_opening(without_word_start(first));
    if (written_in_lowercase(lowered, target, language)) h.ids[0] = target.piece_to_id(std::string(kWordStart) + lowered);
  }
  // The beam may hold the same words in both cases ("Zwei Hunde …" and "zwei Hunde …"): the
  // better of them stays, the other is dropped.
  std::vector<Hypothesis> distinct;
  for (Hypothesis& h : hypotheses) {
    const bool copy = std::any_of(distinct.begin(), distinct.end(), [&](const Hypothesis& kept) { return kept.ids == h.ids; });
    if (!copy) distinct.push_back(std::move(h));
  }
  hypotheses = std::move(distinct);
}

std::string opened_in_lowercase(std::string_view text, const Tokenizer& target, Language language) {
  const size_t length = word_length(text);
  if (length < text.size() && (text[length] == '-' || text[length] == '\'')) return std::string(text);  // "Zwei-Personen"
  const std::string lowered = lowercase_opening(text.substr(0, length));
  if (!written_in_lowercase(lowered, target, language)) return std::string(text);
  return lowered + std::string(text.substr(length));
}

}  // namespace attend
