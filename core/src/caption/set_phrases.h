// Greetings, thanks, wishes and the formulas that open and close a letter ("Dear Mr Smith,",
// "Vielen Dank für Ihre E-Mail.", "Cordialement,"): Multi30k's captions hold none of them, and the
// models made nonsense of them (fr-en "Bonjour !" -> "Baby is being!", en-de "Dear Mr Smith," ->
// "Taxis Mr Smith."). A sentence that is one of them, whole, is written from this table in the
// translation's language and the model is not run (TranslationStatus::set_phrase). A name may
// follow a greeting ("Hello Anna!", "Bonjour Monsieur Dupont,"); a letter's salutation agrees
// with whom it addresses ("Dear Ms. Müller," -> "Sehr geehrte Frau Müller,", "Chère Madame
// Müller,"; "Lieber Tom," -> "Dear Tom,", "Cher Tom,").
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <string_view>

#include "attend/document.h"
#include "caption/function_words.h"
#include "caption/titles.h"

namespace attend {

// A sentence read as a set phrase.
struct SetPhrase {
  Language language = Language::unknown;  // the sentence's, told by the wording
  Language also = Language::unknown;      // another language that writes it alike ("Date", "Contact")
  // Which of set_phrases.cpp's phrases it is; -1: a letter's salutation to someone ("Dear Anna,",
  // "Sehr geehrter Herr Müller,", "Chère Marie,").
  int phrase = -1;
  bool titled = false;  // the name follows a title ("Mr", "Frau")
  // Whom the title, or the salutation's own form, names ("Lieber": a man); nullopt: not told.
  std::optional<Addressed> addressed;
  std::string name;                // as written; empty for a phrase alone
  bool comma_before_name = false;  // "Hello, Anna!"
  std::string ending;              // the punctuation after it, without spaces: "!", ",", ""
};

// `sentence` read as a set phrase, whole (the spaces around it, the case of its letters and the
// kind of its apostrophes aside): one of the table's wordings in English, German or French, then,
// after a greeting, a thanks, a salutation or (after a comma) a closing, the name of whom it
// greets (one to three capitalised words that are no function words nor words `knows_word` says
// the vocabulary holds, in lowercase or, in German, as written: "Welcome Home", "Liebe Freunde";
// after a title of the same language or not), then only punctuation; else nullopt. A wording
// read whole is taken before one with a name ("Thank You Very Much!").
std::optional<SetPhrase> set_phrase_in(std::string_view sentence,
                                       const std::function<bool(std::string_view)>& knows_word = nullptr);

// `phrase` as `target` (a language other than phrase.language) writes it, with its ending the
// target's way: French sets "!", "?", ":" and ";" apart by a space, German ends a letter's closing
// with no comma ("Mit freundlichen Grüßen"). A salutation to someone the source does not say is a
// man or a woman greets in German and French as "Hallo Anna," and "Bonjour Anna,": their "dear"
// agrees with whom it addresses.
std::string written_in(const SetPhrase& phrase, Language target);

// The length of the label before a colon, or of the greeting or salutation before a comma,
// `sentence` opens with, its mark included, when more follows ("Opening hours: Monday to Friday,
// 9 a.m. to 5 p.m.": 14; "Hi Tom, thanks for your message!": 7; "Madame, Monsieur, je vous
// écris": 17); else 0. The document plan makes it a sentence of its own, a set phrase: the models
// made "Ein Cy-Mo-Sch-Sch-…" of the first and "Drachen, Frau Jones sieht zu!" of "Dear Ms.
// Jones, thank you!".
size_t opening_phrase_length(std::string_view sentence);

// Whether `sentence` is a letter's closing ("Best regards,", "Mit freundlichen Grüßen", a thanks
// or a wish before a comma: "Thanks,", "See you soon,"), and whether `text` is a name as a letter is signed after one: one to
// three capitalised words that are no function words nor titles ("Anna", "Jean-Luc Picard", and
// "Deine Anna", whose possessive stays as written: the models made "In Anna this De." of it),
// nothing else. The document plan
// keeps such a signature as written (text/document_plan.h): the models made "Anna" "Ein
// Handwerker.".
bool closes_letter(std::string_view sentence);
bool is_signature(std::string_view text);

// The three above, as the document plan takes them (attend/document.h PlanPhrases).
PlanPhrases letter_phrases();

}  // namespace attend
