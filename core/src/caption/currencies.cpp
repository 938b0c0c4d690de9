#include "caption/currencies.h"

#include <array>

#include "text/ascii.h"

namespace attend {
namespace {

// A currency's name in each language, singular and plural (German names are the same in both).
struct Currency {
  std::string_view english, english_plural, german, french, french_plural;
};

constexpr std::array<Currency, 5> kCurrencies = {{
    {"euro", "euros", "Euro", "euro", "euros"},
    {"dollar", "dollars", "Dollar", "dollar", "dollars"},
    {"pound", "pounds", "Pfund", "livre", "livres"},
    {"cent", "cents", "Cent", "centime", "centimes"},
    {"franc", "francs", "Franken", "franc", "francs"},
}};

// The currency `word` names (English, German or French, singular or plural; English and French
// capitalised too, "Euros" and "Dollars" in German), but not French "livre(s)", a book as often.
std::optional<Currency> currency_named(std::string_view word) {
  if (word.empty()) return std::nullopt;
  std::string lower(word);
  if (lower[0] >= 'A' && lower[0] <= 'Z') lower[0] = static_cast<char>(lower[0] - 'A' + 'a');
  if (lower == "livre" || lower == "livres") return std::nullopt;
  for (const Currency& currency : kCurrencies) {
    for (std::string_view name : {currency.english, currency.english_plural, currency.french, currency.french_plural}) {
      if (lower == name) return currency;
    }
    if (word == currency.german || word == std::string(currency.german) + "s") return currency;  // "Pfund", "Euros"
  }
  return std::nullopt;
}

// The length of a currency's name at text[at], before whitespace, ASCII punctuation or the end; 0
// when none.
size_t currency_name_length(std::string_view text, size_t at) {
  size_t end = at;
  while (end < text.size() && !is_ascii_space(text[end]) && !is_ascii_punctuation(text[end])) ++end;
  return currency_named(text.substr(at, end - at)) ? end - at : 0;
}

}  // namespace

size_t currency_name_end(std::string_view text, size_t at) {
  const size_t name = at < text.size() && text[at] == ' ' ? at + 1 : at;
  const size_t length = currency_name_length(text, name);
  return length > 0 ? name + length : at;
}

std::optional<std::string> amount_in(std::string_view text, Language language) {
  size_t digits = 0;
  while (digits < text.size() && (is_ascii_digit(text[digits]) || ((text[digits] == '.' || text[digits] == ',') &&
                                                                    digits > 0 && digits + 1 < text.size() &&
                                                                    is_ascii_digit(text[digits + 1])))) {
    ++digits;
  }
  if (digits == 0 || digits == text.size() || currency_name_end(text, digits) != text.size()) return std::nullopt;
  const std::optional<Currency> currency = currency_named(text.substr(text[digits] == ' ' ? digits + 1 : digits));
  const std::string number(text.substr(0, digits));
  const bool one = number == "1";
  switch (language) {
    case Language::english: return number + " " + std::string(one ? currency->english : currency->english_plural);
    case Language::german: return number + " " + std::string(currency->german);
    case Language::french: return number + " " + std::string(one ? currency->french : currency->french_plural);
    case Language::unknown: break;
  }
  return std::nullopt;
}

}  // namespace attend
