#include "caption/function_words.h"

#include <algorithm>
#include <iterator>
#include <utility>

namespace attend {
namespace {

constexpr std::string_view kEnglish[] = {"the", "a",  "is",    "are", "and",  "of",   "on",  "with",
                                         "to",  "his", "her", "at", "for",  "while", "who", "this",
                                         "that", "it", "were", "by", "from", "their", "some", "its",
                                         "has", "be", "not", "they"};
constexpr std::string_view kGerman[] = {"der", "das",  "ein", "eine", "einem", "einen", "einer",  "und",
                                        "ist", "sind", "mit", "im",   "auf",   "zu",    "von",    "sich",
                                        "den", "dem",  "bei", "beim", "vor",   "seinem", "ihrem", "nicht",
                                        "hat", "für",  "wird", "aus", "nach",  "über",   "auch",  "sie",
                                        "seit", "ich", "wir", "aber", "oder", "noch", "wenn", "dass", "heute"};
constexpr std::string_view kFrench[] = {"le",  "la",  "les", "un",  "une", "et",  "est", "sont",
                                        "dans", "avec", "ce", "au", "sur", "à",   "de",  "pour",
                                        "qui", "sa",  "ses", "aux", "l",   "d",   "il",  "elle",
                                        "ont", "pas", "ne",  "chez", "sous", "vers", "mais", "ils",
                                        "pendant", "nous", "vous", "cette", "ces", "très"};

// Function words two languages share.
constexpr std::string_view kSharedEnglish[] = {"in", "an", "was", "am"};
constexpr std::string_view kSharedGerman[] = {"die", "in", "an", "am", "des", "was", "du"};
constexpr std::string_view kSharedFrench[] = {"des", "du", "en"};

template <size_t N>
bool listed(const std::string_view (&list)[N], std::string_view word) {
  return std::find(std::begin(list), std::end(list), word) != std::end(list);
}

}  // namespace

bool is_function_word(std::string_view word, Language language) {
  switch (language) {
    case Language::english: return listed(kEnglish, word) || listed(kSharedEnglish, word);
    case Language::german: return listed(kGerman, word) || listed(kSharedGerman, word);
    case Language::french: return listed(kFrench, word) || listed(kSharedFrench, word);
    case Language::unknown: break;
  }
  return false;
}

bool is_function_word_in_any_language(std::string_view word) {
  return is_function_word(word, Language::english) || is_function_word(word, Language::german) ||
         is_function_word(word, Language::french);
}

Language language_of_code(std::string_view code) {
  return code == "en" ? Language::english : code == "de" ? Language::german : code == "fr" ? Language::french : Language::unknown;
}

Language other_language(Language source, const std::function<bool(std::string_view)>& has_word) {
  const auto held = [&](const auto& list) { return std::count_if(std::begin(list), std::end(list), has_word); };
  std::pair<long, Language> counts[] = {{held(kEnglish), Language::english}, {held(kGerman), Language::german},
                                        {held(kFrench), Language::french}};
  std::stable_sort(std::begin(counts), std::end(counts), [](const auto& a, const auto& b) { return a.first > b.first; });
  if (source == counts[0].second) return counts[1].second;
  if (source == counts[1].second) return counts[0].second;
  return Language::unknown;
}

}  // namespace attend
