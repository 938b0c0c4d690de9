// The language of a sentence among the shipped models' (English, German, French), guessed from
// the function words it holds ("the", "und", "avec"): where the model must read a word in its
// source language and no model file names that language (pipeline/pass_through.h's stand-ins).
#pragma once

#include <functional>
#include <string_view>

namespace attend {

enum class Language { unknown, english, german, french };

// The language of an ISO 639 code, as a model file names its languages ("en", "de", "fr");
// unknown for any other.
Language language_of_code(std::string_view code);

// The languages a model file names (attend.languages), as the caption rules read its sources and
// write its translations; unknown where it names none, or one the rules have no tables for.
struct LanguagePair {
  Language source = Language::unknown, target = Language::unknown;
};

// Whether `word` (in lowercase) is one of `language`'s function words: its own, and the articles
// and prepositions it shares with another ("die", "des", "in").
bool is_function_word(std::string_view word, Language language);

// Whether `word` (in lowercase) is a function word of English, German or French.
bool is_function_word_in_any_language(std::string_view word);

// The language a model of two of these languages translates text in `source` into: of the
// languages whose function words its vocabulary holds as whole words (`has_word`), the two with
// the most, the one that is not `source`; unknown when `source` is unknown or not one of them.
// For a translation whose own words tell no language ("Des enfants jouent 7 p.m.").
Language other_language(Language source, const std::function<bool(std::string_view)>& has_word);

}  // namespace attend
