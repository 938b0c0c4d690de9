// pipeline/web_addresses.h: which words are URLs, e-mail addresses, handles and hashtags, and where
// the punctuation around them belongs.
#include "pipeline/web_addresses.h"

#include <gtest/gtest.h>

#include <string>

#include "texts_of.h"

namespace attend {
namespace {

using Words = std::vector<std::string>;

Words addresses_in(std::string_view text) { return texts_of(text, web_addresses(text)); }

TEST(WebAddresses, UrlsWithASchemeOrWww) {
  EXPECT_EQ(addresses_in("Visit https://example.com/page?id=3 for more info."), Words{"https://example.com/page?id=3"});
  EXPECT_EQ(addresses_in("See www.example.org."), Words{"www.example.org"});
  EXPECT_EQ(addresses_in("Files at ftp://files.example.net/a.txt, then"), Words{"ftp://files.example.net/a.txt"});
  EXPECT_EQ(addresses_in("Not a URL: http:// nor www. nor ://x"), Words{});
}

TEST(WebAddresses, EmailAddresses) {
  EXPECT_EQ(addresses_in("Email me at john.doe@mail.com tomorrow."), Words{"john.doe@mail.com"});
  EXPECT_EQ(addresses_in("Write to <info@example.de>!"), Words{"info@example.de"});
  EXPECT_EQ(addresses_in("Not these: a@b, @.com, x@y. or a@.b"), Words{});
}

TEST(WebAddresses, HandlesAndHashtags) {
  EXPECT_EQ(addresses_in("A man with a #blessed sign waves at @alice."), (Words{"#blessed", "@alice"}));
  EXPECT_EQ(addresses_in("Thanks @dev_team and #München!"), (Words{"@dev_team", "#München"}));
  // A lone sign, a number after "#" (pipeline/pass_through.h's numbers take "#4521") and C# are none.
  EXPECT_EQ(addresses_in("Meet @ noon, we are #1 at C# and # tags"), Words{});
}

TEST(WebAddresses, PunctuationAroundBelongsToTheSentence) {
  EXPECT_EQ(addresses_in("(see https://example.com)."), Words{"https://example.com"});
  EXPECT_EQ(addresses_in("\"www.example.com\", he said"), Words{"www.example.com"});
  // A bracket the address opened itself stays with it.
  EXPECT_EQ(addresses_in("Read https://en.wikipedia.org/wiki/Bonn_(city)."), Words{"https://en.wikipedia.org/wiki/Bonn_(city)"});
  EXPECT_EQ(addresses_in("(https://en.wikipedia.org/wiki/Bonn_(city))"), Words{"https://en.wikipedia.org/wiki/Bonn_(city)"});
  // Typographic quotes, and French spacing: no-break spaces before "!" and inside « ».
  EXPECT_EQ(addresses_in("Siehe „www.example.de“ und «\u00A0@alice\u00A0»."), (Words{"www.example.de", "@alice"}));
  EXPECT_EQ(addresses_in("Écrivez à info@example.fr\u00A0! Ou “#tag”."), (Words{"info@example.fr", "#tag"}));
  EXPECT_EQ(addresses_in("VISIT WWW.EXAMPLE.COM NOW"), Words{"WWW.EXAMPLE.COM"});
}

}  // namespace
}  // namespace attend
