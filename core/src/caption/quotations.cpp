#include "caption/quotations.h"

#include <algorithm>
#include <array>
#include <cstdlib>

#include "text/ascii.h"
#include "text/letters.h"

namespace attend {
namespace {

// Opening and closing quotation marks, in UTF-8.
struct Marks {
  std::string_view open, close;
};
constexpr std::array<Marks, 5> kMarks = {{
    {"\"", "\""},
    {"\xe2\x80\x9c", "\xe2\x80\x9d"},  // “ ”
    {"\xe2\x80\x9e", "\xe2\x80\x9c"},  // „ “
    {"\xe2\x80\x9e", "\xe2\x80\x9d"},  // „ ”
    {"\xc2\xab", "\xc2\xbb"},          // « »
}};

constexpr size_t kMostWords = 12;

bool starts_with(std::string_view text, std::string_view prefix) { return text.substr(0, prefix.size()) == prefix; }


// `text` without the whitespace (and no-break spaces: « El Corazon ») around it.
std::string_view trimmed(std::string_view text) {
  while (!text.empty() && space_at(text, 0) > 0) text.remove_prefix(space_at(text, 0));
  while (!text.empty() && space_before(text, text.size()) > 0) text.remove_suffix(space_before(text, text.size()));
  return text;
}

// The marks `quotation` is between, when it is one.
std::optional<Marks> marks_of(std::string_view quotation) {
  for (const Marks& marks : kMarks) {
    if (quotation.size() > marks.open.size() + marks.close.size() && starts_with(quotation, marks.open) &&
        quotation.substr(quotation.size() - marks.close.size()) == marks.close) {
      return marks;
    }
  }
  return std::nullopt;
}

// A word's pieces joined, without the "▁" that opens it.
std::string word_text(const std::vector<std::string>& pieces, const WordSpan& word) {
  std::string text;
  for (int piece = word.begin; piece < word.end; ++piece) text += pieces[static_cast<size_t>(piece)];
  return std::string(without_word_start(text));
}

// The opening mark `text` starts with, or none.
std::optional<Marks> opening_mark(std::string_view text) {
  for (const Marks& marks : kMarks) {
    if (starts_with(text, marks.open)) return marks;
  }
  return std::nullopt;
}

// The piece of `word` holding a closing mark (after its first character when `first`: the word
// that opens the quotation), or -1.
int closing_piece(const std::vector<std::string>& pieces, const WordSpan& word, bool first) {
  for (int piece = word.begin; piece < word.end; ++piece) {
    std::string_view text = without_word_start(pieces[static_cast<size_t>(piece)]);
    if (first && piece == word.begin) {
      const std::optional<Marks> open = opening_mark(text);
      text.remove_prefix(open ? open->open.size() : 0);
    }
    for (const Marks& marks : kMarks) {
      if (text.find(marks.close) != std::string_view::npos) return piece;
    }
  }
  return -1;
}

// A pair of quotation marks and what they hold.
struct Quoted {
  ByteRange whole;            // marks included
  ByteRange open, close;      // the marks
  bool passes = false;        // a sign's text or a name (quotations()), else words the models translate
};

// The pairs of quotation marks of `text` with whitespace, a bracket or the text's edge outside
// them, holding 1 to kMostWords words and no opening mark of their kind. In text order.
std::vector<Quoted> quoted_in(std::string_view text) {
  std::vector<Quoted> found;
  for (size_t at = 0; at < text.size(); ++at) {
    if (at > 0 && space_before(text, at) == 0 && text[at - 1] != '(') continue;
    for (const Marks& marks : kMarks) {
      if (!starts_with(text.substr(at), marks.open)) continue;
      const size_t inside = at + marks.open.size();
      const size_t close = text.find(marks.close, inside);
      if (close == std::string_view::npos) continue;
      const size_t end = close + marks.close.size();
      if (end < text.size() && space_at(text, end) == 0 && !is_ascii_punctuation(text[end])) continue;  // "don"t
      const std::string_view content = trimmed(text.substr(inside, close - inside));
      if (content.empty() || content.find(marks.open) != std::string_view::npos) continue;
      const size_t words = words_between_spaces(content).size();
      if (words > kMostWords) continue;
      const bool passes = first_letter(content) == Letter::upper || is_ascii_digit(content[0]);
      found.push_back(Quoted{ByteRange{at, end}, ByteRange{at, inside}, ByteRange{close, end}, passes});
      at = end - 1;
      break;
    }
  }
  return found;
}

}  // namespace

std::vector<ByteRange> quotations(std::string_view text) {
  std::vector<ByteRange> found;
  for (const Quoted& quoted : quoted_in(text)) {
    if (quoted.passes) found.push_back(quoted.whole);
  }
  return found;
}

std::vector<ByteRange> word_quotation_marks(std::string_view text) {
  std::vector<ByteRange> marks;
  for (const Quoted& quoted : quoted_in(text)) {
    if (quoted.passes) continue;
    marks.push_back(quoted.open);
    marks.push_back(quoted.close);
  }
  return marks;
}

bool is_quotation_mark(std::string_view text) {
  return std::any_of(kMarks.begin(), kMarks.end(), [&](const Marks& marks) { return text == marks.open || text == marks.close; });
}

size_t closing_mark_length(std::string_view text) {
  for (const Marks& marks : kMarks) {
    if (text.size() >= marks.close.size() && text.substr(text.size() - marks.close.size()) == marks.close) {
      return marks.close.size();
    }
  }
  return 0;
}

bool opens_quotation(std::string_view text, ByteRange mark) {
  const std::vector<Quoted> quoted = quoted_in(text);
  return std::any_of(quoted.begin(), quoted.end(), [&](const Quoted& pair) {
    return !pair.passes && pair.open.begin == mark.begin && pair.open.end == mark.end;
  });
}

std::string quotation_mark_in(std::string_view mark, bool opening, Language language) {
  switch (language) {
    case Language::english:
    case Language::french: return "\"";
    case Language::german: return opening ? "\xe2\x80\x9e" : "\xe2\x80\x9c";  // „ “
    case Language::unknown: break;
  }
  return std::string(mark);
}

std::string quotation_stand_in(std::string_view quotation) {
  const std::optional<Marks> marks = marks_of(quotation);
  return marks ? std::string(marks->open) + "S" + std::string(marks->close) : "";
}

bool is_quotation_stand_in(std::string_view stand_in) {
  const std::optional<Marks> marks = marks_of(stand_in);
  return marks && stand_in.size() == marks->open.size() + 1 + marks->close.size() && stand_in[marks->open.size()] == 'S';
}

std::optional<QuotationPlace> place_quotation(std::string_view quotation, const std::vector<std::string>& target_pieces,
                                              const std::vector<WordSpan>& target_words, int near,
                                              std::vector<bool>& replaced) {
  const std::optional<Marks> source_marks = marks_of(quotation);
  if (!source_marks) return std::nullopt;
  const std::string_view content = trimmed(quotation.substr(
      source_marks->open.size(), quotation.size() - source_marks->open.size() - source_marks->close.size()));
  std::optional<QuotationPlace> best;
  int best_distance = 0, best_first = 0, best_last = 0;
  for (int first = 0; first < static_cast<int>(target_words.size()); ++first) {
    if (replaced[static_cast<size_t>(first)]) continue;
    const std::optional<Marks> open = opening_mark(word_text(target_pieces, target_words[static_cast<size_t>(first)]));
    if (!open) continue;
    int last = first, end = target_words[static_cast<size_t>(first)].end;
    for (int word = first; word < static_cast<int>(target_words.size()) && word - first < static_cast<int>(kMostWords); ++word) {
      const int piece = closing_piece(target_pieces, target_words[static_cast<size_t>(word)], word == first);
      if (piece < 0) continue;
      last = word;
      end = piece + 1;
      break;
    }
    const int distance = std::abs(first - near);
    if (best && distance >= best_distance) continue;
    best = QuotationPlace{target_words[static_cast<size_t>(first)].begin, end,
                          std::string(open->open) + std::string(content) + std::string(open->close)};
    best_distance = distance;
    best_first = first;
    best_last = last;
  }
  if (best) {
    for (int word = best_first; word <= best_last; ++word) replaced[static_cast<size_t>(word)] = true;
  }
  return best;
}

}  // namespace attend
