// Titles before a name as the shipped models' languages write them: English "Mr.", "Mrs.", "Ms.",
// "Miss"; German "Herr", "Frau"; French "M.", "Mme", "Mlle", "Monsieur", "Madame". A titled name
// passes through the model (caption/titled_names.h) and its title is written the translation's
// way, a rule needing no model: "Frau Müller" stayed "Frau Müller" in English.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "caption/function_words.h"

namespace attend {

// Whom a title names: each language writes one title for each (title_in), but German, which has no
// title for a young woman but "Frau".
enum class Addressed { man, men, woman, married_woman, young_woman };

// Whom `title` (a whole word, as the source wrote it) names when it is a title of `language`
// ("Herrn": a man; "Mlle": a young woman), or nullopt.
std::optional<Addressed> addressed_by(std::string_view title, Language language);

// The one language `word` is a title of ("Mrs.": English, "Frau": German, "Mme": French), or
// unknown (none, or more than one).
Language language_of_title(std::string_view word);

// `title` (a whole word, as the source wrote it) as `target` writes it: "Frau" -> "Ms.", "Mme";
// "Mr" -> "Herr", "M."; nullopt when it is no title of `source` ("Mr." in German text stays, as
// do "Dr." and "Prof.", which all three write alike) or `target` is unknown. German "Herr" is
// "Herrn" after a preposition (`word_before`, in lowercase: "mit Herrn Smith"); elsewhere the
// nominative, as a sentence's subject has it.
std::optional<std::string> title_in(std::string_view title, Language source, Language target,
                                    std::string_view word_before = "");

// `text` with each of its titles (title_in; a word between spaces, text/words.h) that a word with a
// capital follows, but after a capitalised word (a name's: "Jean M. Dupont"), written as `target`
// writes it: "Frau Dr. Müller" -> "Ms. Dr. Müller".
// `word_before`: the translation's word before `text`, in lowercase.
std::string titles_in(std::string_view text, Language source, Language target, std::string_view word_before = "");

}  // namespace attend
