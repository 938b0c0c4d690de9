// The language-detection boundary of the module (core/src/detect: CLD2 compiled from Debian's
// source): whether a text is in another language than a model reads. Kept out of bindings.cpp,
// which marshals translation; nothing here throws.
#include <cstdlib>
#include <cstring>
#include <string>
#include <string_view>

#include "detect/language_detection.h"

extern "C" {

// The language CLD2 is sure `text` (UTF-8, `size` bytes) is in where it is not `expected` (an ISO
// 639-1 code): `{"language":"de","name":"German","percent":98}` in memory the caller frees with
// free(); null when the text is in `expected`, CLD2 is unsure, or the text has no letters.
char* attend_other_language(const char* text, size_t size, const char* expected) {
  if (text == nullptr || expected == nullptr) return nullptr;
  const auto found = attend::other_language(std::string_view(text, size), expected);
  if (!found) return nullptr;
  // Codes and CLD2's names are ASCII letters, digits, '-' and '_': nothing to escape.
  const std::string json = "{\"language\":\"" + found->language + "\",\"name\":\"" + attend::language_name(found->language)
                           + "\",\"percent\":" + std::to_string(static_cast<int>(found->confidence)) + "}";
  char* out = static_cast<char*>(std::malloc(json.size() + 1));
  if (out != nullptr) std::memcpy(out, json.c_str(), json.size() + 1);
  return out;
}

}  // extern "C"
