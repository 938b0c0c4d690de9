#include "caption/set_phrases.h"

#include <algorithm>
#include <iterator>
#include <vector>

#include "text/ascii.h"
#include "caption/calendar_names.h"
#include "caption/in_each_language.h"
#include "text/letter_case.h"
#include "text/letters.h"
#include "text/words.h"

namespace attend {
namespace {

enum class Kind {
  plain,
  greeting,    // opens a message; a name may follow ("Hello Anna!"); before a comma it is a sentence of its own ("Hi Tom, thanks …")
  salutation,  // a letter's opening to no one by name ("Dear Sir or Madam"); before a comma, as a greeting
  wish,        // a name may follow ("Happy birthday, Anna!", "See you soon, Tom"); before a comma it may close a letter
  thanks,      // as a wish: "Merci, Pierre !", "Thanks,\nAnna"
  closing,     // of a letter; a name may follow after a comma ("Best wishes, Anna"); German writes no comma after it
  label,       // of a sign, a form or a page; before a colon it is a sentence of its own ("Price: …")
};

bool takes_name(Kind kind) {
  return kind == Kind::greeting || kind == Kind::wish || kind == Kind::thanks || kind == Kind::closing;
}

struct Phrase {
  Kind kind;
  InEachLanguage written;  // how each language writes it
  InEachLanguage also;     // the other wordings each language reads as it, in lowercase, between '|'
};

// Read in this order: the first wording that matches tells the phrase ("bonjour" is "Hello", not
// "Good morning", which French says so too).
constexpr Phrase kPhrases[] = {
    {Kind::greeting, {"Hello", "Hallo", "Bonjour"}, {"hi|hey|hello there", "guten tag|servus|moin", "salut"}},
    {Kind::greeting, {"Good morning", "Guten Morgen", "Bonjour"}, {"", "", ""}},  // "Morning, noon and night"
    {Kind::greeting, {"Good evening", "Guten Abend", "Bonsoir"}, {"", "", ""}},
    {Kind::wish, {"Good night", "Gute Nacht", "Bonne nuit"}, {"", "", ""}},
    {Kind::wish, {"Goodbye", "Auf Wiedersehen", "Au revoir"}, {"bye|good bye|good-bye|bye bye", "tschüss|tschüs", ""}},
    {Kind::wish, {"Welcome", "Willkommen", "Bienvenue"}, {"", "herzlich willkommen", ""}},
    {Kind::greeting, {"Hello everyone", "Hallo zusammen", "Bonjour à tous"},
     {"hi everyone|hello everybody|hi everybody|hello all|hi all|dear all", "hallo allerseits|liebe alle",
      "bonjour à toutes et à tous|bonjour tout le monde|salut tout le monde"}},
    {Kind::greeting, {"Dear colleagues", "Liebe Kolleginnen und Kollegen", "Chers collègues"},
     {"hello colleagues|hi colleagues", "liebe kollegen|liebe kolleginnen|hallo kollegen|hallo kolleginnen und kollegen",
      "chères collègues|chères et chers collègues|chers collègues et amis"}},
    {Kind::wish, {"See you soon", "Bis bald", "À bientôt"}, {"see you later|see you", "bis später", "a bientôt"}},
    {Kind::wish, {"See you tomorrow", "Bis morgen", "À demain"}, {"", "", "a demain"}},
    {Kind::plain, {"How are you", "Wie geht es Ihnen", "Comment allez-vous"},
     {"how are you doing", "wie geht es dir|wie geht's|wie gehts", "comment vas-tu|comment ça va"}},
    {Kind::plain, {"I hope you are well", "Ich hoffe, es geht Ihnen gut", "J'espère que vous allez bien"},
     {"i hope you're well|i hope you are doing well|hope you are well|hope you're well|i hope this email finds you well",
      "ich hoffe, es geht dir gut|ich hoffe es geht ihnen gut|ich hoffe es geht dir gut", "j'espère que tu vas bien"}},
    {Kind::thanks, {"Thank you", "Danke", "Merci"}, {"thanks", "danke schön|dankeschön", ""}},
    {Kind::thanks, {"Thank you very much", "Vielen Dank", "Merci beaucoup"},
     {"thanks a lot|many thanks|thank you so much|thanks so much", "danke sehr|herzlichen dank|vielen herzlichen dank|danke vielmals",
      "merci bien|mille mercis"}},
    {Kind::thanks, {"Thank you for your email", "Vielen Dank für Ihre E-Mail", "Merci pour votre e-mail"},
     {"thanks for your email|thank you for your e-mail|thanks for your e-mail|thank you for your mail",
      "danke für ihre e-mail|danke für deine e-mail|vielen dank für deine e-mail|vielen dank für ihre mail|danke für deine mail",
      "merci pour votre mail|merci pour votre email|merci pour votre courriel|merci de votre e-mail|merci pour ton e-mail"}},
    {Kind::thanks, {"Thank you for your message", "Vielen Dank für Ihre Nachricht", "Merci pour votre message"},
     {"thanks for your message", "danke für ihre nachricht|danke für deine nachricht|vielen dank für deine nachricht",
      "merci de votre message|merci pour ton message"}},
    {Kind::thanks, {"Thank you for your help", "Vielen Dank für Ihre Hilfe", "Merci pour votre aide"},
     {"thanks for your help", "danke für ihre hilfe|danke für deine hilfe|vielen dank für deine hilfe",
      "merci de votre aide|merci pour ton aide"}},
    {Kind::plain, {"You're welcome", "Gern geschehen", "De rien"}, {"you are welcome", "bitte schön|bitte sehr|gerne geschehen", "je vous en prie"}},
    {Kind::plain, {"Please", "Bitte", "S'il vous plaît"}, {"", "", "s'il te plaît"}},
    {Kind::plain, {"Sorry", "Entschuldigung", "Désolé"}, {"", "", "désolée|pardon"}},
    {Kind::plain, {"I'm sorry", "Es tut mir leid", "Je suis désolé"}, {"i am sorry|i'm so sorry", "tut mir leid", "je suis désolée"}},
    {Kind::plain, {"Excuse me", "Entschuldigen Sie", "Excusez-moi"}, {"", "entschuldigen sie bitte", ""}},
    {Kind::plain, {"Yes", "Ja", "Oui"}, {"", "", ""}},
    {Kind::plain, {"No", "Nein", "Non"}, {"", "", ""}},
    {Kind::wish, {"Happy birthday", "Alles Gute zum Geburtstag", "Joyeux anniversaire"},
     {"", "herzlichen glückwunsch zum geburtstag", "bon anniversaire"}},
    {Kind::wish, {"Merry Christmas and a Happy New Year", "Frohe Weihnachten und ein gutes neues Jahr", "Joyeux Noël et bonne année"},
     {"merry christmas and happy new year", "frohe weihnachten und ein frohes neues jahr", ""}},
    {Kind::wish, {"Merry Christmas", "Frohe Weihnachten", "Joyeux Noël"}, {"happy christmas", "fröhliche weihnachten", ""}},
    {Kind::wish, {"Happy New Year", "Frohes neues Jahr", "Bonne année"}, {"", "gutes neues jahr|ein frohes neues jahr|ein gutes neues jahr", ""}},
    {Kind::wish, {"Happy Easter", "Frohe Ostern", "Joyeuses Pâques"}, {"", "", ""}},
    {Kind::wish, {"Congratulations", "Herzlichen Glückwunsch", "Félicitations"}, {"", "glückwunsch|herzliche glückwünsche", ""}},
    {Kind::wish, {"Good luck", "Viel Glück", "Bonne chance"}, {"", "", ""}},
    {Kind::wish, {"Have a nice day", "Einen schönen Tag noch", "Bonne journée"},
     {"have a good day|have a great day", "schönen tag noch|einen schönen tag", ""}},
    {Kind::wish, {"Have a nice weekend", "Schönes Wochenende", "Bon week-end"},
     {"have a good weekend|have a great weekend|enjoy your weekend", "ein schönes wochenende|schönes wochenende noch", "bon weekend"}},
    {Kind::plain, {"Enjoy your meal", "Guten Appetit", "Bon appétit"}, {"", "", ""}},
    {Kind::plain, {"I look forward to hearing from you", "Ich freue mich auf Ihre Antwort", "Dans l'attente de votre réponse"},
     {"looking forward to hearing from you|i am looking forward to hearing from you|i'm looking forward to hearing from you|i look forward to your reply",
      "ich freue mich auf deine antwort|ich freue mich, von ihnen zu hören|ich freue mich, von dir zu hören",
      "au plaisir de vous lire|j'attends votre réponse avec impatience"}},
    {Kind::salutation, {"Dear Sir or Madam", "Sehr geehrte Damen und Herren", "Madame, Monsieur"},
     {"dear sir/madam|dear sir / madam|dear sirs|to whom it may concern", "", "madame, mademoiselle, monsieur|messieurs"}},
    // German writes no salutation to one person whose name it does not know.
    {Kind::salutation, {"Dear Sir", "Sehr geehrte Damen und Herren", "Monsieur"}, {"", "", ""}},
    {Kind::salutation, {"Dear Madam", "Sehr geehrte Damen und Herren", "Madame"}, {"", "", ""}},
    {Kind::label, {"Opening hours", "Öffnungszeiten", "Horaires d'ouverture"},
     {"opening times|hours", "", "heures d'ouverture|horaires"}},
    {Kind::label, {"Address", "Adresse", "Adresse"}, {"", "anschrift", ""}},
    {Kind::label, {"Phone", "Telefon", "Téléphone"}, {"telephone|tel", "tel", "tél"}},
    {Kind::label, {"Email", "E-Mail", "E-mail"}, {"e-mail", "email", "courriel|email"}},
    {Kind::label, {"Price", "Preis", "Prix"}, {"prices", "preise", ""}},
    {Kind::label, {"Admission", "Eintritt", "Entrée"}, {"entry", "", ""}},
    {Kind::label, {"Date", "Datum", "Date"}, {"", "", ""}},
    {Kind::label, {"Time", "Uhrzeit", "Heure"}, {"", "zeit", ""}},
    {Kind::label, {"Location", "Ort", "Lieu"}, {"venue|place", "veranstaltungsort", ""}},
    {Kind::label, {"Subject", "Betreff", "Objet"}, {"re", "", ""}},
    {Kind::label, {"Contact", "Kontakt", "Contact"}, {"", "", ""}},
    {Kind::label, {"Note", "Hinweis", "Remarque"}, {"please note", "anmerkung|bitte beachten", "note"}},
    {Kind::label, {"Closed", "Geschlossen", "Fermé"}, {"", "", "fermée"}},
    {Kind::label, {"Open", "Geöffnet", "Ouvert"}, {"", "offen", "ouverte"}},
    {Kind::closing, {"Kind regards", "Mit freundlichen Grüßen", "Cordialement"},
     {"best regards|regards|warm regards|kind regards|with kind regards|with best regards|yours sincerely|sincerely|sincerely yours|yours faithfully|yours truly",
      "mit freundlichen grüssen|freundliche grüße|freundliche grüsse|beste grüße|mit besten grüßen|mit freundlichem gruß",
      "bien cordialement|sincères salutations|salutations distinguées|meilleures salutations|bien à vous"}},
    {Kind::closing, {"Best wishes", "Viele Grüße", "Amitiés"},
     {"best|all the best|warm wishes|with best wishes", "viele grüsse|liebe grüße|liebe grüsse|herzliche grüße|herzliche grüsse|beste wünsche",
      "amicalement|bien amicalement|bises|grosses bises"}},
};

// A letter's salutation to someone, as each wording opens it, and whom it says that someone is.
struct Salutation {
  std::string_view words;  // in lowercase
  Language language;
  std::optional<Addressed> addressed;
};

constexpr Salutation kSalutations[] = {
    {"dear", Language::english, std::nullopt},           {"sehr geehrter", Language::german, Addressed::man},
    {"sehr geehrte", Language::german, Addressed::woman}, {"lieber", Language::german, Addressed::man},
    {"liebe", Language::german, Addressed::woman},        {"cher", Language::french, Addressed::man},
    {"chère", Language::french, Addressed::woman},
};

// The title each language greets someone with, in full, for each of Addressed (titles.h's order):
// French writes "Monsieur", not "M.", after "Bonjour" and "Cher".
constexpr InEachLanguage kGreetingTitles[] = {{"Mr.", "Herr", "Monsieur"},
                                              {"Messrs.", "Herren", "Messieurs"},
                                              {"Ms.", "Frau", "Madame"},
                                              {"Mrs.", "Frau", "Madame"},
                                              {"Miss", "Frau", "Mademoiselle"}};

constexpr Language kLanguages[] = {Language::english, Language::german, Language::french};

// The punctuation `sentence` ends with, after its words: how many bytes it and the spaces around it take.
size_t ending_length(std::string_view sentence) {
  size_t end = sentence.size();
  while (end > 0) {
    if (const size_t space = space_before(sentence, end)) {
      end -= space;
    } else if (std::string_view(".,!?;:").find(sentence[end - 1]) != std::string_view::npos) {
      --end;
    } else if (end >= 3 && sentence.substr(end - 3, 3) == "\xE2\x80\xA6") {  // …
      end -= 3;
    } else {
      break;
    }
  }
  return sentence.size() - end;
}

// `word` in lowercase, its apostrophes (’) written '.
std::string folded(std::string_view word) {
  std::string out;
  for (size_t i = 0; i < word.size();) {
    const size_t apostrophe = apostrophe_at(word, i);
    if (apostrophe > 0) {
      out += '\'';
      i += apostrophe;
    } else {
      out += word[i++];
    }
  }
  return to_lowercase(out);
}

// How many of `words` (folded) `wording` is when they open with it, or 0. `comma`: whether its last
// word is followed by a comma the wording does not hold ("hello," of "Hello, Anna").
size_t opening_length(const std::vector<std::string>& words, std::string_view wording, bool* comma) {
  const std::vector<ByteRange> parts = words_between_spaces(wording);
  if (parts.empty() || parts.size() > words.size()) return 0;
  *comma = false;
  for (size_t i = 0; i < parts.size(); ++i) {
    const std::string_view part = slice(wording, parts[i]);
    if (words[i] == part) continue;
    if (i + 1 != parts.size() || words[i] != std::string(part) + ",") return 0;
    *comma = true;
  }
  return parts.size();
}

// Whether `word` may be (part of) a name: a capital first, no function word, title, weekday nor
// month ("See you Monday!"; "April" may be), and of letters, hyphens, apostrophes and dots
// ("Anne-Marie", "O'Neill", "J.").
bool is_name_word(std::string_view word) {
  if (first_letter(word) != Letter::upper || is_function_word_in_any_language(folded(word))) return false;
  if (is_calendar_name(word, false) && reads_as_calendar_name(word, "")) return false;
  for (const Language language : kLanguages) {
    if (addressed_by(word, language)) return false;
  }
  for (const char c : word) {
    if (static_cast<unsigned char>(c) < 0x80 && !is_ascii_letter(c) && c != '-' && c != '\'' && c != '.') return false;
  }
  return true;
}

// Fills phrase's name, title and whom it names from `words` (as written): a title of `language`
// or none, then one to three name words; false when they are none such.
bool read_addressee(const std::vector<std::string_view>& words, Language language, SetPhrase* phrase) {
  size_t first = 0;
  if (words.size() >= 2) {
    if (const std::optional<Addressed> addressed = addressed_by(words[0], language)) {
      if (*addressed == Addressed::men) return false;
      phrase->titled = true;
      phrase->addressed = addressed;
      first = 1;
    }
  }
  if (words.size() - first < 1 || words.size() - first > 3) return false;
  for (size_t i = first; i < words.size(); ++i) {
    if (!is_name_word(words[i])) return false;
    if (!phrase->name.empty()) phrase->name += ' ';
    phrase->name += words[i];
  }
  return true;
}

// `wordings` ('|' between them) one by one.
template <typename Each>
bool any_wording(std::string_view wordings, Each&& each) {
  for (size_t begin = 0; begin < wordings.size();) {
    const size_t end = std::min(wordings.find('|', begin), wordings.size());
    if (each(wordings.substr(begin, end - begin))) return true;
    begin = end + 1;
  }
  return false;
}

std::string addressee_in(const SetPhrase& phrase, Language target) {
  if (!phrase.titled) return phrase.name;
  return std::string(kGreetingTitles[static_cast<size_t>(*phrase.addressed)].in(target)) + " " + phrase.name;
}

// "Dear Ms. Müller", "Sehr geehrte Frau Müller", "Chère Madame Müller"; "Dear Anna", "Hallo Anna".
std::string salutation_in(const SetPhrase& phrase, Language target) {
  const bool man = phrase.addressed == Addressed::man;
  std::string_view opening = "Dear ";
  if (target == Language::german) {
    opening = phrase.titled ? (man ? "Sehr geehrter " : "Sehr geehrte ") : !phrase.addressed ? "Hallo " : man ? "Lieber " : "Liebe ";
  } else if (target == Language::french) {
    opening = !phrase.addressed ? "Bonjour " : man ? "Cher " : "Chère ";
  }
  return std::string(opening) + addressee_in(phrase, target);
}

std::string ending_in(const SetPhrase& phrase, Language target) {
  const bool closing = phrase.phrase >= 0 && kPhrases[phrase.phrase].kind == Kind::closing;
  if (target == Language::german && closing && phrase.ending == ",") return "";
  if (target == Language::french && !phrase.ending.empty() && std::string_view("!?;:").find(phrase.ending[0]) != std::string_view::npos) {
    return " " + phrase.ending;
  }
  return phrase.ending;
}

}  // namespace

std::optional<SetPhrase> set_phrase_in(std::string_view sentence, const std::function<bool(std::string_view)>& knows_word) {
  const size_t ending = ending_length(sentence);
  const std::string_view body = sentence.substr(0, sentence.size() - ending);
  std::vector<std::string_view> written;  // body's words as written
  std::vector<std::string> words;         // folded
  for (const ByteRange& range : words_between_spaces(body)) {
    written.push_back(slice(body, range));
    words.push_back(folded(written.back()));
  }
  if (words.empty()) return std::nullopt;
  std::string ending_marks;  // the ending without its spaces
  const std::string_view tail = sentence.substr(sentence.size() - ending);
  for (size_t i = 0; i < tail.size();) {
    const size_t space = space_at(tail, i);
    if (space == 0) ending_marks += tail[i];
    i += space > 0 ? space : 1;
  }
  // Whether the words are `wording` of `language`, whole or (`with_name`) with a name after it;
  // fills `read`. A name's word the vocabulary holds is none ("Welcome Home"; German
  // capitalises its nouns: "Liebe Freunde").
  const auto reads = [&](std::string_view wording, Language language, bool with_name, bool comma_first, SetPhrase* read) {
    bool comma = false;
    const size_t length = opening_length(words, wording, &comma);
    if (length == 0 || (length < words.size()) != with_name || (with_name && comma_first && !comma)) return false;
    *read = SetPhrase{};
    read->language = language;
    read->ending = ending_marks;
    if (!with_name) return true;
    read->comma_before_name = comma;
    const std::vector<std::string_view> name(written.begin() + length, written.end());
    const auto known = [&](std::string_view word) {
      return knows_word && (knows_word(folded(word)) || (language == Language::german && knows_word(word)));
    };
    const size_t title = name.size() >= 2 && addressed_by(name[0], language) ? 1 : 0;  // the vocabulary may hold "monsieur"
    return std::none_of(name.begin() + title, name.end(), known) && read_addressee(name, language, read);
  };
  // Whether `entry` reads so in `language` (its own wording or another).
  const auto reads_entry = [&](const Phrase& entry, Language language, bool with_name, SetPhrase* read) {
    const bool comma_first = entry.kind == Kind::closing;  // "Best wishes, Anna", not "Best Practices"
    return reads(to_lowercase(entry.written.in(language)), language, with_name, comma_first, read) ||
           any_wording(entry.also.in(language), [&](std::string_view wording) {
             return reads(wording, language, with_name, comma_first, read);
           });
  };
  // Whole phrases first ("Thank you very much", not "Thank you" to "Very Much").
  for (const bool with_name : {false, true}) {
    for (size_t k = 0; k < std::size(kPhrases); ++k) {
      const Phrase& entry = kPhrases[k];
      if (with_name && !takes_name(entry.kind)) continue;
      for (const Language language : kLanguages) {
        SetPhrase phrase;
        if (!reads_entry(entry, language, with_name, &phrase)) continue;
        phrase.phrase = static_cast<int>(k);
        for (const Language other : kLanguages) {  // "Date", "Contact": English and French alike
          SetPhrase alike;
          if (other != language && phrase.also == Language::unknown && reads_entry(entry, other, with_name, &alike)) phrase.also = other;
        }
        return phrase;
      }
    }
  }
  for (const Salutation& salutation : kSalutations) {
    SetPhrase phrase;
    if (!reads(salutation.words, salutation.language, true, false, &phrase)) continue;
    if (!phrase.titled) phrase.addressed = salutation.addressed;
    return phrase;
  }
  return std::nullopt;
}

size_t opening_phrase_length(std::string_view sentence) {
  constexpr size_t kLongest = 120;  // bytes: a greeting, a title and a name of three words fit
  constexpr int kMarks = 2;         // "Hello, Anna," and "Madame, Monsieur," hold two
  if (sentence.size() <= kLongest && set_phrase_in(sentence)) return 0;  // "Hello, Anna!" is one, whole
  size_t length = 0;
  size_t mark = sentence.find_first_of(",:");
  for (int marks = 0; marks < kMarks && mark < kLongest; ++marks, mark = sentence.find_first_of(",:", mark + 1)) {
    if (sentence.find_first_not_of(" \t\r\f\v", mark + 1) == std::string_view::npos) break;  // nothing follows
    const std::optional<SetPhrase> phrase = set_phrase_in(sentence.substr(0, mark + 1));
    if (!phrase) continue;
    const Kind kind = phrase->phrase >= 0 ? kPhrases[phrase->phrase].kind : Kind::salutation;
    const bool label = sentence[mark] == ':' && kind == Kind::label && phrase->name.empty();
    const bool greeting = sentence[mark] == ',' && (kind == Kind::greeting || kind == Kind::salutation);
    if (label || greeting) length = mark + 1;  // the longest: "Hello, Anna," before "Hello,"
  }
  return length;
}

bool closes_letter(std::string_view sentence) {
  const std::optional<SetPhrase> phrase = set_phrase_in(sentence);
  if (!phrase || phrase->phrase < 0 || !phrase->name.empty()) return false;
  const Kind kind = kPhrases[phrase->phrase].kind;
  return kind == Kind::closing || ((kind == Kind::thanks || kind == Kind::wish) && phrase->ending == ",");
}

bool is_signature(std::string_view text) {
  const std::vector<ByteRange> words = words_between_spaces(text);
  if (words.empty() || words.size() > 3) return false;
  return std::all_of(words.begin(), words.end(), [&](const ByteRange& word) { return is_name_word(slice(text, word)); });
}

std::string written_in(const SetPhrase& phrase, Language target) {
  std::string out;
  if (phrase.phrase < 0) {
    out = salutation_in(phrase, target);
  } else {
    out = std::string(kPhrases[phrase.phrase].written.in(target));
    if (!phrase.name.empty()) out += (phrase.comma_before_name ? ", " : " ") + addressee_in(phrase, target);
  }
  return out + ending_in(phrase, target);
}

PlanPhrases letter_phrases() { return PlanPhrases{opening_phrase_length, closes_letter, is_signature}; }

}  // namespace attend
