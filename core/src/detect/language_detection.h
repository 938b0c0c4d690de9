// Which language a text is in, by CLD2 (Chromium's Compact Language Detector 2: Debian's libcld2
// natively, its Debian source compiled with Emscripten for wasm). The server's POST /detect and
// `source: "auto"`, the CLI's and the page's warning that a text is not in the model's source
// language. Never guessed from word lists.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace attend {

struct DetectedLanguage {
  std::string language;    // ISO 639-1 code ("en"), as CLD2 names it
  double confidence = 0;   // 0-100: the share of the text's letters CLD2 gave this language
};

// CLD2's best three languages for `text`, most likely first, those it found no letters of left
// out; empty for text without letters, for invalid UTF-8 (CLD2 reads none of it) and for text
// CLD2 cannot tell. Thread-safe.
std::vector<DetectedLanguage> detect_languages(std::string_view text);

// The language `text` is in where CLD2 is sure it is not `expected` (an ISO 639-1 code, the model's
// source language), else nothing: CLD2 is told to expect `expected` (its language hint), and only a
// result it calls reliable, naming another language for at least kOtherLanguagePercent of the text's
// letters, counts. Nothing for text without letters or in invalid UTF-8. Thread-safe.
// The threshold, measured on Multi30k (tests/detect/other_language_test.cpp): of the captions in
// their own language (val en and de, test 2016 en, de and fr: 5,042 lines) 2 are taken for another
// (a German caption for Norwegian, a French one for English, both at 98%), and of the captions given
// to a model of another source language 97-100% are found, every one at 95% or more; 80% leaves a
// text that is mostly in the source language, with a quotation or a name in another, alone.
inline constexpr int kOtherLanguagePercent = 80;
std::optional<DetectedLanguage> other_language(std::string_view text, const std::string& expected);

// The English name CLD2 gives a language code ("de" -> "German"); the code itself when CLD2
// does not know it.
std::string language_name(const std::string& code);

}  // namespace attend
