// Which language a text is in, by CLD2 (Chromium's Compact Language Detector 2: Debian's libcld2
// natively, its Debian source compiled with Emscripten for wasm). The server's POST /detect and
// `source: "auto"`, the CLI's and the page's warning that a text is not in the model's source
// language. Never guessed from word lists.
#pragma once

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

// The English name CLD2 gives a language code ("de" -> "German"); the code itself when CLD2
// does not know it.
std::string language_name(const std::string& code);

}  // namespace attend
