// A word or phrase as each of the shipped models' languages writes it: "Friday", "Freitag",
// "vendredi"; "from", "von", "de"; "Mr.", "Herr", "M.".
#pragma once

#include <string_view>

#include "caption/function_words.h"

namespace attend {

struct InEachLanguage {
  std::string_view english, german, french;

  // `language`'s (French for Language::unknown: callers have told the language first).
  constexpr std::string_view in(Language language) const {
    return language == Language::english ? english : language == Language::german ? german : french;
  }
};

}  // namespace attend
