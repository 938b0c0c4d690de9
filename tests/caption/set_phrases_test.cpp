#include "caption/set_phrases.h"

#include <gtest/gtest.h>

namespace attend {
namespace {

// `sentence` written in `target` from the table, or "(none)" when it is no set phrase.
std::string written(std::string_view sentence, Language target) {
  const std::optional<SetPhrase> phrase = set_phrase_in(sentence);
  return phrase ? written_in(*phrase, target) : "(none)";
}

TEST(SetPhrases, GreetingsAndThanksInEachLanguage) {
  EXPECT_EQ(written("Hello!", Language::german), "Hallo!");
  EXPECT_EQ(written("Hello!", Language::french), "Bonjour !");
  EXPECT_EQ(written("Bonjour !", Language::english), "Hello!");
  EXPECT_EQ(written("Bonjour\xC2\xA0!", Language::german), "Hallo!");  // a no-break space before "!"
  EXPECT_EQ(written("Guten Morgen!", Language::french), "Bonjour !");
  EXPECT_EQ(written("Vielen Dank für Ihre E-Mail.", Language::english), "Thank you for your email.");
  EXPECT_EQ(written("Thanks for your e-mail.", Language::french), "Merci pour votre e-mail.");
  EXPECT_EQ(written("Merci beaucoup !", Language::german), "Vielen Dank!");
  EXPECT_EQ(written("THANK YOU!", Language::german), "Danke!");
  EXPECT_EQ(written("I\xE2\x80\x99m sorry.", Language::french), "Je suis désolé.");  // a typographic apostrophe
  EXPECT_EQ(written("À bientôt !", Language::english), "See you soon!");
  EXPECT_EQ(written("Ich hoffe, es geht Ihnen gut.", Language::english), "I hope you are well.");
  EXPECT_EQ(written("How are you?", Language::french), "Comment allez-vous ?");
  EXPECT_EQ(written("  Yes  ", Language::german), "Ja");
}

TEST(SetPhrasesLanguage, ToldByTheWording) {
  EXPECT_EQ(set_phrase_in("Danke!")->language, Language::german);
  EXPECT_EQ(set_phrase_in("Merci !")->language, Language::french);
  EXPECT_EQ(set_phrase_in("Hi,")->language, Language::english);
  EXPECT_EQ(set_phrase_in("Hi,")->also, Language::unknown);
  // Written alike in two languages: both are told (Translator::prepare keeps it as it is when
  // the model's two languages are those).
  EXPECT_EQ(set_phrase_in("Date:")->language, Language::english);
  EXPECT_EQ(set_phrase_in("Date:")->also, Language::french);
  EXPECT_EQ(set_phrase_in("Adresse:")->language, Language::german);
  EXPECT_EQ(set_phrase_in("Adresse:")->also, Language::french);
}

TEST(SetPhrases, TitleCaseAndCapitalsReadWholeBeforeAName) {
  EXPECT_EQ(written("THANK YOU VERY MUCH!", Language::german), "Vielen Dank!");
  EXPECT_EQ(written("Hello Everyone!", Language::german), "Hallo zusammen!");
  EXPECT_EQ(written("Danke Schön!", Language::english), "Thank you!");
  EXPECT_EQ(written("Hallo Zusammen!", Language::english), "Hello everyone!");
  EXPECT_EQ(written("Best Practices", Language::german), "(none)");  // a closing takes a name after a comma only
  // A name's word the vocabulary holds is none: "home" in lowercase, a German noun as written.
  const auto knows = [](std::string_view word) { return word == "home" || word == "Freunde"; };
  EXPECT_EQ(set_phrase_in("Welcome Home", knows), std::nullopt);
  EXPECT_EQ(set_phrase_in("Liebe Freunde,", knows), std::nullopt);
  EXPECT_EQ(written_in(*set_phrase_in("Welcome Anna!", knows), Language::german), "Willkommen Anna!");
  // A title the vocabulary holds is still a title ("monsieur" is a French word of fr-en's).
  const auto knows_monsieur = [](std::string_view word) { return word == "monsieur"; };
  EXPECT_EQ(written_in(*set_phrase_in("Bonjour, Monsieur Dupont !", knows_monsieur), Language::english), "Hello, Mr. Dupont!");
}

TEST(SetPhrases, ALettersClosingInGermanTakesNoComma) {
  EXPECT_EQ(written("Best regards,", Language::german), "Mit freundlichen Grüßen");
  EXPECT_EQ(written("Best regards,", Language::french), "Cordialement,");
  EXPECT_EQ(written("Mit freundlichen Grüßen", Language::english), "Kind regards");
  EXPECT_EQ(written("Liebe Grüße,", Language::french), "Amitiés,");
  EXPECT_EQ(written("Best,", Language::german), "Viele Grüße");
  EXPECT_EQ(written("Hello,", Language::german), "Hallo,");  // a greeting keeps it
}

TEST(SetPhrases, ALettersClosingAndItsSignature) {
  EXPECT_EQ(written("Best wishes, Anna", Language::german), "Viele Grüße, Anna");
  EXPECT_TRUE(closes_letter("Mit freundlichen Grüßen"));
  EXPECT_TRUE(closes_letter("Cordialement,"));
  EXPECT_FALSE(closes_letter("Hello,"));
  EXPECT_TRUE(closes_letter("Thanks,"));  // a thanks before a comma closes a letter
  EXPECT_FALSE(closes_letter("Thanks!"));
  EXPECT_TRUE(closes_letter("See you soon,"));  // and so does a wish
  EXPECT_FALSE(closes_letter("See you soon!"));
  EXPECT_EQ(written("See you soon, Tom", Language::german), "Bis bald, Tom");
  EXPECT_EQ(written("See you Monday!", Language::german), "(none)");  // a weekday is no name
  EXPECT_EQ(written("Happy birthday, April!", Language::german), "Alles Gute zum Geburtstag, April!");  // a month may be
  EXPECT_EQ(written("Thanks for your message, Anna!", Language::french), "Merci pour votre message, Anna !");
  EXPECT_FALSE(closes_letter("A dog runs."));
  EXPECT_TRUE(is_signature("Anna"));
  EXPECT_TRUE(is_signature("Jean-Luc Picard"));
  EXPECT_FALSE(is_signature("The Team"));  // a function word
  EXPECT_TRUE(is_signature("Deine Anna"));  // kept, possessive and all
  EXPECT_FALSE(is_signature("Anna runs."));
  EXPECT_FALSE(is_signature("Anna Maria Lisa Schmidt"));
  EXPECT_FALSE(is_signature(""));
}

TEST(SetPhrases, ALabelBeforeAColonIsASentenceOfItsOwn) {
  EXPECT_EQ(opening_phrase_length("Opening hours: Monday to Friday"), 14u);
  EXPECT_EQ(opening_phrase_length("Preis: 12,99 €"), 6u);
  EXPECT_EQ(opening_phrase_length("Heures d'ouverture : du lundi au vendredi"), 20u);
  EXPECT_EQ(opening_phrase_length("Opening hours:"), 0u);       // nothing follows
  EXPECT_EQ(opening_phrase_length("Hello: a dog runs."), 0u);   // no label
  EXPECT_EQ(opening_phrase_length("A man says: hello."), 0u);
  EXPECT_EQ(opening_phrase_length("Price, a dog runs."), 0u);   // a label takes a colon
  EXPECT_EQ(written("Opening hours:", Language::french), "Horaires d'ouverture :");
  EXPECT_EQ(written("Betreff:", Language::english), "Subject:");
  EXPECT_EQ(written("Closed", Language::german), "Geschlossen");
}

TEST(SetPhrases, AGreetingBeforeACommaIsASentenceOfItsOwn) {
  EXPECT_EQ(opening_phrase_length("Hi Tom, thanks for your message!"), 7u);
  EXPECT_EQ(opening_phrase_length("Dear Ms. Jones, thank you!"), 15u);
  EXPECT_EQ(opening_phrase_length("Hello, Anna, how are you?"), 12u);  // the longest: the name with it
  EXPECT_EQ(opening_phrase_length("Madame, Monsieur, je vous écris."), 17u);
  EXPECT_EQ(opening_phrase_length("Liebe Kolleginnen und Kollegen, das Büro ist zu."), 31u);
  EXPECT_EQ(opening_phrase_length("Bonjour, je voudrais un café."), 8u);
  EXPECT_EQ(opening_phrase_length("Hello Anna,"), 0u);                       // nothing follows
  EXPECT_EQ(opening_phrase_length("Good luck, Anna, and see you soon."), 0u);  // a wish opens no message
  EXPECT_EQ(opening_phrase_length("Thank you, Anna, for the flowers."), 0u);   // nor a thanks
  EXPECT_EQ(opening_phrase_length("A man, a dog and a cat run."), 0u);
  EXPECT_EQ(opening_phrase_length("Morning, noon and night, the streets are busy."), 0u);  // "morning" alone is none
  // A sentence that is a set phrase, whole, is not cut ("Hello," would leave "Anna!" to the model).
  EXPECT_EQ(opening_phrase_length("Hello, Anna!"), 0u);
  EXPECT_EQ(opening_phrase_length("Bonjour, Monsieur Dupont !"), 0u);
  EXPECT_EQ(opening_phrase_length("Madame, Monsieur,"), 0u);
}

TEST(SetPhrases, AGreetingToAGroup) {
  EXPECT_EQ(written("Liebe Kollegen,", Language::english), "Dear colleagues,");  // not "Dear Kollegen,"
  EXPECT_EQ(written("Dear colleagues,", Language::german), "Liebe Kolleginnen und Kollegen,");
  EXPECT_EQ(written("Chères collègues,", Language::german), "Liebe Kolleginnen und Kollegen,");
}

TEST(SetPhrases, AGreetingWithTheNameOfWhomItGreets) {
  EXPECT_EQ(written("Hello Anna!", Language::german), "Hallo Anna!");
  EXPECT_EQ(written("Hello, Anna!", Language::french), "Bonjour, Anna !");
  EXPECT_EQ(written("Bonjour Monsieur Dupont,", Language::english), "Hello Mr. Dupont,");
  EXPECT_EQ(written("Hallo Frau Müller,", Language::french), "Bonjour Madame Müller,");
  EXPECT_EQ(written("Happy birthday, Anne-Marie O'Neill!", Language::german), "Alles Gute zum Geburtstag, Anne-Marie O'Neill!");
}

TEST(SetPhrases, ALettersSalutationAgreesWithWhomItAddresses) {
  EXPECT_EQ(written("Dear Mr Smith,", Language::german), "Sehr geehrter Herr Smith,");
  EXPECT_EQ(written("Dear Mr Smith,", Language::french), "Cher Monsieur Smith,");
  EXPECT_EQ(written("Dear Ms. Jones,", Language::german), "Sehr geehrte Frau Jones,");
  EXPECT_EQ(written("Dear Miss Jones,", Language::french), "Chère Mademoiselle Jones,");
  EXPECT_EQ(written("Sehr geehrte Frau Müller,", Language::english), "Dear Ms. Müller,");
  EXPECT_EQ(written("Chère Madame Dupont,", Language::german), "Sehr geehrte Frau Dupont,");
  EXPECT_EQ(written("Lieber Tom,", Language::english), "Dear Tom,");
  EXPECT_EQ(written("Lieber Tom,", Language::french), "Cher Tom,");
  EXPECT_EQ(written("Chère Marie,", Language::german), "Liebe Marie,");
  // English does not say whether Anna is a man or a woman; German and French "dear" would.
  EXPECT_EQ(written("Dear Anna,", Language::german), "Hallo Anna,");
  EXPECT_EQ(written("Dear Anna,", Language::french), "Bonjour Anna,");
  EXPECT_EQ(written("Dear Sir or Madam,", Language::german), "Sehr geehrte Damen und Herren,");
  EXPECT_EQ(written("Madame, Monsieur,", Language::english), "Dear Sir or Madam,");
  EXPECT_EQ(written("Dear all,", Language::german), "Hallo zusammen,");
}

TEST(SetPhrases, OnlyAWholeSentenceThatIsOne) {
  EXPECT_EQ(written("Hello Anna, how are you?", Language::german), "(none)");
  EXPECT_EQ(written("Thank you for the flowers.", Language::german), "(none)");
  EXPECT_EQ(written("A man says hello.", Language::german), "(none)");
  EXPECT_EQ(written("Hello the dog!", Language::german), "(none)");     // a function word is no name
  EXPECT_EQ(written("Hello my friend!", Language::german), "(none)");   // nor a word in lowercase
  EXPECT_EQ(written("Dear,", Language::german), "(none)");             // a salutation to no one
  EXPECT_EQ(written("Dear Mr,", Language::german), "(none)");
  EXPECT_EQ(written("Please,", Language::german), "Bitte,");
  EXPECT_EQ(written("Please, Anna", Language::german), "(none)");       // not a greeting
  EXPECT_EQ(written("Hello One Two Three Four!", Language::german), "(none)");  // at most three name words
  EXPECT_EQ(written("Bonjour MM. Dupont,", Language::german), "(none)");  // greeting more than one
  EXPECT_EQ(written("Hello 42!", Language::german), "(none)");
  EXPECT_EQ(written("!!!", Language::german), "(none)");
  EXPECT_EQ(written("", Language::german), "(none)");
}

}  // namespace
}  // namespace attend
