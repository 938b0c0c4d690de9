#include "text/abbreviations.h"

#include <algorithm>
#include <cctype>
#include <string>

namespace attend {
namespace {

const Abbreviations kEnglish{
    "en",
    {"mr", "mrs", "ms", "mx", "dr", "prof", "st", "mt", "sgt", "capt", "col", "gen", "lt", "rev", "hon", "gov", "sen",
     "rep", "pres"},
    {"jr", "sr", "vs", "approx", "ca", "cf", "incl"},
    {"no", "nos", "vol", "p", "pp"},
    // A time zone's words, weekdays and months whole or shortened ("9 a.m. Mon to Fri").
    {"Time", "Eastern", "Central", "Mountain", "Pacific", "Atlantic", "Standard", "Daylight", "Greenwich",
     "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday",
     "Mon", "Tue", "Tues", "Wed", "Thu", "Thur", "Thurs", "Fri", "Sat", "Sun",
     "January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November",
     "December", "Jan", "Feb", "Mar", "Apr", "Jun", "Jul", "Aug", "Sep", "Sept", "Oct", "Nov", "Dec"},
    {}};

const Abbreviations kGerman{
    "de",
    {"dr", "prof", "st"},
    {"bzw", "evtl", "ggf", "sog", "ca", "vs", "incl"},
    {"nr"},
    {},
    {"der",   "die",   "das",   "den",   "dem",  "des",   "ein",   "eine",  "einer", "einem",
    "einen", "es",    "er",    "sie",   "ich",  "wir",   "ihr",   "man",   "dann",  "da",
    "dort",  "danach", "doch", "aber",  "und",  "auch",  "so",    "hier",  "heute", "jetzt",
    "nun",   "dies",  "diese", "dieser", "dieses", "sein", "seine", "ihre", "wer",  "was",
    "wie",   "wo",    "in",    "im",    "auf",  "an",    "am",    "mit",   "zu",    "zum",
    "zur",   "von",   "vom",   "bei",   "nach", "als",   "wenn",  "kein",  "keine", "mein",
    "meine", "meinem", "meinen", "meiner", "unser", "unsere", "dein", "deine", "ihm", "ihn",
    "uns",   "um",    "gestern", "alle", "nur",  "sonst", "bitte", "danke"}};

const Abbreviations kFrench{"fr", {"mme", "mlle", "ste", "st", "dr", "prof"}, {"cf", "ca", "vs"}, {"no", "vol", "p"}, {}, {}};

const Abbreviations* const kLanguages[] = {&kEnglish, &kGerman, &kFrench};

std::vector<std::string_view> joined(std::vector<std::string_view> Abbreviations::*list) {
  std::vector<std::string_view> all;
  for (const Abbreviations* language : kLanguages) {
    for (std::string_view word : language->*list) {
      if (std::find(all.begin(), all.end(), word) == all.end()) all.push_back(word);
    }
  }
  return all;
}

}  // namespace

const Abbreviations& abbreviations_of(std::string_view code) {
  std::string primary(code.substr(0, code.find_first_of("-_")));
  std::transform(primary.begin(), primary.end(), primary.begin(), [](unsigned char c) { return std::tolower(c); });
  for (const Abbreviations* language : kLanguages) {
    if (language->language == primary) return *language;
  }
  static const Abbreviations every{"", joined(&Abbreviations::titles), joined(&Abbreviations::others),
                                   joined(&Abbreviations::before_numbers), joined(&Abbreviations::after_clock), {}};
  return every;
}

}  // namespace attend
