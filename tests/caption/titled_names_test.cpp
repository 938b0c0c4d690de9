// caption/titled_names.h: a title and the name after it, and what is none.
#include "caption/titled_names.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "texts_of.h"

namespace attend {
namespace {

using Names = std::vector<std::string>;

// The titled names of `text`, read in `language` (the model file's source language).
Names names_in(std::string_view text, Language language = Language::english) {
  return texts_of(text, titled_names(text, language));
}

TEST(TitledNames, ATitleAndTheCapitalisedWordsAfterIt) {
  EXPECT_EQ(names_in("Mrs. Brown reads a book."), Names{"Mrs. Brown"});
  EXPECT_EQ(names_in("A woman talks to Dr. Anna Kowalski, who smiles."), Names{"Dr. Anna Kowalski"});
  EXPECT_EQ(names_in("Two girls wave at Dr. J. Baker."), Names{"Dr. J. Baker"});
  EXPECT_EQ(names_in("Mr. Smith's dog and Prof. Élise Dupont"), (Names{"Mr. Smith's", "Prof. Élise Dupont"}));
  EXPECT_EQ(names_in("Prof. Dr. Müller reads."), Names{"Prof. Dr. Müller"});
  EXPECT_EQ(names_in("Dr. Martin Luther King Jr waves."), Names{"Dr. Martin Luther King"});  // three words at most
  // German capitalises its nouns: one word of a name there.
  EXPECT_EQ(names_in("Gestern hat Dr. Müller Kuchen für die Kinder gebacken.", Language::german), Names{"Dr. Müller"});
  // Undotted: British and French.
  EXPECT_EQ(names_in("Mr Smith and Mme Dupont wave."), (Names{"Mr Smith", "Mme Dupont"}));
  // Written out: "Madame Dupont" was fr-en "Tamed being Dupont"; and "Miss".
  EXPECT_EQ(names_in("Madame Dupont parle avec Mademoiselle Martin et Monsieur Petit.", Language::french),
            (Names{"Madame Dupont", "Mademoiselle Martin", "Monsieur Petit"}));
  EXPECT_EQ(names_in("A girl talks to Miss Smith."), Names{"Miss Smith"});
  // Title Case: a function word after the title is no name ("Miss" is a verb there).
  EXPECT_EQ(names_in("Don't Miss The Big Game Tonight."), Names{});
  // French "M." and "MM." (Monsieur, Messieurs) in text guessed French; elsewhere "M." is an initial.
  EXPECT_EQ(names_in("M. Dupont et Mme Martin sont dans le parc.", Language::french), (Names{"M. Dupont", "Mme Martin"}));
  EXPECT_EQ(names_in("MM. Durand et Petit sont dans le parc.", Language::french), Names{"MM. Durand"});
  EXPECT_EQ(names_in("John M. Smith rides a bike with the dog."), Names{});
  EXPECT_EQ(names_in("M. Dupont", Language::unknown), Names{});  // no language to read "M." in
  // German "Herr", "Herrn", "Frau" in German text: "Frau Müller wohnt in Berlin." was "Woman
  // picking up trash in the fall.", "Herr Schmidt liest ein Buch." "Gentleman Schmidt reading a book."
  EXPECT_EQ(names_in("Frau Müller wohnt mit Herrn Schmidt in Berlin. Herr Weber liest ein Buch.", Language::german),
            (Names{"Frau Müller", "Herrn Schmidt", "Herr Weber"}));
  EXPECT_EQ(names_in("Heute, Frau Müller, ist der Tag.", Language::german), Names{"Frau Müller"});
  EXPECT_EQ(names_in("Liebe Frau Müller, sehr geehrter Herr Weber, wir kommen.", Language::german), (Names{"Frau Müller", "Herr Weber"}));
}

TEST(TitledNames, GermanHerrAndFrauAfterAnArticleOrAdjectiveAreNouns) {
  // As in Multi30k's German training text: "eine ältere Frau Brot", "ein Herr Motorrad".
  EXPECT_EQ(names_in("Ein Mann sieht, wie eine ältere Frau Brot kauft und ein Herr Motorrad fährt.", Language::german), Names{});
  EXPECT_EQ(names_in("Die Frau Schmidt und der Herr Weber sind mit der jungen Frau Eis essen.", Language::german), Names{});
  EXPECT_EQ(names_in("The man waves to Frau Brown and the dog."), Names{});  // English: "Frau" is no title
}

TEST(TitledNames, NoTitleOrNoName) {
  EXPECT_EQ(names_in("A man with a dr. note."), Names{});    // not capitalised
  EXPECT_EQ(names_in("Prof Smith waves."), Names{});         // "Prof" only with its dot
  EXPECT_EQ(names_in("We met Dr. who? Mrs. (Brown)"), Names{});
  EXPECT_EQ(names_in("Mr."), Names{});
  EXPECT_EQ(names_in("Dr. J."), Names{});  // initials alone
  EXPECT_EQ(names_in(""), Names{});
}

}  // namespace
}  // namespace attend
