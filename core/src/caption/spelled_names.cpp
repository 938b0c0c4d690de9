#include "caption/spelled_names.h"

#include <algorithm>
#include <string>
#include <utility>

#include "caption/calendar_names.h"
#include "text/ascii.h"
#include "text/false_break.h"
#include "caption/function_words.h"
#include "text/letter_case.h"
#include "text/words.h"

namespace attend {
namespace {

// A word the vocabulary spells: at least kManyPieces pieces, or two of a word it does not know in
// lowercase, of at most kMaxCharactersPerPiece characters on average. docs/alignment.md measures
// the rule on Multi30k val.
constexpr size_t kManyPieces = 3;
constexpr size_t kMaxCharactersPerPiece = 2;

bool ends_sentence(char c) { return c == '.' || c == '!' || c == '?' || c == ':'; }

size_t characters(std::string_view text, size_t begin, size_t end) {
  size_t n = 0;
  for (size_t i = begin; i < end; ++i) n += (static_cast<unsigned char>(text[i]) & 0xC0) != 0x80;
  return n;
}

// The longest of the word's parts between apostrophes (' or ’), the first of equals: "I" of "I'm",
// "Tyson" of "Tyson's".
ByteRange longest_part(std::string_view text, ByteRange word) {
  ByteRange longest{word.begin, word.begin}, part{word.begin, word.begin};
  for (size_t at = word.begin;; ) {
    const size_t apostrophe = at < word.end ? apostrophe_at(text, at) : 0;
    if (at < word.end && apostrophe == 0) {
      ++at;
      continue;
    }
    part.end = at;
    if (characters(text, part.begin, part.end) > characters(text, longest.begin, longest.end)) longest = part;
    if (at == word.end) return longest;
    at += apostrophe;
    part.begin = at;
  }
}

// Letters one by one between dots ("J.P", "E"): initials, part of a name.
bool initials(std::string_view word) {
  for (size_t i = 0; i < word.size(); i += 2) {
    if (word[i] == '.' || (i + 1 < word.size() && word[i + 1] != '.')) return false;
  }
  return true;
}

// Two or more capitals A-Z and nothing else ("IBM", "NASA"), not a word the vocabulary knows in
// lowercase ("SO", "NO": shouted; text/letter_case.h lowercases such words of three letters or
// more before this): an acronym, never a capitalised common word, so neither a sentence start nor
// a text that capitalises its nouns hides it.
bool acronym(std::string_view word, const KnowsLowercase& knows) {
  return word.size() >= 2 && std::all_of(word.begin(), word.end(), [](char c) { return c >= 'A' && c <= 'Z'; }) &&
         !knows(word);
}

// A capital A-Z right after a lowercase a-z ("iPhone", "eBay", "McDonald's"): a brand or a name,
// never a common word, wherever it stands. Not German's gender-inclusive ending ("LehrerInnen",
// "StudentIn"), a common word.
bool inner_capital(std::string_view word) {
  for (size_t i = 1; i < word.size(); ++i) {
    if (word[i] < 'A' || word[i] > 'Z' || word[i - 1] < 'a' || word[i - 1] > 'z') continue;
    const std::string_view rest = word.substr(i);
    if (rest != "In" && rest != "Innen") return true;
  }
  return false;
}

// Where a name with an inner capital begins in `part`: after a French elision ("l'iPhone",
// "d'eBay"), whose letters before the apostrophe hold no inner capital ("McDonald's" begins at 0).
size_t after_elision(std::string_view part) {
  for (size_t at = 0; at < part.size(); ++at) {
    if (const size_t apostrophe = apostrophe_at(part, at)) {
      return inner_capital(part.substr(0, at)) ? 0 : at + apostrophe;
    }
  }
  return 0;
}

// Pieces overlapping text[begin, end). Words come in text order, and so do tokens: *next is the
// first token that may still overlap this word or a later one.
size_t pieces_within(const std::vector<TokenSpan>& tokens, size_t begin, size_t end, size_t* next) {
  while (*next < tokens.size() && tokens[*next].end <= begin) ++*next;
  size_t n = 0;
  for (size_t t = *next; t < tokens.size() && tokens[t].begin < end; ++t) n += tokens[t].end > begin;
  return n;
}

}  // namespace

KnowsLowercase knows_lowercase(const Tokenizer& tokenizer) {
  return [&tokenizer](std::string_view word) {
    return tokenizer.piece_to_id("\xE2\x96\x81" + to_lowercase(word)) != tokenizer.unk_id();  // ▁
  };
}

std::vector<ByteRange> spelled_names(std::string_view text, const std::vector<TokenSpan>& tokens,
                                     const KnowsLowercase& knows, Language language) {
  std::vector<ByteRange> names, anywhere;  // anywhere: names wherever they stand (acronyms, inner capitals, calendar)
  std::vector<bool> in_two_pieces;  // of each name
  size_t known_capitalised = 0, next_token = 0;
  bool sentence_start = true;  // the next word begins a sentence
  for (ByteRange word : words_between_spaces(text)) {
    const size_t end = word.end;  // punctuation included
    const bool begins_sentence = sentence_start;
    // "Mr.", "Dr.", "J.P.": a title or initials, whose dot ends no sentence (text/false_break.h).
    const bool abbreviation = text[end - 1] == '.' && is_false_break(text.substr(0, end), text.substr(end), "");
    sentence_start = ends_sentence(text[end - 1]) && !abbreviation;
    while (word.begin < word.end && is_ascii_punctuation(text[word.begin])) ++word.begin;
    while (word.end > word.begin && is_ascii_punctuation(text[word.end - 1])) --word.end;
    if (word.begin == word.end) continue;
    if (inner_capital(slice(text, word))) {  // its parts between hyphens: "FedEx" of "FedEx-Fahrer"
      for (size_t begin = word.begin; begin < word.end;) {
        const size_t end = std::min(word.end, text.find('-', begin));
        const ByteRange part{begin + after_elision(text.substr(begin, end - begin)), end};
        if (inner_capital(slice(text, part)) && pieces_within(tokens, part.begin, end, &next_token) >= 2) {
          anywhere.push_back(part);
        }
        begin = end + 1;
      }
      continue;
    }
    const size_t pieces = pieces_within(tokens, word.begin, word.end, &next_token);
    // A month or weekday the vocabulary spells (caption/calendar_names.h) passes anywhere, German
    // and French text included, in two pieces not at a sentence start ("May I …?", "March on!").
    const ByteRange stem = longest_part(text, word);  // "Monday" of "Monday's"
    // French capitalised only where a French sentence opens, in two pieces too ("Mardi, …").
    const bool french_opening = begins_sentence && language == Language::french &&
                                !is_calendar_name(slice(text, stem), false) && is_calendar_name(slice(text, stem), true);
    if ((french_opening || is_calendar_name(slice(text, stem), false)) &&
        (pieces >= kManyPieces || (pieces == 2 && (!begins_sentence || french_opening)))) {
      anywhere.push_back(word);
      continue;
    }
    if (text[word.begin] < 'A' || text[word.begin] > 'Z') continue;
    if (acronym(slice(text, word), knows)) {
      if (pieces >= 2) {
        anywhere.push_back(word);
      } else if (!begins_sentence) {
        ++known_capitalised;  // "BMX"
      }
      continue;
    }
    if (begins_sentence) continue;
    if (abbreviation && !initials(slice(text, word))) continue;  // a title
    const bool known_stem = pieces_within(tokens, stem.begin, stem.end, &next_token) < 2;  // "I'm", "It's"
    const bool short_pieces = characters(text, word.begin, word.end) <= kMaxCharactersPerPiece * pieces;
    const bool two = pieces == 2 && !knows(slice(text, word));
    if (short_pieces && !known_stem && (pieces >= kManyPieces || two)) {
      // Initials keep their dot ("the U.S. team") but the text's last, which the model reads as its full stop.
      names.push_back(abbreviation && !ends_text(text, end) ? ByteRange{word.begin, end} : word);
      in_two_pieces.push_back(two);
    } else if (slice(text, stem) != "I") {
      ++known_capitalised;  // not the pronoun "I" ("I'm"), capitalised in any English sentence
    }
  }
  if (known_capitalised > 0) {  // then names in two pieces count as known words (German "Reh", "Witz")
    std::vector<ByteRange> many;
    for (size_t k = 0; k < names.size(); ++k) {
      if (in_two_pieces[k]) {
        ++known_capitalised;
      } else {
        many.push_back(names[k]);
      }
    }
    names = std::move(many);
  }
  if (known_capitalised > names.size()) names.clear();
  names.insert(names.end(), anywhere.begin(), anywhere.end());
  std::sort(names.begin(), names.end(), [](const ByteRange& a, const ByteRange& b) { return a.begin < b.begin; });
  return names;
}

}  // namespace attend
