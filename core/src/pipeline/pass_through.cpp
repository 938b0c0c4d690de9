#include "pipeline/pass_through.h"

#include <algorithm>
#include <optional>

#include "caption/calendar_names.h"
#include "caption/function_words.h"
#include "caption/number_words.h"
#include "caption/quotations.h"
#include "caption/spelled_names.h"
#include "caption/titled_names.h"
#include "caption/titles.h"
#include "pipeline/alignment.h"
#include "pipeline/web_addresses.h"
#include "text/ascii.h"
#include "text/emoticons.h"
#include "text/faces.h"
#include "text/letter_case.h"
#include "text/letters.h"

namespace attend {
namespace {

// Ends a span widening stops at: whitespace and ASCII punctuation (text is valid UTF-8, so
// these bytes are never inside a longer character).
bool stops_span(char c) { return is_ascii_space(c) || is_ascii_punctuation(c); }

bool closes(char open, char close) {
  return (open == '(' && close == ')') || (open == '[' && close == ']') || (open == '{' && close == '}') ||
         (open == '"' && close == '"') || (open == '\'' && close == '\'');
}

// Numbers that pass through are at least this long, unless a sign goes with them. The shipped
// models mangle them ("512" -> "fünf2", "2000" -> "zwei") but translate most single digits ("3
// dogs" -> "drei Hunden"); docs/alignment.md measures 1 and 2.
constexpr size_t kMinNumberDigits = 2;

// Currency signs before a number ("$12.99", "€6"), which go with it.
constexpr std::string_view kCurrencySigns[] = {"$", "\xe2\x82\xac", "\xc2\xa3", "\xc2\xa5"};  // $ € £ ¥

// The length in bytes of the sign that goes with the number starting at `at`, or 0: a currency
// sign or "#" right before it ("€6", "#1"), and a minus or plus that opens a word ("-5°C", "+49 30
// 1234"), not a hyphen ("5-7" is one number, "x-1" a name's).
size_t sign_before(std::string_view text, size_t at) {
  if (at == 0) return 0;
  for (std::string_view sign : kCurrencySigns) {
    if (at >= sign.size() && text.substr(at - sign.size(), sign.size()) == sign) return sign.size();
  }
  const char sign = text[at - 1];
  if (sign == '#') return 1;
  const bool opens_word = at == 1 || is_ascii_space(text[at - 2]) || text[at - 2] == '(';
  return (sign == '-' || sign == '+') && opens_word ? 1 : 0;
}

// Whether text[at] goes on a number: a digit, or one of . , : - / with a digit after it.
bool continues_number(std::string_view text, size_t at) {
  const bool separator = std::string_view(".,:-/").find(text[at]) != std::string_view::npos;
  return is_ascii_digit(text[at]) || (separator && at + 1 < text.size() && is_ascii_digit(text[at + 1]));
}

bool starts_character(char c) { return (static_cast<unsigned char>(c) & 0xC0) != 0x80; }

// Non-whitespace characters (code points) of text[begin, end).
size_t visible_characters(std::string_view text, size_t begin, size_t end) {
  size_t n = 0;
  for (size_t i = begin; i < end; ++i) n += starts_character(text[i]) && !is_ascii_space(text[i]);
  return n;
}

bool is_punctuation_piece(const std::string& piece) { return std::all_of(piece.begin(), piece.end(), is_ascii_punctuation); }

// The end of `word` without its trailing pieces of ASCII punctuation only: "▁in" "." ends at ".".
int end_before_punctuation(const std::vector<std::string>& pieces, const WordSpan& word) {
  int end = word.end;
  while (end - 1 > word.begin && is_punctuation_piece(pieces[end - 1])) --end;
  return end;
}

// The first of `pieces`' closing run of ASCII punctuation pieces (the sentence's final mark); the
// number of pieces when there is none.
int final_punctuation_begin(const std::vector<std::string>& pieces) {
  int begin = static_cast<int>(pieces.size());
  while (begin > 0 && is_punctuation_piece(pieces[static_cast<size_t>(begin) - 1])) --begin;
  return begin;
}

// Whether text's last word is single ASCII letters with dots between them ("5 p.m", "the U.S"):
// initials or a clock suffix whose own last dot was the text's full stop.
bool ends_in_dotted_letters(std::string_view text) {
  const std::string_view word = text.substr(text.find_last_of(' ') + 1);
  if (word.size() < 3 || word.size() % 2 == 0) return false;
  for (size_t i = 0; i < word.size(); ++i) {
    if (i % 2 == 0 ? !is_ascii_letter(word[i]) : word[i] != '.') return false;
  }
  return true;
}

// Whether `text` ends with a dot, or with a dot, "!" or "?" inside a closing quotation mark ("Stop!“").
bool ends_sentence_itself(std::string_view text) {
  if (!text.empty() && text.back() == '.') return true;
  const size_t close = closing_mark_length(text);
  if (close == 0) return false;
  std::string_view inside = text.substr(0, text.size() - close);
  while (space_before(inside, inside.size()) > 0) inside.remove_suffix(space_before(inside, inside.size()));  // « … ! »
  return !inside.empty() && (inside.back() == '.' || inside.back() == '!' || inside.back() == '?');
}

// The word's pieces joined, lowercased, without its trailing punctuation ("▁Someone" "." -> "▁someone").
std::string bare_word(const std::vector<std::string>& pieces, const WordSpan& word) {
  std::string text;
  for (int piece = word.begin; piece < end_before_punctuation(pieces, word); ++piece) text += pieces[static_cast<size_t>(piece)];
  return to_lowercase(text);
}

// A piece or word of pieces without the "▁" (3 bytes) that opens a word.
std::string without_word_mark(const std::string& piece) { return opens_word(piece) ? piece.substr(3) : piece; }

// The translation's last word before target piece `piece`, as bare_word writes it without its "▁";
// empty at the translation's start.
std::string target_word_before(const std::vector<std::string>& target_pieces, const std::vector<WordSpan>& target_words,
                               int piece) {
  std::string before;
  for (const WordSpan& word : target_words) {
    if (word.end <= piece) before = without_word_mark(bare_word(target_pieces, word));
  }
  return before;
}

// Whether nothing but a lone "▁" piece (before punctuation: "Mardi, …" read as "▁ , …") is
// before the span in what the model read.
bool opens_source(const PassThrough& span, const std::vector<std::string>& source_pieces) {
  return span.after_piece < 0 || (span.after_piece == 0 && source_pieces.at(0) == "\xE2\x96\x81");
}

// The source word before a span, lowercased, without its punctuation; empty at the sentence's start.
std::string source_word_before(const PassThrough& span, const std::vector<std::string>& source_pieces,
                               const std::vector<WordSpan>& source_words) {
  for (const WordSpan& word : source_words) {
    if (word.begin <= span.after_piece && span.after_piece < word.end) return without_word_mark(bare_word(source_pieces, word));
  }
  return "";
}

// A span that is one month or weekday, punctuation around it aside, in the translation's language
// (caption/calendar_names.h: "Saturday" -> "samedi", "Freitag" -> "Friday"), capitalised where it
// opens the translation ("Lundi"); a month that is a first name too only after a preposition of
// time ("in June"; "with April" stays). Any other span as written, and one of several words too
// ("June Carter").
std::string with_calendar_name(const std::string& span, std::string_view word_before, bool opens_french_sentence,
                               bool opens_translation, Language language) {
  const ByteRange core = without_punctuation(span, ByteRange{0, span.size()}, false);
  const std::string_view word = slice(span, core);
  if (word.find(' ') != std::string_view::npos || !is_calendar_name(word, opens_french_sentence) ||
      !reads_as_calendar_name(word, word_before)) {
    return span;
  }
  const std::string written = calendar_name_in(word, opens_french_sentence, language);
  return span.substr(0, core.begin) + (opens_translation && core.begin == 0 && written != word ? with_first_capital(written) : written) +
         span.substr(core.end);
}

// Whether `span` begins with a letter or digit (a word of the sentence, not an emoji or mark).
bool opens_with_word(std::string_view span) {
  size_t length = 0;
  return !span.empty() && (is_ascii_digit(span[0]) || letter_at(span, 0, &length) != Letter::none);
}

// The insertion of a span with a stand-in in place of the target word aligned with the stand-in's
// word (its trailing punctuation kept); none without a stand-in or such a word. When an earlier
// stand-in took that word, the nearest other word written the same takes its place: "Quelqu'un et
// quelqu'un" -> "Someone and someone", both aligned with the first (in either case, punctuation
// after it aside: "… with someone."). `replaced` marks the target words taken.
std::optional<Insertion> replacing_stand_in(const PassThrough& span, const std::vector<WordSpan>& source_words,
                                            const std::vector<WordSpan>& target_words,
                                            const std::vector<std::string>& target_pieces, const std::vector<int>& alignment,
                                            std::vector<bool>& replaced) {
  if (span.stand_in.empty()) return std::nullopt;
  for (size_t word = 0; word < source_words.size(); ++word) {
    // The word holding the stand-in's first piece (after a lone "▁" piece of its own: "▁ Q u el…").
    if (source_words[word].end <= span.after_piece + 1 || source_words[word].begin > span.after_piece + 1) continue;
    if (is_quotation_stand_in(span.stand_in)) {  // the quotation the model wrote for it
      const std::optional<QuotationPlace> place =
          place_quotation(span.text, target_pieces, target_words, std::max(alignment[word], 0), replaced);
      if (!place) return std::nullopt;
      return Insertion{place->text, place->begin, place->end};
    }
    if (alignment[word] < 0 || static_cast<size_t>(alignment[word]) >= target_words.size()) return std::nullopt;
    size_t chosen = static_cast<size_t>(alignment[word]);
    if (replaced[chosen]) {
      const std::string written = bare_word(target_pieces, target_words[chosen]);
      for (size_t distance = 1; distance < target_words.size() && replaced[chosen]; ++distance) {
        for (size_t other : {chosen + distance, chosen - distance}) {  // past the start wraps to a huge index
          if (other < target_words.size() && !replaced[other] &&
              bare_word(target_pieces, target_words[other]) == written) {
            chosen = other;
            break;
          }
        }
      }
    }
    replaced[chosen] = true;
    const WordSpan& target = target_words[chosen];
    return Insertion{span.text, target.begin, end_before_punctuation(target_pieces, target)};
  }
  return std::nullopt;
}

// The target piece a span that goes before the next word (PassThrough::before_next_word) is
// inserted at: the first of the target word aligned with the source word after it; none for other
// spans, or when no word follows or it aligns with none.
std::optional<int> before_next_word(const PassThrough& span, const std::vector<WordSpan>& source_words,
                                    const std::vector<WordSpan>& target_words, const std::vector<int>& alignment) {
  if (!span.before_next_word) return std::nullopt;
  for (size_t word = 0; word < source_words.size(); ++word) {
    if (source_words[word].begin <= span.after_piece) continue;
    if (alignment[word] < 0 || static_cast<size_t>(alignment[word]) >= target_words.size()) return std::nullopt;
    return target_words[static_cast<size_t>(alignment[word])].begin;
  }
  return std::nullopt;
}

// Quotation marks `open` and `close` placed around the translation of the words they quoted: when
// the translation turned them around (en-fr "street clothes" -> "tenue" … "rue": `close` after
// "tenue", `open` before "rue"), around the target words from the one `close` followed to the one
// `open` preceded ("\"tenue de rue\"").
void around_words(Insertion& open, Insertion& close, const std::vector<std::string>& target_pieces,
                  const std::vector<WordSpan>& target_words) {
  if (close.before_piece > open.before_piece) return;  // equal: close after the word before open's
  int first = close.before_piece, last = open.before_piece;
  for (const WordSpan& word : target_words) {
    if (word.begin < close.before_piece && close.before_piece <= word.end) first = word.begin;
    if (word.begin == open.before_piece) last = end_before_punctuation(target_pieces, word);
  }
  open.before_piece = first;
  close.before_piece = last;
}

// Numbers as any model may write them wrong, whatever its languages: ASCII digits with single . , : - or /
// between them, two or more characters, or with a currency sign or # before them or a minus or
// plus opening a word ("$5", "-5").
std::vector<ByteRange> plain_numbers(std::string_view text) {
  std::vector<ByteRange> runs;
  for (size_t begin = 0; begin < text.size(); ++begin) {
    if (!is_ascii_digit(text[begin])) continue;
    size_t end = begin + 1;
    while (end < text.size() && continues_number(text, end)) ++end;
    const size_t sign = sign_before(text, begin);
    if (end - begin >= kMinNumberDigits || sign > 0) runs.push_back(ByteRange{begin - sign, end});
    begin = end - 1;
  }
  return runs;
}

}  // namespace

bool mostly_unknown(std::string_view text, const std::vector<TokenSpan>& tokens, int unk_id) {
  size_t unknown = 0;
  for (const TokenSpan& token : tokens) {
    if (token.id == unk_id) unknown += visible_characters(text, token.begin, token.end);
  }
  return 2 * unknown > visible_characters(text, 0, text.size());
}

std::vector<ByteRange> pass_through_spans(std::string_view text, const std::vector<TokenSpan>& tokens, int unk_id,
                                          const KnowsLowercase& knows, bool caption_rules, LanguagePair languages) {
  std::vector<ByteRange> seeds = plain_numbers(text);
  if (caption_rules) {
    for (const ByteRange& name : spelled_names(text, tokens, knows, languages.source)) seeds.push_back(name);
    for (const ByteRange& name : titled_names(text, languages.source)) seeds.push_back(name);
    for (const ByteRange& number : numbers_after_number_words(text)) seeds.push_back(number);
  }
  for (const ByteRange& address : web_addresses(text)) seeds.push_back(address);
  for (const ByteRange& face : emoticons(text)) seeds.push_back(face);
  for (const TokenSpan& token : tokens) {
    if (token.id == unk_id) seeds.push_back(ByteRange{token.begin, token.end});
  }
  std::sort(seeds.begin(), seeds.end(), [](const ByteRange& a, const ByteRange& b) { return a.begin < b.begin; });
  const std::vector<ByteRange> quoted = caption_rules ? quotations(text) : std::vector<ByteRange>{};
  const auto overlaps = [](const ByteRange& a, const ByteRange& b) { return a.begin < b.end && b.begin < a.end; };
  std::vector<ByteRange> spans;
  for (ByteRange span : seeds) {
    while (span.begin < span.end && is_ascii_space(text[span.begin])) ++span.begin;  // an unknown piece may hold its ▁
    while (span.begin > 0 && !stops_span(text[span.begin - 1])) --span.begin;
    while (span.end < text.size() && !stops_span(text[span.end])) ++span.end;
    // A quotation passes whole and alone (its stand-in is for it only): what it holds goes with it.
    if (std::any_of(quoted.begin(), quoted.end(), [&](const ByteRange& quotation) { return overlaps(span, quotation); })) {
      continue;
    }
    if (span.begin > 0 && span.end < text.size() && closes(text[span.begin - 1], text[span.end])) {
      --span.begin;  // "(小明)": the brackets go along, not left empty for the model
      ++span.end;
    }
    // One span across whitespace and ASCII punctuation ("مرحبا بكم", "555-0199", "10 - 20").
    if (!spans.empty() &&
        std::all_of(text.begin() + std::min(spans.back().end, span.begin), text.begin() + span.begin, stops_span)) {
      spans.back().end = std::max(spans.back().end, span.end);
    } else {
      spans.push_back(span);
    }
  }
  const auto insert = [&](const ByteRange& added) {
    spans.insert(std::find_if(spans.begin(), spans.end(), [&](const ByteRange& span) { return span.begin > added.begin; }), added);
  };
  for (const ByteRange& quotation : quoted) insert(quotation);
  // The marks of quotations the models translate, alone ("street clothes" read bare), both where
  // no span holds either ("“size 12”": the 12 took the ” along).
  const std::vector<ByteRange> marks = caption_rules ? word_quotation_marks(text) : std::vector<ByteRange>{};
  for (size_t pair = 0; pair + 1 < marks.size(); pair += 2) {
    const auto held = [&](const ByteRange& mark) {
      return std::any_of(spans.begin(), spans.end(), [&](const ByteRange& span) { return overlaps(span, mark); });
    };
    if (held(marks[pair]) || held(marks[pair + 1])) continue;
    insert(marks[pair]);
    insert(marks[pair + 1]);
  }
  return spans;
}

CutText cut_spans(std::string_view text, const std::vector<ByteRange>& spans, const std::vector<std::string>& stand_ins) {
  CutText cut;
  size_t kept_from = 0;  // text[kept_from, span.begin) is kept
  for (size_t k = 0; k < spans.size(); ++k) {
    const ByteRange& span = spans[k];
    if (k < stand_ins.size() && !stand_ins[k].empty()) {
      cut.text.append(text.substr(kept_from, span.begin - kept_from));
      cut.cut_at.push_back(cut.text.size());
      cut.text.append(stand_ins[k]);
      kept_from = span.end;
      continue;
    }
    size_t begin = span.begin, end = span.end;
    // Glued to the word after it (an opening quotation mark: "in "street"), the whitespace before stays.
    const bool glued = end < text.size() && !is_ascii_space(text[end]) && !is_ascii_punctuation(text[end]);
    while (!glued && begin > kept_from && is_ascii_space(text[begin - 1])) --begin;
    if (begin == 0) {
      while (end < text.size() && is_ascii_space(text[end])) ++end;
    }
    cut.text.append(text.substr(kept_from, begin - kept_from));
    cut.cut_at.push_back(cut.text.size());
    kept_from = end;
  }
  cut.text.append(text.substr(kept_from));
  // The word a span of words opening the text leaves first takes the text's capital, as the models
  // read sentences ("On Mondays a man plays …" -> "A man plays …"; read as "a man" en-fr wrote
  // "Par un homme joue …").
  const size_t first = text.find_first_not_of(" \t\n\r\f\v");
  const bool stand_in = !stand_ins.empty() && !stand_ins[0].empty();
  if (!spans.empty() && !stand_in && first == spans[0].begin && opens_with_word(slice(text, spans[0])) &&
      !(text[first] >= 'a' && text[first] <= 'z') && !cut.text.empty() && cut.text[0] >= 'a' && cut.text[0] <= 'z') {
    cut.text[0] = static_cast<char>(cut.text[0] - 'a' + 'A');
  }
  return cut;
}

std::string stand_in_for(std::string_view text, ByteRange span, Language language) {
  const std::string_view spanned = slice(text, span);
  const std::vector<ByteRange> quoted = quotations(text);
  if (std::any_of(quoted.begin(), quoted.end(),
                  [&](const ByteRange& quotation) { return quotation.begin == span.begin && quotation.end == span.end; })) {
    return quotation_stand_in(spanned);
  }
  if (std::all_of(spanned.begin(), spanned.end(), is_ascii_digit) && follows_number_word(text, span.begin)) {
    return number_stand_in(text);
  }
  const std::vector<ByteRange> names = titled_names(text, language);  // in the whole text
  const auto is_span = [&](const ByteRange& name) { return name.begin == span.begin && name.end == span.end; };
  if (std::none_of(names.begin(), names.end(), is_span)) return "";
  const bool opens = std::all_of(text.begin(), text.begin() + span.begin, is_ascii_space);
  switch (language) {
    case Language::english: return opens ? "Someone" : "someone";
    case Language::german: return opens ? "Jemand" : "jemand";
    case Language::french: return opens ? "Quelqu'un" : "quelqu'un";
    case Language::unknown: break;
  }
  return "";
}

PreparedSource prepare_with_pass_through(const Tokenizer& tokenizer, std::string_view given, std::string_view text,
                                         const std::vector<TokenSpan>& tokens, const std::vector<ByteRange>& spans,
                                         int eos_id, bool caption_rules, LanguagePair languages) {
  PreparedSource source;
  source.text = std::string(given);
  source.caption_rules = caption_rules;
  source.status = TranslationStatus::unreadable_script;
  if (mostly_unknown(text, tokens, tokenizer.unk_id())) return source;
  std::vector<std::string> stand_ins;
  for (const ByteRange& span : spans) stand_ins.push_back(caption_rules ? stand_in_for(text, span, languages.source) : std::string());
  const CutText cut = cut_spans(text, spans, stand_ins);
  const std::vector<TokenSpan> kept = tokenizer.encode_with_offsets(cut.text);
  source.status = contains_letter(cut.text) ? TranslationStatus::translated : TranslationStatus::passed_through;
  for (const TokenSpan& token : kept) source.ids.push_back(token.id);
  source.ids.push_back(eos_id);
  for (size_t k = 0; k < spans.size(); ++k) {
    int after_piece = -1;  // the last piece of the kept text before the cut
    while (after_piece + 1 < static_cast<int>(kept.size()) && kept[after_piece + 1].end <= cut.cut_at[k]) ++after_piece;
    const bool before_next_word = caption_rules && opens_quotation(text, spans[k]);
    source.pass_through.push_back(PassThrough{std::string(slice(given, spans[k])), after_piece, stand_ins[k], before_next_word});
  }
  return source;
}

std::vector<Insertion> place_pass_through(const PreparedSource& source, const std::vector<std::string>& source_pieces,
                                          const std::vector<std::string>& target_pieces, const std::vector<int>& alignment,
                                          LanguagePair languages, const std::function<bool(std::string_view)>& knows_word) {
  const std::vector<WordSpan> source_words = piece_words(source_pieces);
  const std::vector<WordSpan> target_words = piece_words(target_pieces);
  const bool rules = source.caption_rules;  // else each span is written as the source wrote it
  const Language source_language = languages.source, target_language = languages.target;
  // A span's titles before a name the translation's way ("Frau Müller" -> "Ms. Müller", "mit Herrn
  // Smith" after the translation's preposition); a quotation as written.
  const auto with_titles = [&](const PassThrough& span, const std::string& text, int before_piece) {
    if (!rules || is_quotation_stand_in(span.stand_in)) return text;
    return titles_in(text, source_language, target_language, target_word_before(target_pieces, target_words, before_piece));
  };
  std::vector<Insertion> insertions;
  std::vector<bool> replaced(target_words.size(), false);
  size_t open_mark = 0;  // 1 + the insertion of the quotation mark opened last; 0: none open
  for (const PassThrough& span : source.pass_through) {
    if (const std::optional<Insertion> replacing =
            replacing_stand_in(span, source_words, target_words, target_pieces, alignment, replaced)) {
      insertions.push_back(*replacing);
      insertions.back().text = with_titles(span, insertions.back().text, replacing->before_piece);
      continue;
    }
    int before_piece = static_cast<int>(target_pieces.size());  // no target word to align with: at the end
    if (const std::optional<int> next = before_next_word(span, source_words, target_words, alignment)) {
      before_piece = *next;
    } else if (!target_words.empty() && !source_words.empty()) {
      const bool opens = span.after_piece < 0;
      size_t word = 0;  // the source word holding the piece the span followed (opens: the first word)
      while (!opens && word + 1 < source_words.size() && source_words[word + 1].begin <= span.after_piece) ++word;
      const WordSpan& target = target_words[static_cast<size_t>(alignment[word])];
      before_piece = opens ? target.begin : end_before_punctuation(target_pieces, target);
    }
    const bool ends_source = span.after_piece + 1 == static_cast<int>(source_pieces.size());
    if (ends_source && ((!source_pieces.empty() && is_punctuation_piece(source_pieces.back())) || only_faces(span.text))) {
      before_piece = static_cast<int>(target_pieces.size());  // "... beach. 😀", "... glücklich. :)"
    }
    // "5 p.m" gave its last dot to the model as the full stop; placed inside the translation it
    // takes it back ("… um 5 p.m. vor einem Stand."), not at its end ("… um 5 p.m.").
    const bool lent_its_dot = span.after_piece + 2 == static_cast<int>(source_pieces.size()) && source_pieces.back() == "." &&
                              ends_in_dotted_letters(span.text);
    const bool inside = before_piece < final_punctuation_begin(target_pieces);
    if (rules && is_quotation_mark(span.text)) {  // around the translation of the words it quoted
      insertions.push_back(Insertion{quotation_mark_in(span.text, span.before_next_word, target_language), before_piece,
                                     0, !span.before_next_word, span.before_next_word});
      if (span.before_next_word) {
        open_mark = insertions.size();
      } else if (open_mark != 0) {
        around_words(insertions[open_mark - 1], insertions.back(), target_pieces, target_words);
        open_mark = 0;
      }
      continue;
    }
    // Into no translation (passed_through_text) only the span opening the source opens it.
    const bool opens_translation = before_piece == 0 && (!target_pieces.empty() || opens_source(span, source_pieces));
    const bool opens_french_sentence = opens_source(span, source_pieces) && source_language == Language::french;
    std::string text = rules ? with_calendar_name(span.text, source_word_before(span, source_pieces, source_words),
                                                  opens_french_sentence, opens_translation, target_language)
                             : span.text;
    if (lent_its_dot && inside && text == span.text) text += '.';  // not "… U.S einem Land."
    insertions.push_back(Insertion{with_titles(span, text, before_piece), before_piece});
    // A span of words opening the translation takes the capital of the model's first word
    // ("Montags Ein Mann" -> "Montags ein Mann"; a sentence after an emoji keeps it: "😀 Ein Mann").
    if (rules && before_piece == 0 && !target_words.empty() && opens_with_word(span.text)) {
      const std::string first = without_word_mark(bare_word(target_pieces, target_words[0]));
      const std::string bare = first.substr(0, first.find('\''));  // "l" of "L'homme"
      const bool formal_you = target_language == Language::german && bare == "sie";  // "Sie", not "sie"
      const bool common_word = (target_language == Language::english || target_language == Language::french) &&
                               knows_word && bare != "i" && knows_word(bare);
      insertions.back().lowers_next = (is_function_word(bare, target_language) && !formal_you) || common_word;
    }
  }
  std::stable_sort(insertions.begin(), insertions.end(),
                   [](const Insertion& a, const Insertion& b) { return a.before_piece < b.before_piece; });
  // "… from the U.S." ends the translation with the last span's own dot, not "… U.S..", and "… says
  // „Come on now.“" with its quotation's mark, not "… now.“.".
  const int last_piece = static_cast<int>(target_pieces.size()) - 1;
  if (!insertions.empty() && last_piece >= 0 && target_pieces.back() == "." &&
      std::max(insertions.back().before_piece, insertions.back().replaces_until) == last_piece &&
      ends_sentence_itself(insertions.back().text)) {
    insertions.back().replaces_until = last_piece + 1;
  }
  return insertions;
}

std::string insert_spans(const std::vector<int>& ids, const std::vector<std::string>& pieces,
                         const std::vector<Insertion>& insertions,
                         const std::function<std::string(const std::vector<int>&)>& decode) {
  std::string text;
  size_t decoded = 0;  // ids[0, decoded) are in text
  auto append_ids_up_to = [&](size_t end) {
    if (end <= decoded) return;  // none left, or inside what an insertion replaced
    if (!text.empty() && opens_word(pieces[decoded])) text += ' ';  // not before glued punctuation
    text += decode(std::vector<int>(ids.begin() + decoded, ids.begin() + end));
    decoded = end;
  };
  bool glued = false;  // the last insertion is glued to what follows it, and nothing followed yet
  bool lower = false;  // the last insertion lowers the next word, and nothing followed yet
  const auto append_glued_ids_up_to = [&](size_t end) {
    const size_t before = text.size();
    append_ids_up_to(end);
    if (text.size() == before) return;
    if (glued && text[before] == ' ') text.erase(before, 1);
    const size_t first = text[before] == ' ' ? before + 1 : before;
    size_t length = 0;
    if (lower && first < text.size() && letter_at(text, first, &length) == Letter::upper) {  // "Über" too
      text.replace(first, length, to_lowercase(text.substr(first, length)));
    }
    glued = lower = false;
  };
  for (const Insertion& insertion : insertions) {
    append_glued_ids_up_to(static_cast<size_t>(insertion.before_piece));
    if (!text.empty() && !insertion.glued_before && !glued) text += ' ';
    text += insertion.text;
    glued = insertion.glued_after;
    lower = insertion.lowers_next;
    decoded = std::max(decoded, static_cast<size_t>(std::max(insertion.replaces_until, 0)));
  }
  append_glued_ids_up_to(ids.size());
  return text;
}

std::optional<std::vector<ByteRange>> pass_through_ranges(std::string_view text, const std::vector<PassThrough>& spans) {
  std::vector<ByteRange> ranges;
  size_t from = 0;
  for (const PassThrough& span : spans) {
    const size_t at = text.find(span.text, from);
    if (at == std::string_view::npos) return std::nullopt;
    ranges.push_back(ByteRange{at, at + span.text.size()});
    from = at + span.text.size();
  }
  return ranges;
}

std::string passed_through_text(const PreparedSource& source, const Tokenizer& source_tokenizer,
                                const Tokenizer& target_tokenizer, LanguagePair languages) {
  if (!source.caption_rules) return source.text;  // the spans as written, the text between them kept
  const std::vector<std::string> source_pieces =
      source_tokenizer.pieces(std::vector<int>(source.ids.begin(), source.ids.end() - 1));  // no eos
  const std::vector<int> alignment(piece_words(source_pieces).size(), -1);  // no translation to align with
  // One insertion per span, in the spans' order: all go to the one place an empty translation has.
  const std::vector<Insertion> insertions =
      place_pass_through(source, source_pieces, {}, alignment, languages, knows_whole_word(target_tokenizer));
  const std::optional<std::vector<ByteRange>> ranges = pass_through_ranges(source.text, source.pass_through);
  if (!ranges) return source.text;  // not spans of this text: kept as it is
  std::string text;
  size_t from = 0;  // source.text[0, from) is written
  for (size_t k = 0; k < ranges->size(); ++k) {
    text.append(source.text, from, (*ranges)[k].begin - from);
    text += insertions[k].text;
    from = (*ranges)[k].end;
  }
  // "10 a.m." lent its last dot to the model as a full stop: the dot is the span's own, and goes
  // where the span is written otherwise ("Samstag, 10 Uhr", not "… 10 Uhr.").
  const std::string_view rest = std::string_view(source.text).substr(from);
  const bool lent_its_dot = rest == "." && ends_in_dotted_letters(source.pass_through.back().text) &&
                            insertions.back().text != source.pass_through.back().text;
  return text.append(lent_its_dot ? std::string_view() : rest);
}

void put_pass_through(const PreparedSource& source, Hypothesis& hypothesis, const AttentionMaps& maps,
                      const Tokenizer& target_tokenizer, LanguagePair languages) {
  const std::vector<std::string> source_pieces(maps.source_pieces.begin(), maps.source_pieces.end() - 1);  // no eos
  const std::vector<float> attention = alignment_attention(maps);  // [tgt_len][src_len]
  const std::vector<int> alignment = align_words(attention, maps.src_len, piece_words(source_pieces), piece_words(hypothesis.pieces));
  const std::vector<Insertion> insertions =
      place_pass_through(source, source_pieces, hypothesis.pieces, alignment, languages, knows_whole_word(target_tokenizer));
  hypothesis.text = insert_spans(hypothesis.ids, hypothesis.pieces, insertions,
                                 [&](const std::vector<int>& ids) { return target_tokenizer.decode(ids); });
  if (!source.caption_rules) return;  // where the spans go is the pipeline's, not a rewrite
  for (const Insertion& insertion : insertions) {
    const bool as_written = std::any_of(source.pass_through.begin(), source.pass_through.end(),
                                        [&](const PassThrough& span) { return span.text == insertion.text; });
    hypothesis.rewritten = hypothesis.rewritten || !as_written || insertion.replaces_until > insertion.before_piece ||
                           insertion.lowers_next;
  }
}

}  // namespace attend
