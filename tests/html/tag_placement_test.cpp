// How often the shipped models' translations keep a tag around the right word (docs/html.md):
// tests/data/real_text/html_tags.tsv (scripts/make_html_tag_set.py) marks one common word of 86
// Multi30k val sentences with <b>, <a href> or <b>word before <i>word</i></b>; all of them are
// translated as one fragment (a <p> each, greedy and beam 5) and, for each translation holding the word's
// expected German or French form exactly once, the tag (<i> for the nested ones) is checked to
// hold it, and to hold at most one other word. Prints the figures; asserts floors a little
// below them.
#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "attend/html.h"

namespace attend {
namespace {

struct TaggedSentence {
  std::string kind, html;
  std::vector<std::string> forms[2];  // German, French: prefixes, "x$" for exactly x
};

std::vector<std::string> split(const std::string& text, char separator) {
  std::vector<std::string> parts;
  std::stringstream in(text);
  for (std::string part; std::getline(in, part, separator);) parts.push_back(part);
  return parts;
}

std::vector<TaggedSentence> read_set() {
  std::ifstream in(ATTEND_HTML_TAG_SET);
  std::vector<TaggedSentence> rows;
  for (std::string line; std::getline(in, line);) {
    if (line.empty() || line[0] == '#') continue;
    const std::vector<std::string> fields = split(line, '\t');
    rows.push_back(TaggedSentence{fields.at(0), fields.at(1), {split(fields.at(2), ','), split(fields.at(3), ',')}});
  }
  return rows;
}

bool is_punctuation(char c) { return c > 0 && c < 127 && !std::isalnum(static_cast<unsigned char>(c)) && c != ' '; }

// The words of `text` cut at spaces, without punctuation at their ends, ASCII letters lowercase.
std::vector<std::string> words(const std::string& text) {
  std::vector<std::string> out;
  for (std::string word : split(text, ' ')) {
    while (!word.empty() && is_punctuation(word.back())) word.pop_back();
    while (!word.empty() && is_punctuation(word.front())) word.erase(0, 1);
    for (char& c : word) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    if (!word.empty()) out.push_back(word);
  }
  return out;
}

bool matches(const std::string& word, const std::vector<std::string>& forms) {
  for (const std::string& form : forms) {
    if (form.back() == '$' ? word == form.substr(0, form.size() - 1) : word.rfind(form, 0) == 0) return true;
  }
  return false;
}

int count(const std::string& text, const std::vector<std::string>& forms) {
  int n = 0;
  for (const std::string& word : words(text)) n += matches(word, forms);
  return n;
}

struct Figures {
  int counted = 0, inside = 0, tight = 0;
  std::string misses;  // the translated blocks whose tag missed the word
};

// The figures of each kind of row (b, a, nested) for `model`; language 0 German, 1 French.
std::map<std::string, Figures> measure(const std::string& model, int language, int beam_size) {
  const std::vector<TaggedSentence> rows = read_set();
  std::string html;
  for (const TaggedSentence& row : rows) html += "<p>" + row.html + "</p>\n";
  Translator translator(Model::from_file(model));
  TranslateOptions options;
  options.beam_size = beam_size;
  const HtmlFragment out = parse_html(translate_html(translator, html, options).html);
  EXPECT_EQ(out.blocks.size(), rows.size());
  std::map<std::string, Figures> figures;
  for (size_t k = 0; k < rows.size() && k < out.blocks.size(); ++k) {
    const std::vector<std::string>& forms = rows[k].forms[language];
    const HtmlBlock& block = out.blocks[k];
    if (count(block.text, forms) != 1) continue;
    Figures& f = figures[rows[k].kind];
    ++f.counted;
    const HtmlElement& tag = block.elements.back();  // the <i> of nested ones, else the one tag
    const std::string tagged = block.text.substr(tag.begin, tag.end - tag.begin);
    const bool inside = count(tagged, forms) == 1;
    f.inside += inside;
    f.tight += inside && words(tagged).size() <= 2;
    if (!inside) f.misses += "  " + serialize_block(block) + "\n";
  }
  return figures;
}

double percent(int part, int whole) { return whole ? 100.0 * part / whole : 0.0; }

// Floors in percent of the counted sentences, a little below the measured figures (docs/html.md).
void check(const char* name, const std::string& model, int language, double floor) {
  for (const int beam_size : {1, 5}) {
    for (const auto& [kind, f] : measure(model, language, beam_size)) {
      std::printf("%s beam %d %-6s: %d counted, expected word inside the tag %d (%.1f%%), and at most 1 other word %d (%.1f%%)\n%s",
                  name, beam_size, kind.c_str(), f.counted, f.inside, percent(f.inside, f.counted), f.tight,
                  percent(f.tight, f.counted), f.misses.c_str());
      EXPECT_GE(f.counted, 70) << name << " " << kind;
      EXPECT_GE(percent(f.inside, f.counted), floor) << name << " beam " << beam_size << " " << kind;
      EXPECT_GE(percent(f.tight, f.counted), floor) << name << " beam " << beam_size << " " << kind;
    }
  }
}

TEST(TagPlacement, EnDe) { check("en-de", ATTEND_MODEL_EN_DE, 0, 94.0); }
TEST(TagPlacement, EnFr) { check("en-fr", ATTEND_MODEL_EN_FR, 1, 93.0); }

}  // namespace
}  // namespace attend
