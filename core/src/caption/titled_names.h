// A title and the name after it ("Mrs. Brown", "Dr. Anna Kowalski", "Mme Dupont"): the shipped
// models dropped the title and read a name that is also a word as the word ("Mrs. Brown reads a
// book." -> "braunen Streifen liest ein Buch."; "A woman talks to Mrs. Brown." -> "… mit Batik-
// braunen Haaren."), so the two pass through as written, like unknown pieces (pipeline/pass_through.h).
#pragma once

#include <string_view>
#include <vector>

#include "caption/function_words.h"
#include "text/words.h"

namespace attend {

// Each title (text/false_break.h's is_title, capitalised, with its dot; "Mr", "Mrs", "Ms", "Dr",
// "Mme" and "Mlle" also without, and "Miss", "Madame", "Monsieur", "Mademoiselle"; French "M." and "MM." in French text; German "Herr",
// "Herrn" and "Frau" in German text, but after an article or adjective) followed by words
// that begin with a capital (A-Z, À-Þ): up to three of a name (one in German, which capitalises its nouns), and
// initials ("J.") and further titles ("Prof. Dr.") among them, through the last name word without
// the punctuation after it. Words are between spaces (text/words.h). `language`: the text's, as
// the model file names its source language. In text order.
std::vector<ByteRange> titled_names(std::string_view text, Language language);

}  // namespace attend
