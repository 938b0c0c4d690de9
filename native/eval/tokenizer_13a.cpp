// mteval-v13a tokenization in the order sacreBLEU 2.x applies it:
//   1. remove "<skipped>"; join "-\n" (remove it); "\n" -> " ";
//      unescape &quot; &amp; &lt; &gt; (in that order, each a plain replace-all);
//   2. pad with one space on each side;
//   3. four regex substitutions, each a left-to-right scan over non-overlapping matches:
//      a. ([\{-\~\[-\` -\&\(-\+\:-\@\/])  -> " \1 "    (ASCII punctuation but ' - . ,)
//      b. ([^0-9])([\.,])                 -> "\1 \2 "   (. , unless preceded by a digit)
//      c. ([\.,])([^0-9])                 -> " \1 \2"   (. , unless followed by a digit)
//      d. ([0-9])(-)                      -> "\1 \2 "   (- when preceded by a digit)
//   4. split on whitespace (Python's str.split()).
// [0-9] is ASCII digits only; [^0-9] is any other code point, whitespace included.
#include "tokenizer_13a.h"

#include "utf8.h"

namespace attend::eval {

namespace {

std::u32string replace_all(std::u32string text, std::u32string_view from,
                           std::u32string_view to) {
  std::u32string out;
  out.reserve(text.size());
  size_t start = 0;
  for (size_t at = text.find(from); at != std::u32string::npos; at = text.find(from, start)) {
    out.append(text, start, at - start);
    out.append(to);
    start = at + from.size();
  }
  out.append(text, start, std::u32string::npos);
  return out;
}

bool is_digit(char32_t c) { return c >= U'0' && c <= U'9'; }
bool is_period_or_comma(char32_t c) { return c == U'.' || c == U','; }

// Rule a's class: { | } ~   [ \ ] ^ _ `   space ! " # $ % &   ( ) * +   : ; < = > ? @   /
bool is_split_punctuation(char32_t c) {
  return (c >= 0x7B && c <= 0x7E) || (c >= 0x5B && c <= 0x60) || (c >= 0x20 && c <= 0x26) ||
         (c >= 0x28 && c <= 0x2B) || (c >= 0x3A && c <= 0x40) || c == 0x2F;
}

// One re.sub pass for a two-character pattern (first, second) whose replacement is
// prefix + \1 + middle + \2 + suffix; after a match the scan resumes past both characters.
template <typename First, typename Second>
std::u32string substitute_pairs(std::u32string_view text, First first, Second second,
                                std::u32string_view prefix, std::u32string_view middle,
                                std::u32string_view suffix) {
  std::u32string out;
  out.reserve(text.size() * 2);
  size_t i = 0;
  while (i < text.size()) {
    if (i + 1 < text.size() && first(text[i]) && second(text[i + 1])) {
      out.append(prefix);
      out.push_back(text[i]);
      out.append(middle);
      out.push_back(text[i + 1]);
      out.append(suffix);
      i += 2;
    } else {
      out.push_back(text[i]);
      i += 1;
    }
  }
  return out;
}

}  // namespace

std::vector<std::u32string> tokenize_13a(std::u32string_view line) {
  std::u32string text(line);
  text = replace_all(std::move(text), U"<skipped>", U"");
  text = replace_all(std::move(text), U"-\n", U"");
  text = replace_all(std::move(text), U"\n", U" ");
  text = replace_all(std::move(text), U"&quot;", U"\"");
  text = replace_all(std::move(text), U"&amp;", U"&");
  text = replace_all(std::move(text), U"&lt;", U"<");
  text = replace_all(std::move(text), U"&gt;", U">");

  std::u32string spaced;
  spaced.reserve(text.size() * 2);
  for (const char32_t c : U" " + text + U" ") {
    if (is_split_punctuation(c)) {
      spaced += U' ';
      spaced += c;
      spaced += U' ';
    } else {
      spaced += c;
    }
  }

  const auto not_digit = [](char32_t c) { return !is_digit(c); };
  const auto is_dash = [](char32_t c) { return c == U'-'; };
  text = substitute_pairs(spaced, not_digit, is_period_or_comma, U"", U" ", U" ");
  text = substitute_pairs(text, is_period_or_comma, not_digit, U" ", U" ", U"");
  text = substitute_pairs(text, is_digit, is_dash, U"", U" ", U" ");
  return split_whitespace(text);
}

std::string tokenize_13a(std::string_view line) {
  std::string joined;
  for (const std::u32string& token : tokenize_13a(utf8_decode(line))) {
    if (!joined.empty()) joined += ' ';
    joined += utf8_encode(token);
  }
  return joined;
}

}  // namespace attend::eval
