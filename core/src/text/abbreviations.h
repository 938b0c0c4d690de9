// What a language writes with a dot that ends no sentence, as data keyed by language code: the
// sentence planner (text/false_break.h) reads the list of the text's language, the language the
// model file names for its source. Adding a language is adding its entry here.
#pragma once

#include <string_view>
#include <vector>

namespace attend {

struct Abbreviations {
  std::string_view language;  // primary subtag of a BCP-47 code, lowercase ("en", "de", "fr")
  // Lowercase, without their final dot.
  std::vector<std::string_view> titles;          // before a name ("mr", "dr", "mme")
  std::vector<std::string_view> others;          // rarely end a sentence ("vs", "bzw", "cf")
  std::vector<std::string_view> before_numbers;  // only before a number ("no", "nr", "pp")
  // Words after a clock's "a.m." or "p.m." that go on its sentence ("5 p.m. Monday to Friday", "10
  // a.m. Pacific Time"); empty for a language that writes no such clock.
  std::vector<std::string_view> after_clock;
  // Where a number's dot marks an ordinal ("Der 1. Platz"), the words a sentence opens with after
  // a number's full stop instead ("Das Kind ist 5. Es spielt."), lowercase; empty elsewhere.
  std::vector<std::string_view> openers_after_number;
};

// The list of `language` (a BCP-47 code: "en", "de-CH"; its primary subtag, any case, is read).
// For a language without one, or an empty code, every language's lists but the ordinal dots'
// openers: a number's dot before a capital ends an English sentence ("He is 5. Two dogs …").
const Abbreviations& abbreviations_of(std::string_view language);

}  // namespace attend
