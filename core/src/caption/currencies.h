// Amounts of money with the currency's name after the number, as the shipped models' languages
// write them: "12 euros", German "12 Euro", French "12 euros"; dollars, pounds (German "Pfund",
// French "livres"), cents (French "centimes") and francs (German "Franken"). The models read the
// name as a word of a caption ("Der Eintritt kostet 12 Euro" -> "The kicker is making a bite 12"),
// so an amount passes through the model (pipeline/pass_through.h) and is written the translation's
// way, a closed list needing no model. Currency signs ("€12", "$5") go with their number as written.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

#include "caption/function_words.h"

namespace attend {

// The currency signs a number takes before or after it: $ € £ ¥ ("$6", "€6", "4 €", "£3", "¥500").
inline constexpr std::string_view kCurrencySigns[] = {"$", "\xe2\x82\xac", "\xc2\xa3", "\xc2\xa5"};

// The end of a currency's name after the number ending at text[at] and at most one space, before
// whitespace, ASCII punctuation or the end ("12 Euro.", "6 euros,", "25 dollars"; not "12 Europa",
// and not French "livres", which are books as often); `at` when there is none.
size_t currency_name_end(std::string_view text, size_t at);

// `text`, a number and a currency's name after it and at most one space ("12 Euro", "1 dollar",
// "2,50 euros"), written as `language` writes it: "12 euros", "12 Euro", "12 euros"; the name
// singular after "1" in English and French. nullopt when it is none (only the whole of `text`) or
// the language is unknown.
std::optional<std::string> amount_in(std::string_view text, Language language);

}  // namespace attend
