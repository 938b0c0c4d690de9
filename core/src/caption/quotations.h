// A sign's text or a name in quotation marks ("a sign that says "Free Hugs"", "a boat named "El
// Corazon""). Multi30k's captions rarely quote, and the models lost what they were given there,
// writing a quotation of their own: en-de "mit der Aufschrift „S“", de-en "says "Po"", fr-en
// ""Faaaa 2007"". Read with the stand-in quotation "S", every model writes a quotation of its own
// in that place ("„S“", ""Po"", ""SS""), and the source's quotation takes its place, between the
// translation's marks (pipeline/pass_through.h).
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "tokenizer/pieces.h"
#include "caption/function_words.h"
#include "text/words.h"

namespace attend {

// The quotations of `text` that pass through, marks included: a pair of quotation marks (" ",
// “ ”, „ “, „ ”, « ») with whitespace, "(" or the text's start before them and whitespace, ASCII
// punctuation or the text's end after them, holding 1 to 12 words that begin with a capital letter
// or a digit ("Memoria Justicia Sin Olvido", "93"; a German noun too, „Straßenkleidung“: kept,
// where given to de-en "Pullman" became "peacock"; and a quoted sentence, speech the caption
// models cannot translate: "hello" became "Ein Profi-T-Shirt", "Look at that!" "Blick auf die
// Aussicht!"). In text order.
std::vector<ByteRange> quotations(std::string_view text);

// The marks of the other pairs, each alone, in text order: the quotation holds words the models
// translate ("street clothes"). Read with the marks, they lost the words (en-de "in
// "street clothes"" -> "mit der Aufschrift „S“", en-fr "des vêtements "Le""); without, they translate
// them ("Straßenkleidung"), and the marks go back around that translation.
std::vector<ByteRange> word_quotation_marks(std::string_view text);

// Whether `text` is one quotation mark (of those above).
bool is_quotation_mark(std::string_view text);

// The length in bytes of the closing quotation mark `text` ends with (of those above), or 0.
size_t closing_mark_length(std::string_view text);

// Whether `mark` of `text` (one word_quotation_marks found) opens its quotation.
bool opens_quotation(std::string_view text, ByteRange mark);

// A lone quotation mark as `language` writes it, as Multi30k's references do: English and French
// " ", German „ “; `mark` itself when the language is unknown.
std::string quotation_mark_in(std::string_view mark, bool opening, Language language);

// What the model reads for a quotation (one quotations() found): "S" between its marks.
std::string quotation_stand_in(std::string_view quotation);

// Whether `stand_in` is quotation_stand_in's.
bool is_quotation_stand_in(std::string_view stand_in);

// The translation of a quotation's stand-in: the target pieces [begin, end) of a quotation the
// model wrote, from a word opening with a quotation mark through its closing mark (or that word
// alone when no word within 12 closes it), and the source's `quotation` between the marks the model opened
// with (the matching closing mark: „ “, " ", “ ”, « »). The quotation whose first word is nearest
// target word `near` among those not yet `replaced` (whose words this marks); none when the model
// wrote none.
struct QuotationPlace {
  int begin = 0, end = 0;
  std::string text;
};
std::optional<QuotationPlace> place_quotation(std::string_view quotation, const std::vector<std::string>& target_pieces,
                                              const std::vector<WordSpan>& target_words, int near,
                                              std::vector<bool>& replaced);

}  // namespace attend
