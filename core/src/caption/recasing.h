// Text written in capitals ("A WOMAN IS WALKING HER DOG.") as a caption model reads best: in
// sentence case. Multi30k's captions are in sentence case; in capitals the shipped models see
// pieces they hardly know and loop ("Ein IMAMAMAMA…").
#pragma once

#include <functional>
#include <string>
#include <string_view>

namespace attend {

// `text` with its letters lowercased but the first, when is_all_caps(text); else `text`
// unchanged. Byte offsets are the same in both.
std::string sentence_case_if_all_caps(std::string_view text);

// Whether the vocabulary knows a word in lowercase: `word` is one word in capitals or capital
// first ("VERY", "Mom"); true if the vocabulary holds it lowercased as one piece ("▁mom").
using KnowsLowercase = std::function<bool(std::string_view word)>;

// `text` with its shouted words ("The dog is VERY happy") read in lowercase, a sentence's first
// letter kept: the models took them for names and left them untranslated ("Der Hund ist VERY
// glücklich"). A word is a run of letters, with ' or ’ between letters inside it ("CAN'T"); words
// in capitals of two or more letters with only spaces between them go together ("FREE HUGS"),
// lowercased when they hold three letters or more and `knows_lowercase` knows every one of them.
// So acronyms the vocabulary has no lowercase word for stay ("BMX", "NEW YORK": no "▁york"), and
// so do "US" and "IT" alone, and one of three letters alone after an article that in lowercase is
// a function word, an organisation's ("the WHO helps" was "die helfen": "who"; "the BIG ball" is
// shouted). Byte offsets are the same.
std::string lowercase_shouted_words(std::string_view text, const KnowsLowercase& knows_lowercase);

}  // namespace attend
