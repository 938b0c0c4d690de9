#include "pipeline/pass_through.h"

#include <algorithm>
#include <optional>

#include "pipeline/alignment.h"
#include "caption/quotations.h"
#include "caption/spelled_names.h"
#include "caption/titled_names.h"
#include "pipeline/web_addresses.h"
#include "text/ascii.h"
#include "caption/calendar_names.h"
#include "caption/clock_times.h"
#include "caption/currencies.h"
#include "text/emoticons.h"
#include "text/faces.h"
#include "caption/function_words.h"
#include "caption/german_ordinal.h"
#include "text/letter_case.h"
#include "text/letters.h"
#include "caption/numerals.h"
#include "caption/ordinals.h"
#include "caption/titles.h"

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

// The end of a clock suffix after a number ending at `at` ("5 p.m.", "10:30am", "8 A.M."): am or pm
// in either case, dotted or not, after at most one space, before no letter or digit; the text's
// last dot stays the sentence's full stop. Not German "am" ("um 8 am Bahnhof", "um 8 am besten"):
// undotted after a space, before a capitalised word or in text guessed German
// (caption/function_words.h). npos when there is none.
size_t clock_suffix_end(std::string_view text, size_t at) {
  const bool spaced = at < text.size() && text[at] == ' ';
  at += spaced;
  const auto letter = [&](size_t i, char lower) { return i < text.size() && (text[i] | 0x20) == lower; };
  if (!(letter(at, 'a') || letter(at, 'p'))) return std::string_view::npos;
  size_t end = at + 1;
  const bool dotted = end < text.size() && text[end] == '.';
  end += dotted;
  if (!letter(end, 'm')) return std::string_view::npos;
  ++end;
  if (dotted) {
    if (end >= text.size() || text[end] != '.') return std::string_view::npos;
    if (!ends_text(text, end + 1)) ++end;  // "p.m." in the sentence
  }
  if (end < text.size() && (is_ascii_letter(text[end]) || is_ascii_digit(text[end]))) return std::string_view::npos;
  if (spaced && !dotted && letter(at, 'a') &&
      (first_letter(text.substr(end + (end < text.size()))) == Letter::upper || guess_language(text) == Language::german)) {
    return std::string_view::npos;  // German "am Bahnhof", "um 8 am besten"
  }
  return end;
}

// The end of a French clock time's "h" after a number of one or two digits ending at `at` ("8 h 30",
// "14h30", "20 h"): an h after at most one space, then two digits after at most one space, before
// whitespace, ASCII punctuation or the end; without the minutes ("8h", "20 h") only in text
// guessed French (caption/function_words.h). fr-en read "à 8 h 30" as "8 8 30". npos when none.
size_t french_clock_end(std::string_view text, size_t begin, size_t at) {
  if (at - begin > 2) return std::string_view::npos;
  const auto space = [&](size_t i) { return i < text.size() && text[i] == ' ' ? i + 1 : i; };
  const auto ends_word = [&](size_t i) { return i == text.size() || stops_span(text[i]); };
  const size_t h = space(at);
  if (h >= text.size() || text[h] != 'h') return std::string_view::npos;
  const size_t minutes = space(h + 1);
  if (minutes + 2 <= text.size() && is_ascii_digit(text[minutes]) && is_ascii_digit(text[minutes + 1]) &&
      ends_word(minutes + 2)) {
    return minutes + 2;
  }
  return ends_word(h + 1) && guess_language(text) == Language::french ? h + 1 : std::string_view::npos;
}

// The end of a German clock time's "Uhr" after a number ending at `at` ("20 Uhr", "8.30 Uhr",
// "8:30 Uhr"; a range, "5-6 Uhr", "10:00-18:00 Uhr"): one space, then "Uhr" before whitespace,
// ASCII punctuation or the end. de-en read "um 20 Uhr" as "a 20 watch". npos when none.
size_t german_clock_end(std::string_view text, size_t begin, size_t at) {
  const bool range = text.substr(begin, at - begin).find('-') != std::string_view::npos;  // "5-6", "10:00-18:00"
  if (at - begin > (range ? 11 : 5)) return std::string_view::npos;
  constexpr std::string_view kUhr = " Uhr";
  const size_t end = at + kUhr.size();
  if (text.substr(at, kUhr.size()) != kUhr || (end < text.size() && !stops_span(text[end]))) return std::string_view::npos;
  return end;
}

// The length of the space at text[at] (text/words.h space_at) but a line break; 0 at the end.
size_t space_in_line(std::string_view text, size_t at) {
  return at < text.size() && text[at] != '\n' ? space_at(text, at) : 0;
}

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

// The end of a % or currency sign after the number ending at `at` and at most one space ("5%", "5 %",
// "4 €", "5€"), or `at` when there is none.
size_t unit_end(std::string_view text, size_t at) {
  const size_t space = space_in_line(text, at);
  if (text.substr(at + space, 1) == "%") return at + space + 1;
  for (std::string_view sign : kCurrencySigns) {
    if (text.substr(at + space, sign.size()) == sign) return at + space + sign.size();
  }
  return at;
}

// Units of measure after a number ("5 km", "3kg", "30 °C"); longer ones first ("km/h" before "km").
constexpr std::string_view kUnits[] = {"km/h", "mph", "min", "km", "cm", "mm", "kg", "mg", "ml", "GB", "MB", "TB", "kB",
                                       "\xc2\xb0" "C", "\xc2\xb0" "F", "\xc2\xb0", "m", "g", "l"};  // °C °F °

// Whether `word` is a unit of measure, a % or a currency sign, perhaps with punctuation after it
// ("km,", "€."): a number's part in a span ("5 km", "12,99 €").
bool is_unit_or_sign(std::string_view word) {
  while (!word.empty() && is_ascii_punctuation(word.back()) && word != "%") word.remove_suffix(1);
  return word == "%" || std::find(std::begin(kUnits), std::end(kUnits), word) != std::end(kUnits) ||
         std::find(std::begin(kCurrencySigns), std::end(kCurrencySigns), word) != std::end(kCurrencySigns);
}

// The end of a unit of measure after the number ending at `at` and at most one space, before
// whitespace, the end or punctuation other than an apostrophe ("5 km", "3kg.", "2 l,", not "5
// l'eau", "5 mice", "2 gifts"); or `at` when there is none. The models read "He ran 5 km." as
// "Fünf Krankenschwestern".
size_t measure_end(std::string_view text, size_t at) {
  const size_t space = space_in_line(text, at);
  for (std::string_view unit : kUnits) {
    const size_t end = at + space + unit.size();
    if (text.substr(at + space, unit.size()) != unit) continue;
    if (end == text.size() || (stops_span(text[end]) && text[end] != '\'')) return end;
  }
  return at;
}

// Words that name what follows a number ("the number 7", "Nummer 7", "numéro 7", "No. 7", "Nr. 7",
// "n° 7"; German compounds, "Startnummer 7"): a single digit after them is a name, not a quantity
// the model may write as a word, and the models replaced it ("mit der Nummer 7" -> "Nummer 5",
// "number 47").
constexpr std::string_view kNumberWords[] = {"number", "nummer", "num\xc3\xa9ro", "no.", "nr.", "n\xc2\xb0"};  // numéro n°

// What the model reads in place of a number after a number word, the first the sentence does not
// hold (a real 4 would be taken for it): with nothing there it wrote a number of its own ("the
// number 7 eight"), and of the digits it was given it copied 4 and 6 in every direction
// (docs/alignment.md).
constexpr std::string_view kNumberStandIns[] = {"4", "6"};

// Whether the word before text[at], after at most one space, is a number word (kNumberWords;
// brackets or quotes before it aside, any German compound ending in "nummer").
bool after_number_word(std::string_view text, size_t at) {
  size_t end = at;
  if (end > 0 && text[end - 1] == ' ') --end;
  size_t begin = end;
  while (begin > 0 && !is_ascii_space(text[begin - 1])) --begin;
  while (begin < end && is_ascii_punctuation(text[begin])) ++begin;  // "(Nr."
  const std::string word = to_lowercase(text.substr(begin, end - begin));
  const auto ends_with = [&](std::string_view suffix) {
    return word.size() >= suffix.size() && word.compare(word.size() - suffix.size(), suffix.size(), suffix) == 0;
  };
  return ends_with("nummer") || std::find(std::begin(kNumberWords), std::end(kNumberWords), word) != std::end(kNumberWords);
}

// The word between `begin` and the space or ASCII punctuation in direction `step` (+1 or -1).
std::string_view word_toward(std::string_view text, size_t begin, int step) {
  size_t end = begin;
  while (step > 0 ? end < text.size() && !stops_span(text[end]) : end > 0 && !stops_span(text[end - 1])) end += step;
  return step > 0 ? text.substr(begin, end - begin) : text.substr(end, begin - end);
}

// Whether a month is the word right before text[begin] or right after text[end], one space between
// ("May 5", "5 May", "5 mai"): a day, which the models read as a count ("auf May fünf").
bool beside_month(std::string_view text, size_t begin, size_t end) {
  const bool after = begin >= 2 && text[begin - 1] == ' ' && is_month_name(word_toward(text, begin - 1, -1));
  return after || (end + 1 < text.size() && text[end] == ' ' && is_month_name(word_toward(text, end + 1, 1)));
}

// Whether text[at] goes on a number: a digit, or one of . , : - / with a digit after it.
bool continues_number(std::string_view text, size_t at) {
  const bool separator = std::string_view(".,:-/").find(text[at]) != std::string_view::npos;
  return is_ascii_digit(text[at]) || (separator && at + 1 < text.size() && is_ascii_digit(text[at + 1]));
}

// Numbers: runs of ASCII digits, with single . , : - or / between digits ("1,000", "10:30", "3.5",
// "5-7", "1/2"), in French text with spaces between groups of thousands ("1 200"), of at least kMinNumberDigits characters, or with a sign before (sign_before) or a %
// or currency sign after them ("$6", "#1", "-5", "5%", "4 €": the models lost the signs or the
// digit), the signs included, or a unit of measure or a currency's name after them ("5 km", "12
// Euro": caption/currencies.h), or an ordinal's ending
// after them ("3rd"), or a German ordinal's dot ("Der 1. Platz": "The 1 1."), the dot included, or
// a number word before them ("number 7": after_number_word), or a month beside them ("May 5"); or a clock time of any length with
// its am or pm ("5 p.m.": "fünf Seiten"), its French h ("8 h 30") or its German Uhr ("20 Uhr"), with
// the range it ends ("von 10 bis 20 Uhr", "9 to 5 p.m.") or its preposition ("um 20 Uhr", "at
// 8:15": caption/clock_times.h clock_phrase_begin).
std::vector<ByteRange> numbers(std::string_view text) {
  std::vector<ByteRange> runs;
  const bool french = guess_language(text) == Language::french;
  for (size_t begin = 0; begin < text.size(); ++begin) {
    if (!is_ascii_digit(text[begin])) continue;
    size_t end = begin + 1;
    while (end < text.size() && continues_number(text, end)) ++end;
    if (french && end - begin <= 3) end = french_thousands_end(text, end);  // "1 200 €"
    const size_t sign = sign_before(text, begin);
    const size_t unit = std::max({unit_end(text, end), measure_end(text, end), currency_name_end(text, end)});
    size_t clock = clock_suffix_end(text, end);
    if (clock == std::string_view::npos) clock = french_clock_end(text, begin, end);
    if (clock == std::string_view::npos) clock = german_clock_end(text, begin, end);
    const size_t time_end = clock == std::string_view::npos ? end : clock;
    const size_t phrase = clock_phrase_begin(text, begin, time_end);  // "von 10 bis 20 Uhr", "at 8:15" whole
    if (clock != std::string_view::npos || phrase != std::string_view::npos) {
      runs.push_back(ByteRange{phrase == std::string_view::npos ? begin : phrase, time_end});
      begin = time_end - 1;
      continue;
    }
    const bool german_ordinal = sign == 0 && is_german_ordinal_dot(text, end);
    if (end - begin >= kMinNumberDigits || sign > 0 || unit > end || german_ordinal || ordinal_ending_length(text, end) > 0 ||
        after_number_word(text, begin - sign) || beside_month(text, begin, end)) {
      // "$50", "#4521", "12%", "4 €", "5 km", "-5", "1." go whole; "3rd" widens
      runs.push_back(ByteRange{begin - sign, german_ordinal ? end + 1 : unit});
    }
    begin = end - 1;
  }
  return runs;
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

// The pieces as text, "▁" as a space: enough to guess its language.
std::string pieces_text(const std::vector<std::string>& pieces) {
  std::string text;
  for (const std::string& piece : pieces) {
    text += opens_word(piece) ? " " + without_word_mark(piece) : piece;
  }
  return text;
}

// Whether nothing but a lone "▁" piece (before punctuation: "Mardi, …" read as "▁ , …") is
// before the span in what the model read.
bool opens_source(const PassThrough& span, const std::vector<std::string>& source_pieces) {
  return span.after_piece < 0 || (span.after_piece == 0 && source_pieces.at(0) == "\xE2\x96\x81");
}

// What a span's source says of it beyond its text.
struct SpanContext {
  Language source_language = Language::unknown;  // guessed from the source text, else the pair's other
  bool opens_french_sentence = false;  // it opens a sentence guessed French ("Lundi, …")
  std::string word_before;             // the source word before it, lowercased, without punctuation
  bool name_after = false;             // a capitalised word follows, not in German ("42nd Street")
};

SpanContext span_context(const PreparedSource& source, const PassThrough& span, const std::vector<std::string>& source_pieces,
                         const std::vector<WordSpan>& source_words, Language source_language) {
  SpanContext context;
  context.source_language = source_language;
  context.opens_french_sentence = opens_source(span, source_pieces) && guess_language(source.text) == Language::french;
  for (const WordSpan& word : source_words) {
    if (word.begin > span.after_piece || span.after_piece >= word.end) continue;
    context.word_before = without_word_mark(bare_word(source_pieces, word));
  }
  const size_t next = static_cast<size_t>(span.after_piece + 1);
  if (!span.before_next_word && next < source_pieces.size()) {
    std::string after = without_word_mark(source_pieces[next]);
    if (span.after_piece < 0) {  // the source's own capital, not the one the model's text took ("3rd place")
      const size_t at = source.text.find(span.text);
      const size_t word = at == std::string::npos ? at : source.text.find_first_not_of(" \t\n\r\f\v", at + span.text.size());
      after = word == std::string::npos ? "" : source.text.substr(word, 1);
    }
    context.name_after = !after.empty() && after[0] >= 'A' && after[0] <= 'Z';
  }
  return context;
}

// Whether a sentence ends right before span[at] (. ! or ? and spaces): "sonntags. Samstags"; not
// the dot of initials or a clock's "p.m." ("5 p.m. Monday to Friday").
bool ends_sentence_at(std::string_view span, size_t at) {
  const size_t last = span.find_last_not_of(' ', at == 0 ? std::string_view::npos : at - 1);
  if (at == 0 || last == std::string_view::npos || last >= at) return false;
  if (span[last] == '.' && ends_in_dotted_letters(span.substr(0, last))) return false;
  return std::string_view(".!?").find(span[last]) != std::string_view::npos;
}

// Whether `span` is an hour and minutes with a dot after "at" ("at 10.30", British), which is no
// decimal number.
bool british_time(std::string_view span, std::string_view word_before) {
  const size_t dot = span.find('.');
  return word_before == "at" && (dot == 1 || dot == 2) && span.size() == dot + 3 &&
         std::all_of(span.begin(), span.begin() + static_cast<long>(dot), is_ascii_digit) &&
         is_ascii_digit(span[dot + 1]) && is_ascii_digit(span[dot + 2]);
}

// Whether `span` opens with a phrase of time that has a word before its digits or names, as the
// text rules read one ("Am 3. Oktober", "At 5 p.m.", "Le 14 juillet", "Um 20 Uhr", "On Friday",
// "Monday to Friday"): opening the sentence, it opens the translation too ("On October 3 a
// gathering …", was "A on October 3 gathering …": the first source word's translation came after
// the model's article).
bool opens_with_time_phrase(std::string_view span) {
  const std::vector<ByteRange> words = words_between_spaces(span);
  if (words.empty() || is_ascii_digit(span[words[0].begin])) return false;
  for (size_t n = std::min<size_t>(8, words.size()); n >= 2; --n) {
    const std::string_view group = slice(span, without_punctuation(span, ByteRange{words[0].begin, words[n - 1].end}, true));
    constexpr Language any = Language::english;  // each rule reads the three languages; any one to write in
    if (clock_range_in(group, any) || clock_time_in(group, any) || date_with_preposition_in(group, "", any) ||
        date_range_in(group, any) || calendar_name_with_preposition_in(group, any) || calendar_range_in(group, any)) {
      return true;
    }
  }
  return false;
}

// Whether `span` begins with a letter or digit (a word of the sentence, not an emoji or mark).
bool opens_with_word(std::string_view span) {
  size_t length = 0;
  return !span.empty() && (is_ascii_digit(span[0]) || letter_at(span, 0, &length) != Letter::none);
}

// A span as the translation writes it: its clock times and ordinals the translation's way
// (caption/clock_times.h: "20 Uhr" -> "8 p.m."; caption/ordinals.h: "1." -> "1st"), its dates ("25. Mai"
// -> "May 25", "25 mai"; "am 3. Oktober" -> "on October 3"), months and weekdays in the translation's language (caption/calendar_names.h;
// "Freitag" -> "Friday", "Montag, 20 Uhr" -> "Monday, 8 p.m."), its numbers' separators and
// currency signs (caption/numerals.h: "$12.99" -> "12,99 $"); a month that is a first name too only beside digits or
// after a preposition of time ("in June"; "June Carter", "with April" stay); a translated first
// word capitalised when it opens the translation ("Lundi"). In a span with other words (a name
// merged with a clock time beside it: "IBM at 5 p.m.") those stay as the source wrote them, and so
// does a month, weekday or ordinal right beside one ("June Carter", "3rd Avenue"; a weekday or
// month after its preposition only when one follows: "Mr. Smith on Friday" -> "… am Freitag").
std::string written_in(const std::string& span, const SpanContext& context, Language language, bool opens_translation) {
  struct Rewrite {
    ByteRange range;
    std::string text;
    bool word_alone = false;  // a calendar name or ordinal, which another word beside it may name
    size_t first_word = 0, end_word = 0;  // of `words`
    bool named_from_before = true;        // a word before it may name it too (not after a preposition)
  };
  std::vector<Rewrite> rewrites;
  const std::vector<ByteRange> words = words_between_spaces(span);
  bool digits = false, calendar_first_name_ok = true;
  std::vector<bool> other_words(words.size(), false);  // words of no date: a name ("June Carter"), a place
  for (size_t i = 0; i < words.size();) {
    // A range of clock times of eight words at most ("von 8.30 Uhr bis 17 Uhr", "9 to 5 p.m."), a
    // clock time of four at most ("à 8 h 30", "at 5 p.m.", "20 Uhr"), a date of two or three ("14.
    // Juli", "14. Juli 2024") or of three or four with its preposition ("am 14. Juli"), a range of
    // dates of five to eight ("vom 24. Dezember bis zum 2. Januar"), a range of weekdays or months of four at most ("von Montag bis
    // Freitag"), a weekly day of two at most ("on Sundays" -> "sonntags") or an amount of money
    // of two at most ("12 Euro": caption/currencies.h).
    bool clock_or_date = false;
    const std::string before = i == 0 ? context.word_before : word_before_in_sentence(span, words, i);
    for (size_t n = std::min<size_t>(8, words.size() - i); n >= 1 && !clock_or_date; --n) {
      ByteRange group = without_punctuation(span, ByteRange{words[i].begin, words[i + n - 1].end}, true);
      std::optional<std::string> written;  // a French duration first: "dure de 2 à 3 h" is no range of clock times
      if (n <= 5) written = french_duration_in(slice(span, group), before, language);
      if (!written) written = clock_range_in(slice(span, group), language);
      if (!written && n >= 5) written = date_range_in(slice(span, group), language);
      if (!written && n <= 4) written = clock_time_in(slice(span, group), language);
      if (!written && n >= 2 && n <= 3) written = date_in(slice(span, group), language);
      if (!written && n >= 3 && n <= 4) written = date_with_preposition_in(slice(span, group), before, language);
      if (!written && n <= 4) written = calendar_range_in(slice(span, group), language);
      if (!written && n <= 2) {  // without its dot: "on Mondays." of "on Mondays. Sundays"
        const ByteRange bare = without_punctuation(span, group, false);
        if ((written = weekly_day_in(slice(span, bare), before, language))) group = bare;
      }
      if (!written && n <= 2) written = amount_in(slice(span, group), language);
      // A weekday or month with its preposition ("on Friday"), which a name beside it may name too
      // ("in June Carter's song").
      bool alone = false;
      if (!written && n == 2) alone = (written = calendar_name_with_preposition_in(slice(span, group), language)).has_value();
      if (written) {
        rewrites.push_back(Rewrite{group, *written, alone, i, i + n, false});
        digits = clock_or_date = true;
        i += n;
      }
    }
    if (clock_or_date) continue;
    const ByteRange core = without_punctuation(span, words[i], false);
    const std::string_view word = slice(span, core);
    const bool opens_french = context.opens_french_sentence && core.begin == 0;
    const ByteRange dotted = without_punctuation(span, words[i], true);  // "1." of German "Der 1. Platz"
    std::optional<std::string> ordinal = ordinal_in(slice(span, dotted), language);
    if (ordinal && context.name_after) {  // "42nd Street", "5th Avenue": a name's part
      digits = true;
    } else if (ordinal) {
      rewrites.push_back(Rewrite{dotted, std::move(*ordinal), true, i, i + 1});
      digits = true;
    } else if (std::any_of(word.begin(), word.end(), is_ascii_digit)) {
      digits = true;
    } else if (is_unit_or_sign(slice(span, words[i]))) {  // "5 km", "12,99 €"
    } else if (is_calendar_name(word, opens_french)) {
      rewrites.push_back(Rewrite{core, calendar_name_in(word, opens_french, language), true, i, i + 1});
      if (i == 0) calendar_first_name_ok = reads_as_calendar_name(word, context.word_before);
    } else {
      other_words[i] = true;
    }
    ++i;
  }
  // A calendar name or ordinal beside another word may be a name's part ("June Carter", "Carter
  // June"); one after its preposition only before it ("in June Carter's"; "Mr. Smith on Friday").
  rewrites.erase(std::remove_if(rewrites.begin(), rewrites.end(),
                                [&](const Rewrite& r) {
                                  const bool after = r.end_word < words.size() && other_words[r.end_word];
                                  const bool before = r.named_from_before && r.first_word > 0 && other_words[r.first_word - 1];
                                  return r.word_alone && (after || before);
                                }),
                 rewrites.end());
  if (!digits && !calendar_first_name_ok) return span;  // "with April"
  std::string text;
  size_t written = 0;  // span[0, written) is in text
  for (Rewrite& rewrite : rewrites) {
    text.append(span, written, rewrite.range.begin - written);
    // After a sentence's end the source's own capital says so ("sonntags. Samstags"; not the dot of
    // "5 p.m. on Friday").
    const bool opens = rewrite.range.begin == 0 ? opens_translation
                                                : ends_sentence_at(span, rewrite.range.begin) &&
                                                      first_letter(slice(span, rewrite.range)) == Letter::upper;
    const bool capital = opens && rewrite.text != slice(span, rewrite.range);
    text += capital ? with_first_capital(rewrite.text) : rewrite.text;
    written = rewrite.range.end;
  }
  text += span.substr(written);
  // Its numbers the translation's way ("3.5" -> "3,5", "$12.99" -> "12,99 $"); not beside a name
  // ("Python 3.5") nor in a web address ("example.com/v/3.5", "…/2024%20report").
  const bool other_word = std::find(other_words.begin(), other_words.end(), true) != other_words.end();
  const bool as_written = other_word || british_time(span, context.word_before) || !web_addresses(span).empty();
  return as_written ? text : numbers_in(text, context.source_language, language);
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
// plus opening a word ("$5", "-5"). numbers() adds what the caption rules write the translation's way.
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
                                          const KnowsLowercase& knows, bool caption_rules) {
  std::vector<ByteRange> seeds = caption_rules ? numbers(text) : plain_numbers(text);
  if (caption_rules) {
    for (const ByteRange& name : spelled_names(text, tokens, knows)) seeds.push_back(name);
    for (const ByteRange& name : titled_names(text)) seeds.push_back(name);
    for (const ByteRange& range : calendar_ranges(text)) seeds.push_back(range);
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

Language sentence_language(std::string_view text, const std::vector<std::string_view>& spans) {
  const Language guessed = guess_language(text);
  if (guessed != Language::unknown) return guessed;
  for (const std::string_view span : spans) {
    const Language title = language_of_title(span.substr(0, std::min(span.find(' '), span.size())));
    if (title != Language::unknown) return title;
  }
  for (const std::string_view span : spans) {
    for (const ByteRange& word : words_between_spaces(span)) {
      const Language calendar = language_of_calendar_name(slice(span, without_punctuation(span, word)));
      if (calendar != Language::unknown) return calendar;
    }
  }
  return Language::unknown;
}

std::string stand_in_for(std::string_view text, ByteRange span) {
  const std::string_view spanned = slice(text, span);
  const std::vector<ByteRange> quoted = quotations(text);
  if (std::any_of(quoted.begin(), quoted.end(),
                  [&](const ByteRange& quotation) { return quotation.begin == span.begin && quotation.end == span.end; })) {
    return quotation_stand_in(spanned);
  }
  if (std::all_of(spanned.begin(), spanned.end(), is_ascii_digit) && after_number_word(text, span.begin)) {
    for (std::string_view digit : kNumberStandIns) {
      if (text.find(digit) == std::string_view::npos) return std::string(digit);
    }
    return "";
  }
  const std::vector<ByteRange> names = titled_names(text);  // in the whole text, whose language says what "M." is
  const auto is_span = [&](const ByteRange& name) { return name.begin == span.begin && name.end == span.end; };
  if (std::none_of(names.begin(), names.end(), is_span)) return "";
  const bool opens = std::all_of(text.begin(), text.begin() + span.begin, is_ascii_space);
  switch (sentence_language(text, {spanned})) {
    case Language::english: return opens ? "Someone" : "someone";
    case Language::german: return opens ? "Jemand" : "jemand";
    case Language::french: return opens ? "Quelqu'un" : "quelqu'un";
    case Language::unknown: break;
  }
  return "";
}

PreparedSource prepare_with_pass_through(const Tokenizer& tokenizer, std::string_view given, std::string_view text,
                                         const std::vector<TokenSpan>& tokens, const std::vector<ByteRange>& spans,
                                         int eos_id, bool caption_rules) {
  PreparedSource source;
  source.text = std::string(given);
  source.caption_rules = caption_rules;
  source.status = TranslationStatus::unreadable_script;
  if (mostly_unknown(text, tokens, tokenizer.unk_id())) return source;
  std::vector<std::string> stand_ins;
  for (const ByteRange& span : spans) stand_ins.push_back(caption_rules ? stand_in_for(text, span) : std::string());
  const CutText cut = cut_spans(text, spans, stand_ins);
  const std::vector<TokenSpan> kept = tokenizer.encode_with_offsets(cut.text);
  source.status = contains_letter(cut.text) ? TranslationStatus::translated : TranslationStatus::passed_through;
  for (const TokenSpan& token : kept) source.ids.push_back(token.id);
  source.ids.push_back(eos_id);
  for (size_t k = 0; k < spans.size(); ++k) {
    int after_piece = -1;  // the last piece of the kept text before the cut
    while (after_piece + 1 < static_cast<int>(kept.size()) && kept[after_piece + 1].end <= cut.cut_at[k]) ++after_piece;
    const bool before_next_word =
        caption_rules && (is_german_ordinal_dot(text, spans[k].end - 1) || opens_quotation(text, spans[k]));
    source.pass_through.push_back(PassThrough{std::string(slice(given, spans[k])), after_piece, stand_ins[k], before_next_word});
  }
  return source;
}

std::vector<Insertion> place_pass_through(const PreparedSource& source, const std::vector<std::string>& source_pieces,
                                          const std::vector<std::string>& target_pieces, const std::vector<int>& alignment,
                                          Language fallback_language, const std::function<bool(std::string_view)>& knows_word) {
  const std::vector<WordSpan> source_words = piece_words(source_pieces);
  const std::vector<WordSpan> target_words = piece_words(target_pieces);
  const bool rules = source.caption_rules;  // else each span is written as the source wrote it
  Language target_language = rules ? guess_language(pieces_text(target_pieces)) : Language::unknown;
  if (rules && target_language == Language::unknown) target_language = fallback_language;
  // "1,000 people watch 12 dogs." holds no function word: the source is the pair's other language.
  Language source_language = rules ? guess_language(source.text) : Language::unknown;
  if (rules && (source_language == Language::unknown || source_language == target_language) && knows_word) {
    source_language = other_language(target_language, knows_word);
  }
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
      if (rules && opens_source(span, source_pieces) && opens_with_time_phrase(span.text)) before_piece = 0;
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
    std::string text = rules ? written_in(span.text, span_context(source, span, source_pieces, source_words, source_language),
                                          target_language, opens_translation)
                             : span.text;
    if (lent_its_dot && inside && text == span.text) text += '.';  // not "… 17 Uhr."
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

Language translation_language_fallback(const PreparedSource& source, const Tokenizer& target_tokenizer) {
  std::vector<std::string_view> spans;
  for (const PassThrough& span : source.pass_through) spans.push_back(span.text);
  return other_language(sentence_language(source.text, spans), knows_whole_word(target_tokenizer));
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
                                const Tokenizer& target_tokenizer) {
  if (!source.caption_rules) return source.text;  // the spans as written, the text between them kept
  const std::vector<std::string> source_pieces =
      source_tokenizer.pieces(std::vector<int>(source.ids.begin(), source.ids.end() - 1));  // no eos
  const std::vector<int> alignment(piece_words(source_pieces).size(), -1);  // no translation to align with
  // One insertion per span, in the spans' order: all go to the one place an empty translation has.
  const std::vector<Insertion> insertions = place_pass_through(source, source_pieces, {}, alignment,
                                                               translation_language_fallback(source, target_tokenizer),
                                                               knows_whole_word(target_tokenizer));
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

std::string text_with_pass_through(const PreparedSource& source, const Hypothesis& hypothesis,
                                   const AttentionMaps& maps, const Tokenizer& target_tokenizer) {
  const std::vector<std::string> source_pieces(maps.source_pieces.begin(), maps.source_pieces.end() - 1);  // no eos
  const std::vector<float> attention = alignment_attention(maps);  // [tgt_len][src_len]
  const std::vector<int> alignment = align_words(attention, maps.src_len, piece_words(source_pieces), piece_words(hypothesis.pieces));
  const std::vector<Insertion> insertions = place_pass_through(source, source_pieces, hypothesis.pieces, alignment,
                                                                translation_language_fallback(source, target_tokenizer),
                                                                knows_whole_word(target_tokenizer));
  return insert_spans(hypothesis.ids, hypothesis.pieces, insertions,
                      [&](const std::vector<int>& ids) { return target_tokenizer.decode(ids); });
}

}  // namespace attend
